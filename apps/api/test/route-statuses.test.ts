import {
  type RouteBody,
  type RouteDef,
  type RouteName,
  routePath,
  routes,
  XP_IMPORT_BODY_LIMIT,
} from '@spacecadet/contract';
import { levelingRoles, levelingSettings } from '@spacecadet/db';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loadApiConfig } from '../src/app.ts';
import {
  appWithRedisDown,
  authorizeCode,
  CHANNELS,
  closedPort,
  GUILDS,
  type Harness,
  newPkce,
  signIn,
  startHarness,
  testEnv,
  USERS,
} from './harness.ts';
import { EXTRA_PARAMS, SAMPLE_BODIES, withSampleQuery } from './samples.ts';

/**
 * Every error status a route declares in the contract (and so in OpenAPI) is one a request
 * gets, and every error status these requests get is declared. For each route, one probe per
 * kind of failure sends the requests that could provoke it: malformed input, no session,
 * another user's server, an unknown row, a server without the bot, a body too large or not
 * JSON, too many requests, missing color tables, Discord not answering, Postgres or Redis
 * down. property.test.ts covers the other direction with random requests.
 */
// The preview routes are registered by the preview routes' branch (samples.ts).
const NAMES = Object.keys(routes) as RouteName[];
/** A guild no sandbox user is in. */
const UNKNOWN_GUILD = '300000000000009999';
/** Ids of rows that do not exist, for the routes that name one in their path. */
const UNKNOWN_ROWS = {
  roleId: 999_999,
  boostId: 999_999,
  jobId: 'leveling.sync.999999',
  menuId: '00000000-0000-4000-8000-000000000999',
  // A user with no XP stored (and no member of the server).
  userId: '200000000000009999',
  entryId: 999_998,
  tempRoleId: 999_999,
  questionId: 999_999,
} as const;
/** Bodies that name a channel, role or member where the sample body names none. */
const REF_BODIES: { [N in RouteName]?: NonNullable<RouteBody<N>> } = {
  createBoost: { ...SAMPLE_BODIES.createBoost, user_id: USERS.ada },
  putLeveling: { ...SAMPLE_BODIES.putLeveling, announcement_channel: CHANNELS.levelUps },
  putWelcome: { ...SAMPLE_BODIES.putWelcome, channel_id: CHANNELS.general },
};

let h: Harness;
let noColorTables: Harness;
let limited: FastifyInstance;
let discordDown: FastifyInstance;
let postgresDown: FastifyInstance;
let redisDown: FastifyInstance;
let session: { ada: string; rex: string; nia: string; adaNoColors: string };
let stationJob: string;

beforeAll(async () => {
  [h, noColorTables] = await Promise.all([startHarness(), startHarness()]);
  const [ada, rex, nia, adaNoColors] = await Promise.all([
    signIn(h, USERS.ada),
    signIn(h, USERS.rex),
    signIn(h, USERS.nia),
    signIn(noColorTables, USERS.ada),
  ]);
  session = { ada, rex, nia, adaNoColors };
  await noColorTables.database.db.execute(sql`drop table color_shades`);

  // Apps on the same database (so the same sessions): one allowing one request per client (and
  // one sign-in), and three with a dependency unreachable. Each has a Redis prefix of its own,
  // so request counts are its own and every Discord cache starts cold.
  const env = (name: string) => ({
    ...testEnv(h.database, h.redis, h.sandbox),
    REDIS_PREFIX: `${h.redis.prefix}-${name}`,
  });
  const config = loadApiConfig(env('limited'));
  limited = await buildApp(
    { ...config, rateLimit: { ...config.rateLimit, max: 1, exchangeMax: 1, refreshMax: 1 } },
    { logger: false },
  );
  const deadDiscord = `http://127.0.0.1:${await closedPort()}`;
  discordDown = await buildApp(
    loadApiConfig({
      ...env('discord-down'),
      DISCORD_API_BASE: `${deadDiscord}/api`,
      DISCORD_OAUTH_BASE: deadDiscord,
    }),
    { logger: false },
  );
  postgresDown = await buildApp(
    loadApiConfig({
      ...env('postgres-down'),
      DATABASE_URL: `postgres://postgres@127.0.0.1:${await closedPort()}/nope`,
    }),
    { logger: false },
  );
  redisDown = await appWithRedisDown(h);

  const queued = await h.app.inject({
    method: 'POST',
    url: routePath(routes.syncLevelingRoles, { guildId: GUILDS.station }),
    headers: { authorization: ada },
  });
  stationJob = queued.json<{ job_id: string }>().job_id;
}, 120_000);

