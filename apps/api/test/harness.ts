import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { userGuildsCacheKey } from '@spacecadet/contract';
import {
  botGuilds,
  colorGroups,
  colorPanels,
  colorRemovedRoles,
  colorShades,
  colors,
  guildConfigs,
  levelingBoosts,
  levelingRoles,
  levelingSettings,
  memberRolePicks,
  personalityConfigs,
  personalityQuestions,
  roleMenus,
  sessions,
} from '@spacecadet/db';
import { createTestDatabase, type TestDatabase, type TestRedis, testRedis } from '@spacecadet/db/testing';
import { SANDBOX_IDS, type Sandbox, startSandbox } from '@spacecadet/discord-sandbox';
import { TEST_DASHBOARD_URL, testStackEnv } from '@spacecadet/testing';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type ApiConfig, buildApp, loadApiConfig } from '../src/app.ts';

export const DASHBOARD_URL = TEST_DASHBOARD_URL;
export const { users: USERS, guilds: GUILDS, channels: CHANNELS } = SANDBOX_IDS;

export interface Harness {
  app: FastifyInstance;
  config: ApiConfig;
  database: TestDatabase;
  redis: TestRedis;
  sandbox: Sandbox;
  close(): Promise<void>;
}

/** Env for the API pointed at this test's database, Redis prefix and sandbox, Ada its owner. */
export function testEnv(database: TestDatabase, redis: TestRedis, sandbox: Sandbox): NodeJS.ProcessEnv {
  return { ...testStackEnv(database, redis, sandbox), OWNER_USER_ID: USERS.ada };
}

/**
 * One real Postgres database, one Redis prefix and one in-process sandbox for a test file,
 * with the bot present in Sandbox Station and Other Orbit (as the worker would record it).
 */
export async function startHarness(
  overrides: (config: ApiConfig) => ApiConfig = (config) => config,
): Promise<Harness> {
  const [database, redis, sandbox] = await Promise.all([
    createTestDatabase('api'),
    testRedis(),
    startSandbox({ port: 0 }),
  ]);
  await database.db.insert(botGuilds).values([
    { guildId: GUILDS.station, name: 'Sandbox Station' },
    { guildId: GUILDS.orbit, name: 'Other Orbit' },
  ]);
  const base = loadApiConfig(testEnv(database, redis, sandbox));
  const config = overrides({ ...base, rateLimit: { ...base.rateLimit, max: 100_000, exchangeMax: 10_000 } });
  const app = await buildApp(config, { logger: false });
  await app.ready();
  return {
    app,
    config,
    database,
    redis,
    sandbox,
    async close() {
      await app.close();
      await sandbox.close();
      await redis.close();
      await database.close();
    },
  };
}

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function newPkce(): Pkce {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Drives the sandbox's authorize page as `userId` (auto-approve) and returns the code. */
export async function authorizeCode(sandbox: Sandbox, userId: string, pkce: Pkce): Promise<string> {
  const params = new URLSearchParams({
    client_id: SANDBOX_IDS.app,
    redirect_uri: `${DASHBOARD_URL}/auth/callback`,
    response_type: 'code',
    scope: 'identify guilds',
    prompt: 'consent',
    state: 'spacecadet',
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    sandbox_user: userId,
  });
  const response = await fetch(`${sandbox.oauthBase}/oauth2/authorize?${params}`, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (response.status !== 302 || location === null) {
    throw new Error(`authorize answered ${response.status}: ${await response.text()}`);
  }
  const code = new URL(location).searchParams.get('code');
  if (code === null) throw new Error(`no code in ${location}`);
  return code;
}

/** A signed-in user's Authorization header, through the real exchange route. */
export async function signIn(harness: Harness, userId: string): Promise<string> {
  const pkce = newPkce();
  const code = await authorizeCode(harness.sandbox, userId, pkce);
  const response = await harness.app.inject({
    method: 'POST',
    url: '/api/auth/discord/exchange',
    payload: { code, code_verifier: pkce.verifier },
  });
  if (response.statusCode !== 200) throw new Error(`exchange failed: ${response.body}`);
  const body = response.json<{ tokens: { access_token: string } }>();
  return `Bearer ${body.tokens.access_token}`;
}

/**
 * Everything a request could change for Sandbox Station: its rows, the sessions and the job
 * queue, as one string, so a test can show that a refused request changed nothing.
 */
export async function storedState(h: Harness): Promise<string> {
  const db = h.database.db;
  const guild = GUILDS.station;
  return JSON.stringify(
    await Promise.all([
      db.select().from(guildConfigs).where(eq(guildConfigs.guildId, guild)),
      db.select().from(roleMenus).where(eq(roleMenus.guildId, guild)).orderBy(roleMenus.id),
      db.select().from(colorPanels).where(eq(colorPanels.guildId, guild)),
      db.select().from(colorGroups).where(eq(colorGroups.guildId, guild)),
      db.select().from(colors).where(eq(colors.guildId, guild)).orderBy(colors.id),
      db.select().from(colorShades).where(eq(colorShades.guildId, guild)).orderBy(colorShades.id),
      db
        .select()
        .from(colorRemovedRoles)
        .where(eq(colorRemovedRoles.guildId, guild))
        .orderBy(colorRemovedRoles.roleId),
      db
        .select()
        .from(memberRolePicks)
        .where(eq(memberRolePicks.guildId, guild))
        .orderBy(memberRolePicks.userId, memberRolePicks.targetKey),
      db.select().from(levelingSettings).where(eq(levelingSettings.guildId, guild)),
      db.select().from(levelingRoles).where(eq(levelingRoles.guildId, guild)).orderBy(levelingRoles.id),
      db.select().from(levelingBoosts).where(eq(levelingBoosts.guildId, guild)).orderBy(levelingBoosts.id),
      db.select().from(personalityConfigs).where(eq(personalityConfigs.guildId, guild)),
      db
        .select()
        .from(personalityQuestions)
        .where(eq(personalityQuestions.guildId, guild))
        .orderBy(personalityQuestions.id),
      db.select().from(sessions).orderBy(sessions.id),
      h.app.services.queue.forShard(0).getJobCounts(),
    ]),
  );
}

/** A port nothing listens on (taken, then released at once). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The API on the harness's database and sandbox, with Redis (and so the job queue) unreachable. */
export async function appWithRedisDown(h: Harness): Promise<FastifyInstance> {
  const env = testEnv(h.database, h.redis, h.sandbox);
  const config = loadApiConfig({ ...env, REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
  return buildApp({ ...config, redisTimeoutMs: 500 }, { logger: false });
}

/**
 * What the worker does when Discord reports a user's rights changed: the shared Redis copy of
 * their guild list goes, and every API replica is told to drop its in-memory copy.
 */
export async function dropGuildList(h: Harness, userId: string): Promise<void> {
  await h.app.services.redis.del(userGuildsCacheKey(userId));
  await h.app.services.replicaCache.announce({ kind: 'user-guilds', id: userId });
}
