import { PermissionFlagsBits as P } from 'discord-api-types/v10';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_IDS, type Sandbox, startSandbox } from '../src/index.ts';
import { guildCreatePayload } from '../src/payloads.ts';
import { bot, control } from './helpers.ts';

let sandbox: Sandbox;
let dispatched: Array<{ t: string; d: unknown }>;
beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
  dispatched = [];
  sandbox.world.events.on('dispatch', (event: { t: string; d: unknown }) => dispatched.push(event));
});
afterEach(async () => {
  await sandbox.close();
});

const { guilds, channels, roles, users } = SANDBOX_IDS;
const path = `/channels/${channels.roles}/messages`;
const overwrite = (id: string, type: 0 | 1, allow: bigint, deny: bigint) =>
  control(sandbox, 'PUT', `/channels/${channels.roles}/permissions/${id}`, {
    type,
    allow: allow.toString(),
    deny: deny.toString(),
  });

describe('channel permission overwrites', () => {
  it('a role overwrite denying Send Messages refuses the bot with 50013, and CHANNEL_UPDATE carries it', async () => {
    expect((await overwrite(roles.stationBot, 0, 0n, P.SendMessages)).status).toBe(200);
    expect(await bot(sandbox, 'POST', path, { content: 'hi' })).toMatchObject({
      status: 403,
      body: { code: 50013, message: 'Missing Permissions' },
    });
    const update = dispatched.find((e) => e.t === 'CHANNEL_UPDATE');
    expect(update?.d).toMatchObject({
      id: channels.roles,
      permission_overwrites: [{ id: roles.stationBot, type: 0, allow: '0', deny: P.SendMessages.toString() }],
    });
    const station = sandbox.world.guilds.get(guilds.station);
    if (!station) throw new Error('no station');
    const created = guildCreatePayload(sandbox.world, station).channels.find((c) => c.id === channels.roles);
    expect(created?.permission_overwrites).toHaveLength(1);
    expect((await bot(sandbox, 'GET', `/channels/${channels.roles}`)).body).toMatchObject({
      permission_overwrites: [{ id: roles.stationBot }],
    });
    // The typing indicator needs Send Messages too; reading still works.
    expect((await bot(sandbox, 'POST', `/channels/${channels.roles}/typing`)).status).toBe(403);
    expect((await bot(sandbox, 'GET', path)).status).toBe(200);

    // A member overwrite for the bot wins over its roles' overwrites.
    await overwrite(SANDBOX_IDS.bot, 1, P.SendMessages, 0n);
    expect((await bot(sandbox, 'POST', path, { content: 'hi' })).status).toBe(200);
    // Removing the overwrite sends CHANNEL_UPDATE again.
    expect(
      (await control(sandbox, 'DELETE', `/channels/${channels.roles}/permissions/${SANDBOX_IDS.bot}`)).status,
    ).toBe(200);
    expect((await bot(sandbox, 'POST', path, { content: 'hi' })).status).toBe(403);
    expect(dispatched.filter((e) => e.t === 'CHANNEL_UPDATE')).toHaveLength(3);
  });

  it('@everyone denied View Channel hides the channel: 50001 Missing Access, unless a role overwrite allows it', async () => {
    await overwrite(guilds.station, 0, 0n, P.ViewChannel);
    for (const res of [
      await bot(sandbox, 'POST', path, { content: 'hi' }),
      await bot(sandbox, 'GET', path),
    ]) {
      expect(res).toMatchObject({ status: 403, body: { code: 50001, message: 'Missing Access' } });
    }
    await overwrite(roles.stationBot, 0, P.ViewChannel, 0n);
    expect((await bot(sandbox, 'POST', path, { content: 'hi' })).status).toBe(200);
  });

  it('embeds need Embed Links; without Read Message History the channel reads empty', async () => {
    await overwrite(roles.stationBot, 0, 0n, P.EmbedLinks | P.ReadMessageHistory);
    expect((await bot(sandbox, 'POST', path, { embeds: [{ title: 't' }] })).body).toMatchObject({
      code: 50013,
    });
    const plain = await bot(sandbox, 'POST', path, { content: 'plain' });
    expect(plain.status).toBe(200);
    expect((await bot(sandbox, 'GET', path)).body).toEqual([]);
    const id = (plain.body as { id: string }).id;
    expect((await bot(sandbox, 'GET', `${path}/${id}`)).body).toMatchObject({ code: 50013 });
  });

  it('Administrator bypasses every overwrite', async () => {
    await overwrite(guilds.station, 0, 0n, P.ViewChannel | P.SendMessages);
    await control(sandbox, 'PATCH', `/guilds/${guilds.station}/roles/${roles.stationBot}`, {
      permissions: P.Administrator.toString(),
    });
    expect((await bot(sandbox, 'POST', path, { content: 'hi' })).status).toBe(200);
  });

  it('members are held to overwrites too: a member denied Send Messages cannot post', async () => {
    await overwrite(roles.stationCrew, 0, 0n, P.SendMessages);
    const post = await control(sandbox, 'POST', '/messages', {
      guild_id: guilds.station,
      channel_id: channels.roles,
      author_id: users.nia,
      content: 'hello',
    });
    expect(post.status).toBe(403);
  });

  it('the bot sets overwrites through REST as Discord allows: only what it has, with Manage Roles', async () => {
    const put = (id: string, body: unknown) =>
      bot(sandbox, 'PUT', `/channels/${channels.roles}/permissions/${id}`, body);
    expect((await put(roles.stationCrew, { type: 0, deny: P.SendMessages.toString() })).status).toBe(204);
    expect(
      (
        await control(sandbox, 'POST', '/messages', {
          guild_id: guilds.station,
          channel_id: channels.roles,
          author_id: users.nia,
          content: 'hello',
        })
      ).status,
    ).toBe(403);
    // Kick Members is not the bot's to give.
    expect((await put(roles.stationCrew, { type: 0, allow: P.KickMembers.toString() })).body).toMatchObject({
      code: 50013,
    });
    const bad = await put(roles.stationCrew, { type: 3 });
    expect(bad.body).toMatchObject({
      code: 50035,
      errors: { type: { _errors: [{ code: 'BASE_TYPE_CHOICES' }] } },
    });
    expect((await put('1', { type: 0 })).body).toMatchObject({ code: 10011 });
    expect(
      (await bot(sandbox, 'DELETE', `/channels/${channels.roles}/permissions/${roles.stationCrew}`)).status,
    ).toBe(204);
    expect(
      (await bot(sandbox, 'DELETE', `/channels/${channels.roles}/permissions/${roles.stationCrew}`)).body,
    ).toMatchObject({
      code: 10009,
    });
  });
});
