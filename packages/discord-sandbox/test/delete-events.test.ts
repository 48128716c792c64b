import type { Client } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_IDS, type Sandbox, startSandbox } from '../src/index.ts';
import { nextPacket as nextClientPacket, readyClient } from './discordjs-helpers.ts';
import { bot, control } from './helpers.ts';

let sandbox: Sandbox;
let client: Client;
beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
  client = await readyClient(sandbox);
});
afterEach(async () => {
  await client.destroy();
  await sandbox.close();
});

const { guilds, channels } = SANDBOX_IDS;

/** The next gateway packet of type `t` for which `accept` holds, as the bot received it. */
const nextPacket = (t: string, accept?: (d: Record<string, unknown>) => boolean) =>
  nextClientPacket(client, t, accept);

async function postAsBot(content: string): Promise<string> {
  const posted = await bot(sandbox, 'POST', `/channels/${channels.roles}/messages`, { content });
  return (posted.body as { id: string }).id;
}

describe('deletes and role edits reach the gateway whoever makes them', () => {
  it('dispatches GUILD_ROLE_UPDATE and GUILD_ROLE_DELETE for the bot’s own REST edits and deletes', async () => {
    const role = (await bot(sandbox, 'POST', `/guilds/${guilds.station}/roles`, { name: 'Temp' })).body as {
      id: string;
    };
    const updated = nextPacket('GUILD_ROLE_UPDATE', (d) => (d.role as { id: string }).id === role.id);
    expect(
      (await bot(sandbox, 'PATCH', `/guilds/${guilds.station}/roles/${role.id}`, { name: 'Renamed' })).status,
    ).toBe(200);
    expect(await updated).toMatchObject({ guild_id: guilds.station, role: { id: role.id, name: 'Renamed' } });
    const deleted = nextPacket('GUILD_ROLE_DELETE');
    expect((await bot(sandbox, 'DELETE', `/guilds/${guilds.station}/roles/${role.id}`)).status).toBe(204);
    expect(await deleted).toEqual({ guild_id: guilds.station, role_id: role.id });
  });

  it('dispatches MESSAGE_DELETE for a message deleted by REST or by an admin', async () => {
    const [first, second] = [await postAsBot('one'), await postAsBot('two')];
    let deleted = nextPacket('MESSAGE_DELETE');
    expect((await bot(sandbox, 'DELETE', `/channels/${channels.roles}/messages/${first}`)).status).toBe(204);
    expect(await deleted).toEqual({ id: first, channel_id: channels.roles, guild_id: guilds.station });
    deleted = nextPacket('MESSAGE_DELETE');
    expect((await control(sandbox, 'DELETE', `/channels/${channels.roles}/messages/${second}`)).status).toBe(
      200,
    );
    expect(await deleted).toEqual({ id: second, channel_id: channels.roles, guild_id: guilds.station });
  });

  it('bulk deletes as Discord does: one MESSAGE_DELETE_BULK, 2 to 100 ids, none older than 14 days', async () => {
    const ids = [await postAsBot('a'), await postAsBot('b'), await postAsBot('c')];
    const bulk = nextPacket('MESSAGE_DELETE_BULK');
    // A recent id no message has: it counts toward the limits and is skipped.
    const missing = ((BigInt(Date.now()) - 1420070400000n) << 22n).toString();
    const purge = await bot(sandbox, 'POST', `/channels/${channels.roles}/messages/bulk-delete`, {
      messages: [ids[0], ids[1], missing],
    });
    expect(purge.status).toBe(204);
    expect(await bulk).toEqual({
      ids: [ids[0], ids[1]],
      channel_id: channels.roles,
      guild_id: guilds.station,
    });
    const left = (await bot(sandbox, 'GET', `/channels/${channels.roles}/messages`)).body as Array<{
      id: string;
    }>;
    expect(left.map((m) => m.id)).toContain(ids[2]);
    expect(left.map((m) => m.id)).not.toContain(ids[0]);

    const one = await bot(sandbox, 'POST', `/channels/${channels.roles}/messages/bulk-delete`, {
      messages: [ids[2]],
    });
    expect(one.status).toBe(400);
    expect(one.body).toMatchObject({
      code: 50035,
      errors: { messages: { _errors: [{ code: 'BASE_TYPE_MIN_LENGTH' }] } },
    });
    // A message id from 2015 (the fixture's ids) is far older than 14 days.
    const old = await bot(sandbox, 'POST', `/channels/${channels.roles}/messages/bulk-delete`, {
      messages: [ids[2], channels.general],
    });
    expect(old.status).toBe(400);
    expect(old.body).toMatchObject({ code: 50034 });

    const adminBulk = nextPacket('MESSAGE_DELETE_BULK');
    const byAdmin = await control(sandbox, 'POST', `/channels/${channels.roles}/messages/bulk-delete`, {
      messages: [ids[2]],
    });
    expect(byAdmin).toEqual({ status: 200, body: { deleted: [ids[2]] } });
    expect(await adminBulk).toEqual({ ids: [ids[2]], channel_id: channels.roles, guild_id: guilds.station });
  });
});
