import {
  collectGuildRefs,
  type GuildRefKind,
  type RouteDef,
  type RouteName,
  refFieldWords,
  routePath,
  routes,
} from '@spacecadet/contract';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';
import { EXTRA_PARAMS, SAMPLE_BODIES } from './samples.ts';

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

/** Every route whose body names guild ids, with the paths the contract declares for it. */
const REF_ROUTES = (Object.keys(routes) as RouteName[]).filter((name) => {
  const def: RouteDef = routes[name];
  return def.guildRefs !== undefined;
});

/** An id of Other Orbit (a server ada is not in, where the bot is) for each kind. */
const FOREIGN: Record<GuildRefKind, string> = {
  channel: CHANNELS.orbitHangar,
  role: ROLES.orbitBot,
  member: USERS.rex,
};

/** The sample body with the id at `path` (`field` or `list[].field`) set to `id`. */
function bodyWith(name: RouteName, path: string, id: string): Record<string, unknown> {
  const body = structuredClone(SAMPLE_BODIES[name] ?? {}) as Record<string, unknown>;
  const row = /^(\w+)\[\]\.(\w+)$/.exec(path);
  const rowList = /^(\w+)\[\]\.(\w+)\[\]$/.exec(path);
  const list = /^(\w+)\[\]$/.exec(path)?.[1];
  if (rowList?.[1] && rowList[2]) {
    const rows = (Array.isArray(body[rowList[1]]) ? body[rowList[1]] : []) as Array<Record<string, unknown>>;
    body[rowList[1]] = [...rows, { label: 'Purple', [rowList[2]]: [id] }];
  } else if (list) {
    const ids = (Array.isArray(body[list]) ? body[list] : []) as unknown[];
    body[list] = [...ids, id];
  } else if (row?.[1] && row[2]) {
    const rows = (Array.isArray(body[row[1]]) ? body[row[1]] : []) as Array<Record<string, unknown>>;
    body[row[1]] = [...rows, { emoji: '🟣', label: 'Purple', [row[2]]: id }];
  } else {
    body[path] = id;
  }
  return body;
}

function send(method: RouteDef['method'], url: string, payload?: object, authorization = ada) {
  return h.app.inject({ method, url, headers: { authorization }, ...(payload ? { payload } : {}) });
}

/** What a GET shows of the guild's stored configuration, to prove a refusal changed nothing. */
async function stored(): Promise<unknown[]> {
  const reads = [
    routes.getReactionRoles,
    routes.getColorRoles,
    routes.getPersonalityRoles,
    routes.getLeveling,
    routes.listRoleMenus,
    routes.getWelcome,
  ];
  return Promise.all(
    reads.map(async (def) => (await send('GET', routePath(def, { guildId: GUILDS.station }))).json()),
  );
}