afterAll(async () => {
  await Promise.all([limited?.close(), discordDown?.close(), postgresDown?.close(), redisDown?.close()]);
  await Promise.all([h?.close(), noColorTables?.close()]);
});

const pathParams = (def: RouteDef) => [...def.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1] as string);

/** The route's sample request (its sample body), with path parameters replaced. */
function request(name: RouteName, params: Record<string, string | number> = {}): InjectOptions {
  const def: RouteDef = routes[name];
  const payload = SAMPLE_BODIES[name];
  return {
    method: def.method,
    url: withSampleQuery(
      name,
      routePath(def, { guildId: GUILDS.station, ...EXTRA_PARAMS, jobId: stationJob, ...params }),
    ),
    ...(payload === undefined ? {} : { payload }),
  };
}

/** The route's request with the body that names guild resources, when it has one. */
function withRefs(name: RouteName, params: Record<string, string | number> = {}): InjectOptions[] {
  const refs = REF_BODIES[name];
  return refs === undefined
    ? [request(name, params)]
    : [request(name, params), { ...request(name, params), payload: refs }];
}

let rewardLevel = 60;
/** A reward role whose Discord role exists, for the route that deletes both: its row id and role id. */
async function rewardRoleInDiscord(): Promise<{ id: number; roleId: string }> {
  const created = await fetch(`${h.sandbox.apiBase}/v10/guilds/${GUILDS.station}/roles`, {
    method: 'POST',
    headers: { authorization: 'Bot sandbox-bot-token', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Probe' }),
  });
  const roleId = ((await created.json()) as { id: string }).id;
  const [row] = await h.database.db
    .insert(levelingRoles)
    .values({ guildId: GUILDS.station, roleName: 'Probe', levelRequired: rewardLevel++, roleId })
    .returning();
  if (!row) throw new Error('no reward row');
  return { id: row.id, roleId };
}

/**
 * The route's request; for the sign-in route, with a code Discord gave (so it gets past Discord),
 * for the refresh route, with a refresh cookie the sign-in set.
 */
async function signingIn(name: RouteName): Promise<InjectOptions> {
  if (name !== 'exchangeCode' && name !== 'refreshSession') return request(name);
  const pkce = newPkce();
  const code = await authorizeCode(h.sandbox, USERS.ada, pkce);
  const exchange = { ...request('exchangeCode'), payload: { code, code_verifier: pkce.verifier } };
  if (name === 'exchangeCode') return exchange;
  const signedIn = await h.app.inject(exchange);
  const cookie = String(signedIn.headers['set-cookie']).split(';')[0] ?? '';
  return { ...request(name), headers: { cookie } };
}

async function send(app: FastifyInstance, options: InjectOptions, authorization?: string): Promise<number> {
  const response = await app.inject({
    ...options,
    headers: { ...(options.headers ?? {}), ...(authorization ? { authorization } : {}) },
  });
  return response.statusCode;
}

type Probe = (name: RouteName) => Promise<number[]>;

/**
 * The session of `user` on `harness`: the one signed in at the start, or, for the route that
 * ends it (logout, the member's erase), a new one for each request.
 */
async function as(name: RouteName, harness: 'h' | 'noColorTables', user: 'ada' | 'rex' | 'nia') {
  if (name === 'logout') return signIn(harness === 'h' ? h : noColorTables, USERS[user]);
  // Signing out everywhere and erasing one's data end every session of the user: Mo's, whom no
  // other probe signs in as.
  if (name === 'logoutEverywhere' || name === 'eraseMemberData')
    return signIn(harness === 'h' ? h : noColorTables, USERS.mo);
  if (harness === 'noColorTables') return session.adaNoColors;
  return session[user];
}

const hasBody = (def: RouteDef) => def.method !== 'GET';

/** Each kind of failure, and the requests that could provoke it on a route. */
const PROBES: Record<string, Probe> = {
  async malformedInput(name) {
    const def: RouteDef = routes[name];
    const statuses: number[] = [];
    for (const param of pathParams(def)) {
      for (const value of ['not-valid', '']) {
        statuses.push(await send(h.app, request(name, { [param]: value }), await as(name, 'h', 'ada')));
      }
    }
    for (const key of Object.keys(def.query?.shape ?? {})) {
      for (const value of ['x'.repeat(3000), '-1', 'not valid']) {
        const options = request(name);
        const url = `${options.url}${String(options.url).includes('?') ? '&' : '?'}${key}=${encodeURIComponent(value)}`;
        statuses.push(await send(h.app, { ...options, url }, await as(name, 'h', 'ada')));
      }
    }
    if (hasBody(def)) {
      statuses.push(
        await send(
          h.app,
          { ...request(name), payload: '{', headers: { 'content-type': 'application/json' } },
          await as(name, 'h', 'ada'),
        ),
      );
    }
    return statuses;
  },
  async noSession(name) {
    // exchangeCode is public: its sample code is one Discord never gave.
    return [await send(h.app, request(name))];
  },
  async anotherOrigin(name) {
    if (name !== 'refreshSession') return [];
    const options = await signingIn(name);
    return [
      await send(h.app, { ...options, headers: { ...options.headers, origin: 'https://elsewhere.example' } }),
    ];
  },
  async anotherUsersServer(name) {
    return [
      await send(h.app, request(name), await as(name, 'h', 'rex')),
      await send(h.app, request(name), await as(name, 'h', 'nia')),
    ];
  },
  async unknownRow(name) {
    const def: RouteDef = routes[name];
    const statuses: number[] = [];
    const rowParams = pathParams(def).filter((param) => param in UNKNOWN_ROWS);
    if (rowParams.length > 0) {
      const params = Object.fromEntries(
        rowParams.map((param) => [param, UNKNOWN_ROWS[param as keyof typeof UNKNOWN_ROWS]]),
      );
      statuses.push(await send(h.app, request(name, params), await as(name, 'h', 'ada')));
    }
    if (name === 'expandColorGroup') {
      statuses.push(
        await send(
          h.app,
          { ...request(name), payload: { group_id: 999_999, is_expanded: true } },
          await as(name, 'h', 'ada'),
        ),
      );
    }
    if (pathParams(def).includes('guildId')) {
      statuses.push(await send(h.app, request(name, { guildId: UNKNOWN_GUILD }), await as(name, 'h', 'ada')));
    }
    return statuses;
  },
  async serverWithoutBot(name) {
    if (!pathParams(routes[name]).includes('guildId')) return [];
    const who = await as(name, 'h', 'ada');
    return Promise.all(withRefs(name, { guildId: GUILDS.quiet }).map((options) => send(h.app, options, who)));
  },
  async discordRefuses(name) {
    if (name !== 'deleteLevelingRole') return [];
    const statuses: number[] = [];
    for (const status of [403, 500]) {
      const row = await rewardRoleInDiscord();
      await fetch(`${h.sandbox.url}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          method: 'DELETE',
          path: `/guilds/${GUILDS.station}/roles/${row.roleId}`,
          status,
        }),
      });
      statuses.push(await send(h.app, request(name, { roleId: row.id }), await as(name, 'h', 'ada')));
    }
    return statuses;
  },
  async linkRefused(name) {
    if (name !== 'pickLinkedServer' && name !== 'linkRoleConnection') return [];
    // Picking a server without a link (404); a code Discord gave for another grant than linking needs (403).
    if (name === 'pickLinkedServer') return [await send(h.app, request(name), session.ada)];
    const query = new URLSearchParams({
      client_id: SANDBOX_IDS.app,
      redirect_uri: `${h.config.dashboardUrl}/linked-roles`,
      response_type: 'code',
      scope: 'identify',
      sandbox_user: USERS.ada,
    });
    const authorized = await fetch(`${h.sandbox.oauthBase}/oauth2/authorize?${query}`, {
      redirect: 'manual',
    });
    const code = new URL(authorized.headers.get('location') ?? '').searchParams.get('code') ?? '';
    return [await send(h.app, { ...request(name), payload: { code } }, session.ada)];
  },
  async takenLevel(name) {
    if (name !== 'createLevelingRole' && name !== 'updateLevelingRole') return [];
    const create = async (level: number) =>
      send(
        h.app,
        {
          ...request('createLevelingRole'),
          payload: { ...SAMPLE_BODIES.createLevelingRole, role_name: `L${level}`, level_required: level },
        },
        await as(name, 'h', 'ada'),
      );
    if (name === 'createLevelingRole') {
      await create(40);
      return [await create(40)];
    }
    const second = await h.app.inject({
      ...request('createLevelingRole'),
      payload: { ...SAMPLE_BODIES.createLevelingRole, role_name: 'L41', level_required: 41 },
      headers: { authorization: await as(name, 'h', 'ada') },
    });
    const roleId = second.json<{ id: number }>().id;
    return [
      await send(
        h.app,
        { ...request(name, { roleId }), payload: { level_required: 40 } },
        await as(name, 'h', 'ada'),
      ),
    ];
  },
  async xpJobRunning(name) {
    if (name !== 'endSeason') return [];
    // Prune leavers queued (no worker runs here, so it stays pending): a season does not end.
    const prune = await h.app.inject({
      method: 'POST',
      url: routePath(routes.pruneLeavers, { guildId: GUILDS.station }),
      headers: { authorization: session.ada },
    });
    expect(prune.statusCode, prune.body).toBe(202);
    const status = await send(h.app, request(name), session.ada);
    await h.app.services.queue.forShard(0).remove(prune.json<{ job_id: string }>().job_id);
    return [status];
  },
  async undoRefused(name) {
    if (name !== 'undoHistory') return [];
    // A change that cannot be undone (a sync), then one undone twice.
    const sync = await h.app.inject({
      method: 'POST',
      url: routePath(routes.syncLevelingRoles, { guildId: GUILDS.station }),
      headers: { authorization: session.ada },
    });
    expect(sync.statusCode, sync.body).toBe(202);
    const listed = await h.app.inject({
      method: 'GET',
      url: `${routePath(routes.listHistory, { guildId: GUILDS.station })}?limit=1`,
      headers: { authorization: session.ada },
    });
    const entryId = listed.json<{ entries: { id: number }[] }>().entries[0]?.id ?? 0;
    return [await send(h.app, request(name, { entryId }), session.ada)];
  },
  async membersOnlyLeaderboard(name) {
    if (name !== 'getPublicLeaderboard') return [];
    // A leaderboard open to members: signed out (401), an outsider (403), Discord down (502).
    await h.database.db
      .insert(levelingSettings)
      .values({ guildId: GUILDS.station, leaderboardVisibility: 'members' })
      .onConflictDoUpdate({ target: levelingSettings.guildId, set: { leaderboardVisibility: 'members' } });
    return [
      await send(h.app, request(name)),
      await send(h.app, request(name), session.rex),
      await send(h.app, request(name), session.nia),
      await send(discordDown, request(name), session.ada),
    ];
  },
  async bodyTooLarge(name) {
    if (!hasBody(routes[name])) return [];
    // An image upload (the rank card background) is too large as an image of its own type.
    const imageType = Object.keys((routes[name] as RouteDef).bodyMediaTypes ?? {}).find((type) =>
      type.startsWith('image/'),
    );
    if (imageType) {
      const image = { payload: Buffer.alloc(2 * 1024 * 1024), headers: { 'content-type': imageType } };
      return [await send(h.app, { ...request(name), ...image }, await as(name, 'h', 'ada'))];
    }
    // The import takes files far larger than any other body (100,000 rows).
    const size = name === 'importXp' ? XP_IMPORT_BODY_LIMIT + 1024 : 2 * 1024 * 1024;
    const payload = JSON.stringify({ filler: 'x'.repeat(size) });
    return [
      await send(
        h.app,
        { ...request(name), payload, headers: { 'content-type': 'application/json' } },
        await as(name, 'h', 'ada'),
      ),
    ];
  },
  async notJson(name) {
    if (!hasBody(routes[name])) return [];
    return [
      await send(
        h.app,
        { ...request(name), payload: 'x', headers: { 'content-type': 'text/plain' } },
        await as(name, 'h', 'ada'),
      ),
    ];
  },
  async tooManyRequests(name) {
    const who = await as(name, 'h', 'ada');
    // One request a window, one session for every route: a window (60 s, synced through Redis)
    // may end between two requests, never twice within three, so one of three is over the limit.
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push(await send(limited, request(name), who));
    return statuses;
  },
  async colorTablesMissing(name) {
    return [await send(noColorTables.app, request(name), await as(name, 'noColorTables', 'ada'))];
  },
  async discordDown(name) {
    const who = await as(name, 'h', 'ada');
    const params = name === 'deleteLevelingRole' ? { roleId: (await rewardRoleInDiscord()).id } : {};
    const statuses: number[] = [];
    for (const options of withRefs(name, params)) statuses.push(await send(discordDown, options, who));
    return statuses;
  },
  async postgresDown(name) {
    return [await send(postgresDown, await signingIn(name), await as(name, 'h', 'ada'))];
  },
  async redisDown(name) {
    return [await send(redisDown, await signingIn(name), await as(name, 'h', 'ada'))];
  },
};

describe('error statuses', () => {
  it.each(NAMES)(
    '%s declares exactly the error statuses its probes get, and never answers 500',
    async (name) => {
      const answered: Record<string, number[]> = {};
      for (const [probe, run] of Object.entries(PROBES)) answered[probe] = await run(name);
      const errors = [...new Set(Object.values(answered).flat())].filter((status) => status >= 400).sort();
      expect(errors, JSON.stringify(answered)).not.toContain(500);
      expect(errors, JSON.stringify(answered)).toEqual([...routes[name].errors].sort());
    },
  );
});
