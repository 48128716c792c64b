import { describe, expect, it } from 'vitest';
import {
  decodeInstallState,
  encodeInstallState,
  GuildConfigData,
  JOB_NAMES,
  jobIdFor,
  jobLockFeature,
  PutReactionRolesBody,
  parseJobId,
  routePath,
  routes,
  successSchema,
} from '../src/index.ts';

/** Every call the dashboard makes, sign-in and install included. */
const DASHBOARD_CALLS = [
  'GET /api/invite-url',
  'POST /api/auth/discord/exchange',
  'GET /api/discord/me/guilds',
  'GET /api/bot/in-guild/:guildId',
  'GET /install',
  'GET /api/guilds/:guildId/config',
  'PUT /api/guilds/:guildId/config',
  'GET /api/guilds/:guildId/reaction-roles',
  'PUT /api/guilds/:guildId/reaction-roles',
  'GET /api/guilds/:guildId/color-roles',
  'GET /api/guilds/:guildId/channels',
  'PUT /api/guilds/:guildId/color-roles/channel',
  'POST /api/guilds/:guildId/color-roles/generate-roles',
  'POST /api/guilds/:guildId/color-roles/post-panel',
  'POST /api/guilds/:guildId/color-roles/reset',
  'PUT /api/color-groups/expand',
  'GET /api/guilds/:guildId/personality-roles',
  'POST /api/guilds/:guildId/personality-roles/init',
  'PUT /api/guilds/:guildId/personality-roles/channel',
  'PUT /api/guilds/:guildId/personality-roles/questions/:question_type/toggle',
  'POST /api/guilds/:guildId/personality-roles/generate-roles',
  'POST /api/guilds/:guildId/personality-roles/post-panel',
  'POST /api/guilds/:guildId/personality-roles/reset',
  'POST /api/guilds/:guildId/tasks/personality-roles/refresh',
  'GET /api/guilds/:guildId/leveling',
  'PUT /api/guilds/:guildId/leveling',
  'POST /api/guilds/:guildId/leveling/tasks/refresh',
  'POST /api/guilds/:guildId/leveling/tasks/resend-overview',
  'POST /api/guilds/:guildId/leveling/reset-config',
  'POST /api/guilds/:guildId/leveling/reset-all',
  'POST /api/guilds/:guildId/leveling/roles',
  'PUT /api/guilds/:guildId/leveling/roles/:roleId',
  'DELETE /api/guilds/:guildId/leveling/roles/:roleId',
  'POST /api/guilds/:guildId/leveling/boosts',
  'POST /api/guilds/:guildId/leveling/role-boosts',
  'DELETE /api/guilds/:guildId/leveling/boosts/:boostId',
  'POST /api/guilds/:guildId/leveling/prune-leavers',
];

describe('route table', () => {
  it('holds every call the dashboard makes exactly once', () => {
    const keys = Object.values(routes).map((r) => `${r.method} ${r.path}`);
    for (const call of DASHBOARD_CALLS) expect(keys.filter((k) => k === call)).toHaveLength(1);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('fills path parameters and encodes them', () => {
    expect(routePath(routes.getConfig, { guildId: '300000000000000001' })).toBe(
      '/api/guilds/300000000000000001/config',
    );
    expect(routePath(routes.togglePersonalityQuestion, { guildId: '123456', question_type: 'a b' })).toBe(
      '/api/guilds/123456/personality-roles/questions/a%20b/toggle',
    );
    expect(() => routePath(routes.getConfig, {})).toThrow(/guildId/);
  });

  it('every guild route requires a guild id param', () => {
    for (const r of Object.values(routes)) {
      if (r.auth === 'guild') expect('params' in r && r.params.shape.guildId).toBeTruthy();
    }
  });

  it('declares the 409 bot_not_in_guild on every route that needs the bot', () => {
    for (const [name, r] of Object.entries(routes)) {
      if ('needsBot' in r && r.needsBot === true) expect(r.errors as readonly number[], name).toContain(409);
    }
  });

  it('names a success schema for JSON routes and none for 204/redirects', () => {
    expect(successSchema(routes.getConfig)).not.toBeNull();
    expect(successSchema(routes.logout)).toBeNull();
  });
});

describe('reaction roles body', () => {
  const row = { emoji: '🔴', role_id: '400000000000000001' };
  it.each([
    [
      { color_roles: [row, { emoji: '', role_id: '1234567' }], personality_roles: [] },
      'Row 2: emoji and role_id required',
    ],
    [{ color_roles: [], personality_roles: [{ emoji: 'x' }] }, 'Row 1: emoji and role_id required'],
    [
      { color_roles: [{ emoji: 'x', role_id: 'abc' }], personality_roles: [] },
      'Row 1: role_id must be a Discord role id',
    ],
  ])('rejects %j with %s', (body, message) => {
    const result = PutReactionRolesBody.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain(message);
  });
  it('accepts complete rows', () => {
    expect(PutReactionRolesBody.safeParse({ color_roles: [row], personality_roles: [row] }).success).toBe(
      true,
    );
  });
});

describe('config data', () => {
  it.each([
    [{}, true],
    [{ color_roles_mode: 'basic', anything: [1, 2] }, true],
    [{ color_roles_mode: 'shades' }, true],
    [{ color_roles_mode: 'rainbow' }, false],
    [[1, 2], false],
    ['text', false],
    [null, false],
  ])('%j valid=%s', (data, valid) => {
    expect(GuildConfigData.safeParse(data).success).toBe(valid);
  });
});

describe('job ids', () => {
  it('round-trip for every job name and never contain a colon', () => {
    for (const name of JOB_NAMES) {
      const id = jobIdFor(name, '300000000000000001');
      expect(id).not.toContain(':');
      expect(parseJobId(id)).toEqual({ name, guildId: '300000000000000001' });
    }
    expect(parseJobId('nope.123')).toBeNull();
  });

  it("run under their feature's guild lock; the reaction panels share the role menus' one", () => {
    expect(jobLockFeature('color-roles.post-panel')).toBe('color-roles');
    expect(jobLockFeature('reaction-roles.post-panel')).toBe('role-menus');
    expect(jobLockFeature('role-menus.repair')).toBe('role-menus');
    expect(jobLockFeature('role-menus.reconcile')).toBe('role-menus');
  });
});

describe('install state', () => {
  it('round-trips a guild id and rejects foreign or malformed states', () => {
    expect(decodeInstallState(encodeInstallState('300000000000000002'))).toBe('300000000000000002');
    expect(decodeInstallState(encodeInstallState(undefined))).toBeUndefined();
    for (const state of [null, '', 'garbage!', btoa('{"guild_id":"abc"}'), btoa('"300000000000000002"')])
      expect(decodeInstallState(state), String(state)).toBeUndefined();
  });
});
