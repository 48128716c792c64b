import { guildSetupCacheKey, type SetupChecklist } from '@spacecadet/contract';
import { levelingRoles } from '@spacecadet/db';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

let h: Harness;
let ada: string;
const ROLES = SANDBOX_IDS.roles;

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
});
afterAll(async () => {
  await h?.close();
});

async function patchRole(roleId: string, body: object): Promise<void> {
  const res = await fetch(`${h.sandbox.url}/_sandbox/guilds/${GUILDS.station}/roles/${roleId}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  // What the worker's setup-watch feature does on the role event (tested in the worker).
  await h.app.services.redis.del(guildSetupCacheKey(GUILDS.station));
}

async function checklist(guildId: string = GUILDS.station, auth = ada) {
  return h.app.inject({
    method: 'GET',
    url: `/api/guilds/${guildId}/setup`,
    headers: { authorization: auth },
  });
}

async function lineOf(id: string) {
  const res = await checklist();
  expect(res.statusCode).toBe(200);
  const body = res.json<SetupChecklist>();
  const line = body.lines.find((l) => l.id === id);
  if (!line) throw new Error(`no line ${id}`);
  return line;
}

describe('setup checklist', () => {
  it('the role-order line is ✗ while a reward role is above the bot, ✓ once the bot is moved above it', async () => {
    await h.database.db
      .insert(levelingRoles)
      .values({ guildId: GUILDS.station, roleName: 'Moderators', roleId: ROLES.stationModerators });
    await patchRole(ROLES.stationBot, { position: 1 });
    await patchRole(ROLES.stationModerators, { position: 3 });
    const before = await lineOf('role_order');
    expect(before.status).toBe('todo');
    expect(before.text).toContain('Server Settings → Roles');
    const moderators = before.role_order?.find((r) => r.id === ROLES.stationModerators);
    expect(moderators).toMatchObject({ managed_by_bot: true, blocked: true });
    expect(before.role_order?.find((r) => r.id === ROLES.stationBot)?.is_bot).toBe(true);
    // An admin drags the bot's role to the top in Server Settings → Roles.
    await patchRole(ROLES.stationBot, { position: 8 });
    const after = await lineOf('role_order');
    expect(after.status).toBe('ok');
    expect(after.role_order?.[0]?.id).toBe(ROLES.stationBot);
  });

  it('the permissions line names what a feature lacks, and turns ✓ when the role gets it back', async () => {
    await patchRole(ROLES.stationBot, { permissions: '0' });
    await patchRole(GUILDS.station, { permissions: '0' });
    const broken = await lineOf('permissions');
    expect(broken.status).toBe('todo');
    expect(broken.items.join(' ')).toContain('Manage Roles');
    await patchRole(ROLES.stationBot, { permissions: '8' });
    expect((await lineOf('permissions')).status).toBe('ok');
  });

  it('the channels and features lines ask for a feature and its channel', async () => {
    const features = await lineOf('features_on');
    // Nothing is set up in the sandbox's station yet: no feature on, so no channel is needed.
    expect(features.status).toBe('todo');
    expect(features.fix?.href).toBe('/dashboard/color-roles');
    expect(features.items).toEqual([
      'Color roles: off',
      'Personality roles: off',
      'Leveling: off',
      'Role menus: off',
    ]);
    expect((await lineOf('channels')).status).toBe('ok');
  });

  it('refuses a server the user does not manage and a signed-out request', async () => {
    const nia = await signIn(h, USERS.nia);
    // Ada does not manage Other Orbit: its id is refused.
    expect((await checklist(GUILDS.orbit)).statusCode).toBe(403);
    expect((await checklist(GUILDS.station, nia)).statusCode).toBe(403);
    expect(
      (await h.app.inject({ method: 'GET', url: `/api/guilds/${GUILDS.station}/setup` })).statusCode,
    ).toBe(401);
    const put = await h.app.inject({
      method: 'PUT',
      url: `/api/guilds/${GUILDS.station}/setup/dismissal`,
      headers: { authorization: nia },
    });
    expect(put.statusCode).toBe(403);
  });

  it('a dismissal is stored per server and can be undone', async () => {
    const put = await h.app.inject({
      method: 'PUT',
      url: `/api/guilds/${GUILDS.station}/setup/dismissal`,
      headers: { authorization: ada },
    });
    expect(put.statusCode).toBe(200);
    expect((await checklist()).json<SetupChecklist>().dismissed_at).not.toBeNull();
    const quiet = (await checklist(GUILDS.quiet)).json<SetupChecklist>();
    expect(quiet.dismissed_at).toBeNull();
    expect(quiet.lines[0]).toMatchObject({ id: 'bot_present', status: 'todo' });
    const del = await h.app.inject({
      method: 'DELETE',
      url: `/api/guilds/${GUILDS.station}/setup/dismissal`,
      headers: { authorization: ada },
    });
    expect(del.statusCode).toBe(200);
    expect((await checklist()).json<SetupChecklist>().dismissed_at).toBeNull();
  });
});
