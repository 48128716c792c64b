import { type Client, GuildMemberFlags } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_IDS, type Sandbox } from '../src/index.ts';
import { nextPacket as nextClientPacket, readyClient } from './discordjs-helpers.ts';
import { bot, control } from './helpers.ts';
import { ONBOARDING_PATH, roomyFixture, startManaging } from './onboarding-helpers.ts';

const { guilds, roles, users } = SANDBOX_IDS;
const SCREENING = 'MEMBER_VERIFICATION_GATE_ENABLED';
const station = `/guilds/${guilds.station}`;

let sandbox: Sandbox;
let client: Client | undefined;
afterEach(async () => {
  await client?.destroy();
  client = undefined;
  await sandbox.close();
});

async function start(fixture?: Parameters<typeof startManaging>[0]): Promise<Client> {
  sandbox = await startManaging(fixture);
  client = await readyClient(sandbox);
  return client;
}

/** The next gateway packet of type `t` the bot receives for which `accept` holds. */
function nextPacket(t: string, accept?: (d: Record<string, unknown>) => boolean) {
  if (!client) throw new Error('no client');
  return nextClientPacket(client, t, accept);
}

const ofUser = (id: string) => (d: Record<string, unknown>) => (d.user as { id: string }).id === id;

/** A new account (POST /_sandbox/users) joining Station; the GUILD_MEMBER_ADD the bot got. */
async function join(username: string): Promise<{ id: string; added: Record<string, unknown> }> {
  const { id } = (await control(sandbox, 'POST', '/users', { username })).body as { id: string };
  const added = nextPacket('GUILD_MEMBER_ADD', ofUser(id));
  expect((await control(sandbox, 'PUT', `${station}/members/${id}`)).status).toBe(200);
  return { id, added: await added };
}

async function turnOnScreening(): Promise<void> {
  const updated = nextPacket('GUILD_UPDATE');
  const res = await control(sandbox, 'PATCH', station, { features: [SCREENING] });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ features: [SCREENING] });
  expect(await updated).toMatchObject({ id: guilds.station, features: [SCREENING] });
}

