import type { Client, Role } from 'discord.js';
import { Events } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { SANDBOX_IDS } from '../src/index.ts';
import { eventually, readyClient, sandboxPerTest, waitFor } from './discordjs-helpers.ts';
import { authorize, bot, control, signIn } from './helpers.ts';

const { sandbox, keep } = sandboxPerTest();

const { guilds, channels, users, roles } = SANDBOX_IDS;
async function client(): Promise<Client> {
  const c = await readyClient(sandbox());
  keep(c);
  return c;
}

describe('control API with a connected bot', () => {
  it('re-sends the fixture to the bot after a reset', async () => {
    const c = await client();
    const station = c.guilds.cache.get(guilds.station);
    const role = await station?.roles.create({ name: 'Temporary' });
    await authorize(sandbox(), { scope: 'bot', sandbox_user: users.ada, guild_id: guilds.quiet });
    await eventually(() => c.guilds.cache.get(guilds.quiet));
    const left = waitFor<{ id: string }>((l) => {
      c.on(Events.GuildDelete, l);
      return () => c.off(Events.GuildDelete, l);
    });
    await control(sandbox(), 'POST', '/reset');
    expect((await left).id).toBe(guilds.quiet);
    await eventually(() =>
      c.guilds.cache.get(guilds.station)?.roles.cache.has(role?.id ?? '') ? undefined : true,
    );
    await eventually(async () => {
      const presence = (await control(sandbox(), 'GET', '/presence')).body as { online: boolean };
      return presence.online ? true : undefined;
    });
  });

  it('tells the bot when an admin deletes a role and when the bot is kicked', async () => {
    const c = await client();
    const deleted = waitFor<Role>((l) => {
      c.on(Events.GuildRoleDelete, l);
      return () => c.off(Events.GuildRoleDelete, l);
    });
    expect(
      (await control(sandbox(), 'DELETE', `/guilds/${guilds.station}/roles/${roles.stationCrew}`)).status,
    ).toBe(200);
    expect((await deleted).id).toBe(roles.stationCrew);
    const gone = waitFor<{ id: string }>((l) => {
      c.on(Events.GuildDelete, l);
      return () => c.off(Events.GuildDelete, l);
    });
    await control(sandbox(), 'DELETE', `/guilds/${guilds.orbit}/members/${SANDBOX_IDS.bot}`);
    expect((await gone).id).toBe(guilds.orbit);
    expect((await bot(sandbox(), 'GET', `/guilds/${guilds.orbit}`)).body).toMatchObject({ code: 50001 });
  });

  it('tells the bot when an admin edits a role or hands the server to another owner', async () => {
    const c = await client();
    const station = c.guilds.cache.get(guilds.station);
    expect(station?.roles.cache.get(roles.stationManagers)?.permissions.has('ManageGuild')).toBe(true);
    const updated = waitFor<[Role, Role]>((l) => {
      const listener = (before: Role, after: Role) => l([before, after]);
      c.on(Events.GuildRoleUpdate, listener);
      return () => c.off(Events.GuildRoleUpdate, listener);
    });
    const edited = await control(
      sandbox(),
      'PATCH',
      `/guilds/${guilds.station}/roles/${roles.stationManagers}`,
      {
        permissions: '0',
      },
    );
    expect(edited.body).toMatchObject({ id: roles.stationManagers, permissions: '0' });
    const [before, after] = await updated;
    expect(before.permissions.has('ManageGuild')).toBe(true);
    expect(after.permissions.has('ManageGuild')).toBe(false);
    // The API's view: mo no longer manages the station.
    const mo = await signIn(sandbox(), users.mo);
    const moGuilds = await fetch(`${sandbox().apiBase}/v10/users/@me/guilds`, {
      headers: { authorization: `Bearer ${String(mo.access_token)}` },
    });
    const managedStation = ((await moGuilds.json()) as Array<{ id: string; permissions: string }>).find(
      (g) => g.id === guilds.station,
    );
    expect(BigInt(managedStation?.permissions ?? '0') & 0x20n).toBe(0n);

    expect(
      (await control(sandbox(), 'PATCH', `/guilds/${guilds.station}`, { owner_id: users.rex })).status,
    ).toBe(400);
    const ownerChanged = waitFor<string>((l) => {
      const listener = (_old: unknown, guild: { ownerId: string }) => l(guild.ownerId);
      c.on(Events.GuildUpdate, listener);
      return () => c.off(Events.GuildUpdate, listener);
    });
    expect(
      (await control(sandbox(), 'PATCH', `/guilds/${guilds.station}`, { owner_id: users.mo })).body,
    ).toMatchObject({
      owner_id: users.mo,
    });
    expect(await ownerChanged).toBe(users.mo);
  });

  it('answers a gateway member request with a chunk', async () => {
    const c = await client();
    const members = await c.guilds.cache.get(guilds.station)?.members.fetch();
    expect([...(members?.keys() ?? [])].sort()).toEqual(
      [SANDBOX_IDS.bot, users.ada, users.mo, users.nia].sort(),
    );
  });

  it('lets a human give a role and delete a message', async () => {
    const posted = await bot(sandbox(), 'POST', `/channels/${channels.general}/messages`, {
      content: 'panel',
    });
    const id = (posted.body as { id: string }).id;
    expect((await control(sandbox(), 'DELETE', `/channels/${channels.general}/messages/${id}`)).status).toBe(
      200,
    );
    expect((await bot(sandbox(), 'GET', `/channels/${channels.general}/messages/${id}`)).status).toBe(404);
    const given = await control(
      sandbox(),
      'PUT',
      `/guilds/${guilds.station}/members/${users.nia}/roles/${roles.stationModerators}`,
    );
    expect((given.body as { roles: string[] }).roles).toContain(roles.stationModerators);
  });
});