describe('ids in request bodies must belong to the guild in the path', () => {
  it('covers every body field the contract declares, on the routes that take guild ids', () => {
    expect(REF_ROUTES.sort()).toEqual(
      [
        'createBoost',
        'createChannelBoost',
        'createRoleBoost',
        'createRoleMenu',
        'createTempRole',
        'createPersonalityQuestion',
        'updatePersonalityQuestion',
        'initPersonalityRoles',
        'putLeveling',
        'putReactionRoles',
        'setColorRolesChannel',
        'setReactionListChannel',
        'setPersonalityChannel',
        'updateRoleMenu',
        'putWelcome',
      ].sort(),
    );
  });

  for (const name of REF_ROUTES) {
    const def: RouteDef = routes[name];
    for (const [path, kind] of Object.entries(def.guildRefs ?? {})) {
      it(`${name}: refuses another server's ${kind} in ${path} with a 400 naming the field`, async () => {
        const before = await stored();
        const body = bodyWith(name, path, FOREIGN[kind]);
        const [ref] = collectGuildRefs(body, { [path]: kind }).filter((r) => r.id === FOREIGN[kind]);
        const response = await send(
          def.method,
          routePath(def, { ...EXTRA_PARAMS, guildId: GUILDS.station }),
          body,
        );
        expect(response.statusCode, response.body).toBe(400);
        const what = `is not a ${kind === 'channel' ? 'text channel' : kind} of this server`;
        // An id of a list is named with its list and itself: `no_xp_roles: 123 is not a role ...`.
        const named = /^\w+\[\]$/.test(path)
          ? `${path.slice(0, -2)}: ${FOREIGN[kind]}`
          : refFieldWords(ref?.field ?? '');
        expect(response.json()).toEqual({ error: 'invalid_input', message: `${named} ${what}` });
        expect(await stored()).toEqual(before);
      });
    }
  }

  it('says which field and what it must be', async () => {
    const response = await send('PUT', `/api/guilds/${GUILDS.station}/leveling`, {
      announcement_channel: CHANNELS.general,
      daily_overview_channel: CHANNELS.orbitComms,
    });
    expect(response.json()).toEqual({
      error: 'invalid_input',
      message: 'daily_overview_channel is not a text channel of this server',
    });
    const rows = await send('PUT', `/api/guilds/${GUILDS.station}/reaction-roles`, {
      color_roles: [
        { emoji: '🔴', role_id: ROLES.stationCrew },
        { emoji: '🔵', role_id: ROLES.orbitBot },
      ],
      personality_roles: [],
    });
    expect(rows.json()).toEqual({
      error: 'invalid_input',
      message: 'color_roles row 2: role_id is not a role of this server',
    });
  });

  it('refuses a member boost for an id that names no Discord user, as a 400', async () => {
    const response = await send('POST', `/api/guilds/${GUILDS.station}/leveling/boosts`, {
      user_id: '99999999999999999',
      multiplier: 2,
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      error: 'invalid_input',
      message: 'user_id is not a member of this server',
    });
  });

  it("accepts the guild's own channels, roles and members", async () => {
    const station = `/api/guilds/${GUILDS.station}`;
    expect(
      (await send('PUT', `${station}/color-roles/channel`, { channel_id: CHANNELS.roles })).statusCode,
    ).toBe(200);
    const leveling = await send('PUT', `${station}/leveling`, {
      announcement_channel: CHANNELS.levelUps,
      daily_overview_channel: null,
    });
    expect(leveling.json()).toMatchObject({
      announcement_channel: CHANNELS.levelUps,
      daily_overview_channel: null,
    });
    const boost = await send('POST', `${station}/leveling/boosts`, { user_id: USERS.nia, multiplier: 2 });
    expect(boost.statusCode, boost.body).toBe(201);
    const roleBoost = await send('POST', `${station}/leveling/role-boosts`, { role_id: ROLES.stationCrew });
    expect(roleBoost.statusCode, roleBoost.body).toBe(201);
  });

  it('refuses a channel of the guild that is not a text channel, and @everyone as a role', async () => {
    const station = `/api/guilds/${GUILDS.station}`;
    const category = await send('PUT', `${station}/color-roles/channel`, {
      channel_id: CHANNELS.stationCategory,
    });
    expect(category.json()).toEqual({
      error: 'invalid_input',
      message: 'channel_id is not a text channel of this server',
    });
    const everyone = await send('POST', `${station}/leveling/role-boosts`, { role_id: GUILDS.station });
    expect(everyone.statusCode).toBe(400);
    expect(everyone.json()).toEqual({
      error: 'invalid_input',
      message: 'role_id is @everyone, which every member already has; pick another role',
    });
  });

  it('accepts a role created after the role list was cached', async () => {
    const station = `/api/guilds/${GUILDS.station}`;
    // Fills the cache with the roles as they are now.
    expect(
      (await send('POST', `${station}/leveling/role-boosts`, { role_id: ROLES.stationCrew })).statusCode,
    ).toBe(201);
    const created = await fetch(`${h.sandbox.apiBase}/v10/guilds/${GUILDS.station}/roles`, {
      method: 'POST',
      headers: { authorization: 'Bot sandbox-bot-token', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Fresh' }),
    });
    const role = (await created.json()) as { id: string };
    const boost = await send('POST', `${station}/leveling/role-boosts`, { role_id: role.id });
    expect(boost.statusCode, boost.body).toBe(201);
  });

  it('answers 409 when the bot is not in the guild to check the ids, and saves id-free bodies', async () => {
    // ada administers Quiet Quarters, where the bot is absent.
    const quiet = `/api/guilds/${GUILDS.quiet}`;
    const refused = await send('PUT', `${quiet}/reaction-roles`, {
      color_roles: [{ emoji: '🔴', role_id: ROLES.quietAdmins }],
      personality_roles: [],
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'bot_not_in_guild', message: 'Bot not in guild' });
    const empty = await send('PUT', `${quiet}/reaction-roles`, { color_roles: [], personality_roles: [] });
    expect(empty.statusCode, empty.body).toBe(200);
  });
});

describe('collectGuildRefs', () => {
  const cases: Array<[unknown, Record<string, GuildRefKind>, Array<{ field: string; id: string }>]> = [
    [{ channel_id: ' 123456 ' }, { channel_id: 'channel' }, [{ field: 'channel_id', id: '123456' }]],
    [{ channel_id: null }, { channel_id: 'channel' }, []],
    [{ channel_id: '' }, { channel_id: 'channel' }, []],
    [{}, { channel_id: 'channel' }, []],
    [null, { channel_id: 'channel' }, []],
    [
      { rows: [{ role_id: '11111' }, { role_id: '' }, { role_id: '22222' }] },
      { 'rows[].role_id': 'role' },
      [
        { field: 'rows[0].role_id', id: '11111' },
        { field: 'rows[2].role_id', id: '22222' },
      ],
    ],
    [{ rows: 'not a list' }, { 'rows[].role_id': 'role' }, []],
  ];
  it.each(cases)('%j with %j', (body, spec, expected) => {
    expect(collectGuildRefs(body, spec).map(({ field, id }) => ({ field, id }))).toEqual(expected);
  });
});