describe('members joining a server with Membership Screening or Onboarding', () => {
  it('join as full members (pending false, flags 0) when the server has neither', async () => {
    await start();
    const { id, added } = await join('plainjoiner');
    expect(added).toMatchObject({ guild_id: guilds.station, pending: false, flags: 0, roles: [] });
    expect((await bot(sandbox, 'GET', `${station}/members/${id}`)).body).toMatchObject({
      pending: false,
      flags: 0,
    });
    expect((await bot(sandbox, 'PUT', `${station}/members/${id}/roles/${roles.stationCrew}`)).status).toBe(
      204,
    );
  });

  it('join pending with Membership Screening: shown so by REST, refused roles until they complete it', async () => {
    await start();
    await turnOnScreening();
    expect((await bot(sandbox, 'GET', station)).body).toMatchObject({ features: [SCREENING] });
    const { id, added } = await join('screened');
    expect(added).toMatchObject({ guild_id: guilds.station, pending: true, flags: 0 });

    expect((await bot(sandbox, 'GET', `${station}/members/${id}`)).body).toMatchObject({ pending: true });
    const listed = (await bot(sandbox, 'GET', `${station}/members?limit=1000`)).body as Array<{
      user: { id: string };
      pending: boolean;
      flags: number;
    }>;
    expect(listed.find((m) => m.user.id === id)).toMatchObject({ pending: true, flags: 0 });
    expect(listed.find((m) => m.user.id === users.nia)).toMatchObject({ pending: false, flags: 0 });
    expect((await bot(sandbox, 'GET', `${station}/members/search?query=screened`)).body).toMatchObject([
      { user: { id }, pending: true, flags: 0 },
    ]);

    // Discord refuses a pending member roles: by the role route and by editing the member.
    const refused = await bot(sandbox, 'PUT', `${station}/members/${id}/roles/${roles.stationCrew}`);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: 50013, message: 'Missing Permissions' });
    const patched = await bot(sandbox, 'PATCH', `${station}/members/${id}`, { roles: [roles.stationCrew] });
    expect(patched.status).toBe(403);
    expect(patched.body).toEqual({ code: 50013, message: 'Missing Permissions' });
    expect((await bot(sandbox, 'PATCH', `${station}/members/${id}`, { nick: 'Newbie' })).status).toBe(200);
    expect((await bot(sandbox, 'GET', `${station}/members/${id}`)).body).toMatchObject({ roles: [] });

    // They complete it: GUILD_MEMBER_UPDATE with pending false and the new flags.
    const updated = nextPacket('GUILD_MEMBER_UPDATE', ofUser(id));
    const done = await control(sandbox, 'PATCH', `${station}/members/${id}`, {
      pending: false,
      flags: GuildMemberFlags.CompletedOnboarding,
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ pending: false, flags: GuildMemberFlags.CompletedOnboarding });
    expect(await updated).toMatchObject({
      guild_id: guilds.station,
      pending: false,
      flags: GuildMemberFlags.CompletedOnboarding,
      nick: 'Newbie',
    });
    const member = await client?.guilds.cache.get(guilds.station)?.members.fetch(id);
    expect(member?.pending).toBe(false);
    expect(member?.flags.has(GuildMemberFlags.CompletedOnboarding)).toBe(true);
    expect((await bot(sandbox, 'PUT', `${station}/members/${id}/roles/${roles.stationCrew}`)).status).toBe(
      204,
    );

    // The same change again changes nothing and sends nothing; a member is never pending again.
    expect(
      (
        await control(sandbox, 'PATCH', `${station}/members/${id}`, {
          flags: GuildMemberFlags.CompletedOnboarding,
        })
      ).status,
    ).toBe(200);
    const again = await control(sandbox, 'PATCH', `${station}/members/${id}`, { pending: true });
    expect(again.status).toBe(400);
    expect((again.body as { message: string }).message).toMatch(/never makes a member pending again/);
  });

  it('join pending when Onboarding is enabled', async () => {
    const { fixture, ids } = roomyFixture();
    await start(fixture);
    const enabled = await bot(sandbox, 'PUT', ONBOARDING_PATH, {
      prompts: [],
      default_channel_ids: ids,
      enabled: true,
    });
    expect(enabled.status).toBe(200);
    const { id, added } = await join('onboarder');
    expect(added).toMatchObject({ pending: true, flags: 0 });
    const updated = nextPacket('GUILD_MEMBER_UPDATE', ofUser(id));
    await control(sandbox, 'PATCH', `${station}/members/${id}`, {
      flags: GuildMemberFlags.StartedOnboarding,
    });
    expect(await updated).toMatchObject({ pending: true, flags: GuildMemberFlags.StartedOnboarding });
  });

  it('leave with GUILD_MEMBER_REMOVE {guild_id, user}; joining again carries DID_REJOIN', async () => {
    await start();
    const { id } = await join('wanderer');
    const removed = nextPacket('GUILD_MEMBER_REMOVE', ofUser(id));
    expect((await control(sandbox, 'DELETE', `${station}/members/${id}`)).status).toBe(200);
    const payload = await removed;
    expect(Object.keys(payload).sort()).toEqual(['guild_id', 'user']);
    expect(payload).toMatchObject({ guild_id: guilds.station, user: { id, username: 'wanderer' } });
    expect((await control(sandbox, 'DELETE', `${station}/members/${id}`)).status).toBe(404);

    await turnOnScreening();
    const added = nextPacket('GUILD_MEMBER_ADD', ofUser(id));
    await control(sandbox, 'PUT', `${station}/members/${id}`);
    expect(await added).toMatchObject({ pending: true, flags: GuildMemberFlags.DidRejoin });
    // A reset forgets who left.
    await control(sandbox, 'POST', '/reset');
    expect(sandbox.state().guilds.find((g) => g.id === guilds.station)?.former_member_ids).toBeUndefined();
  });

  it('turning screening off again lets new members join as full members', async () => {
    await start();
    await turnOnScreening();
    expect((await control(sandbox, 'PATCH', station, { features: [] })).body).toMatchObject({ features: [] });
    expect((await join('latecomer')).added).toMatchObject({ pending: false });
  });
});

describe('the control routes refuse what Discord could not do, with a clear message', () => {
  it('rejects bad completion bodies and unknown members', async () => {
    await start();
    await turnOnScreening();
    const { id } = await join('fussy');
    const path = `${station}/members/${id}`;
    const cases: Array<[unknown, RegExp]> = [
      [{}, /Give "pending", "flags" or both/],
      [{ pending: 'no' }, /"pending" must be true or false/],
      [{ flags: -1 }, /"flags" must be a whole number/],
      [{ flags: 1.5 }, /"flags" must be a whole number/],
      [{ flags: 1 << 12 }, /"flags" must be a whole number/],
      [{ flags: '2' }, /"flags" must be a whole number/],
      [{ pending: false, nick: 'x' }, /Unknown field\(s\) nick/],
      [[1], /JSON object/],
    ];
    for (const [body, message] of cases) {
      const res = await control(sandbox, 'PATCH', path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_request', message: expect.stringMatching(message) });
    }
    expect((await bot(sandbox, 'GET', path)).body).toMatchObject({ pending: true, flags: 0 });
    expect(
      (await control(sandbox, 'PATCH', `${station}/members/${users.rex}`, { pending: false })).status,
    ).toBe(404);
    expect((await control(sandbox, 'PATCH', `/guilds/1/members/${id}`, { pending: false })).status).toBe(404);
  });

  it('rejects features that are not a list of feature names', async () => {
    await start();
    for (const features of ['MEMBER_VERIFICATION_GATE_ENABLED', [1], ['member verification'], null]) {
      const res = await control(sandbox, 'PATCH', station, { features });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_features' });
    }
    expect((await bot(sandbox, 'GET', station)).body).toMatchObject({ features: [] });
  });
});