describe('control API: new users', () => {
  it('makes a user (a person or a bot) who joins a guild once added', async () => {
    const made = await control(sandbox(), 'POST', '/users', { username: 'pilot_7', global_name: 'Pilot' });
    expect(made.status).toBe(200);
    const { id } = made.body as { id: string };
    expect(id).toMatch(/^\d{17,20}$/);
    // Not a member until added, as on Discord.
    expect((await bot(sandbox(), 'GET', `/guilds/${guilds.station}/members/${id}`)).status).toBe(404);
    expect((await control(sandbox(), 'PUT', `/guilds/${guilds.station}/members/${id}`)).status).toBe(200);
    const member = await bot(sandbox(), 'GET', `/guilds/${guilds.station}/members/${id}`);
    expect(member.body).toMatchObject({
      user: { id, username: 'pilot_7', global_name: 'Pilot', bot: false },
    });

    const other = await control(sandbox(), 'POST', '/users', { username: 'helper.bot', bot: true });
    const botId = (other.body as { id: string }).id;
    await control(sandbox(), 'PUT', `/guilds/${guilds.station}/members/${botId}`);
    const listed = (await bot(sandbox(), 'GET', `/guilds/${guilds.station}/members?limit=1000`)).body as {
      user: { id: string; bot?: boolean };
    }[];
    expect(listed.find((m) => m.user.id === botId)?.user.bot).toBe(true);
  });

  it('refuses a username Discord would not take, and one that is taken', async () => {
    for (const username of ['x', 'Has Space', 'UPPER', 'a'.repeat(33), 42]) {
      const refused = await control(sandbox(), 'POST', '/users', { username });
      expect(refused.status).toBe(400);
    }
    expect((await control(sandbox(), 'POST', '/users', { username: 'nia' })).status).toBe(409);
    expect((await control(sandbox(), 'POST', '/users', { username: 'ok', bot: 'yes' })).status).toBe(400);
  });
});
