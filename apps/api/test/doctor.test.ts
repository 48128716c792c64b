import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { shardLeaseKey } from '@spacecadet/contract';
import { SLASH_COMMANDS } from '@spacecadet/core';
import { dropDatabase, ensureDatabase, MIGRATIONS_FOLDER, withDatabase } from '@spacecadet/db';
import {
  createTestDatabase,
  type PrivateRedis,
  startPrivateRedis,
  type TestDatabase,
  testPostgresServerUrl,
} from '@spacecadet/db/testing';
import { type DiscordProxy, startDiscordProxy } from '@spacecadet/discord-proxy';
import { SANDBOX_BOT_TOKEN, SANDBOX_IDS, type Sandbox, startSandbox } from '@spacecadet/discord-sandbox';
import { ownApplication } from '@spacecadet/discord-sandbox/testing';
import { freePort, waitFor } from '@spacecadet/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * `pnpm doctor` (apps/api/bin/doctor, what the API image runs for `docker compose run --rm api
 * doctor`), spawned against a real sandbox, Postgres, a private redis-server and the Discord
 * proxy: a good deployment is all ✓ and exit 0; each way real admins break one gives its ✗ line
 * (with the fix) and exit 1, every other line staying ✓.
 */

const BIN = join(import.meta.dirname, '../bin/doctor');
const DASHBOARD_URL = 'https://bot.example.org';
const PUBLIC_API_URL = 'https://api.example.org';
const APP = SANDBOX_IDS.app;
/** The newest committed migration, from packages/db's journal. */
const LATEST_MIGRATION = (
  JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  }
).entries.at(-1)?.tag;

let sandbox: Sandbox;
let database: TestDatabase;
let redis: PrivateRedis;
let proxy: DiscordProxy;

beforeAll(async () => {
  [sandbox, database, redis] = await Promise.all([
    startSandbox({ port: 0 }),
    createTestDatabase('doctor'),
    startPrivateRedis(),
  ]);
  proxy = await startDiscordProxy({ upstream: sandbox.apiBase, port: 0 });
});
afterAll(async () => {
  await Promise.all([sandbox?.close(), database?.close(), redis?.close(), proxy?.close()]);
});

/** What a good deployment's admin did: registered both redirect URIs, started the worker once. */
async function goodApplication(target: Sandbox): Promise<void> {
  await fetch(`${target.url}/_sandbox/reset`, { method: 'POST' });
  const patch = await fetch(`${target.url}/_sandbox/application`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: [`${DASHBOARD_URL}/auth/callback`, `${PUBLIC_API_URL}/install/callback`],
    }),
  });
  expect(patch.status).toBe(200);
  const [app, token] = target === sandbox ? [APP, SANDBOX_BOT_TOKEN] : [OWN.id, OWN.bot_token];
  const put = await fetch(`${target.apiBase}/v10/applications/${app}/commands`, {
    method: 'PUT',
    headers: { authorization: `Bot ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(SLASH_COMMANDS.map(({ name }) => ({ name, description: name, type: 1 }))),
  });
  expect(put.status).toBe(200);
}

beforeEach(async () => {
  await goodApplication(sandbox);
  // Persistence by RDB snapshots and no eviction: what compose's Redis has (AOF there).
  const admin = new Redis(redis.url);
  await admin.config('SET', 'save', '3600 1');
  await admin.config('SET', 'maxmemory-policy', 'noeviction');
  admin.disconnect();
});

function envFor(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    ENV_FILE: '',
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    DISCORD_API_BASE: sandbox.apiBase,
    DISCORD_PROXY_URL: proxy.url,
    DASHBOARD_URL,
    PUBLIC_API_URL,
    ...overrides,
  };
}

async function doctor(env: NodeJS.ProcessEnv): Promise<{ code: number | null; lines: string[] }> {
  const child = spawn(BIN, [], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(err).toBe('');
  return { code, lines: out.trimEnd().split('\n') };
}

/** Exactly `line` is ✗, every other line ✓, and the exit code is 1. */
async function expectOnlyFailure(env: NodeJS.ProcessEnv, line: string | RegExp): Promise<void> {
  const { code, lines } = await doctor(env);
  const failures = lines.filter((l) => l.startsWith('✗'));
  expect(failures).toHaveLength(1);
  if (typeof line === 'string') expect(failures[0]).toBe(line);
  else expect(failures[0]).toMatch(line);
  expect(lines.every((l) => l.startsWith('✓') || l.startsWith('✗'))).toBe(true);
  expect(code).toBe(1);
}

describe('docker compose run --rm api doctor', () => {
  it("finds `doctor` on the API image's PATH: the bin this test runs, executable", () => {
    const dockerfile = readFileSync(join(import.meta.dirname, '../../../Dockerfile'), 'utf8');
    const apiStage = /^FROM base AS api\n([\s\S]*?)(?=^FROM )/m.exec(dockerfile)?.[1] ?? '';
    expect(apiStage).toContain('RUN ln -s /app/apps/api/bin/doctor /usr/local/bin/doctor');
    expect(() => accessSync(BIN, constants.X_OK)).not.toThrow();
  });
});

describe('pnpm doctor', () => {
  it('passes a good deployment: every line ✓, exit 0', async () => {
    const { code, lines } = await doctor(envFor());
    expect(lines).toEqual([
      '✓ environment: every variable the API reads is set and valid',
      `✓ PostgreSQL at ${database.url} reachable, migrated to ${LATEST_MIGRATION}`,
      `✓ Redis at ${redis.url} reachable`,
      '✓ Redis persistence: RDB snapshots (save 3600 1)',
      '✓ Redis maxmemory-policy noeviction',
      `✓ Discord proxy answering at ${proxy.url.replace(/\/api$/, '')}/healthz`,
      `✓ bot token valid: the bot is Space Cadet (${APP})`,
      `✓ redirect URI ${DASHBOARD_URL}/auth/callback registered`,
      `✓ redirect URI ${PUBLIC_API_URL}/install/callback registered`,
      '✓ Server Members intent enabled',
      '✓ client id and secret accepted by the token endpoint',
      '✓ gateway answers: 1000 of 1000 session starts left today',
      `✓ slash commands registered (${SLASH_COMMANDS.length})`,
    ]);
    expect(code).toBe(0);
  });

  it('✗ a redirect URI not registered', async () => {
    await fetch(`${sandbox.url}/_sandbox/application`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [`${PUBLIC_API_URL}/install/callback`] }),
    });
    await expectOnlyFailure(
      envFor(),
      `✗ redirect URI ${DASHBOARD_URL}/auth/callback not registered — Add it under Redirects at https://discord.com/developers/applications/${APP}/oauth2.`,
    );
  });

  it('✗ the Server Members intent off', async () => {
    await fetch(`${sandbox.url}/_sandbox/application`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ flags: 0 }),
    });
    await expectOnlyFailure(
      envFor(),
      `✗ Server Members intent off (the worker would be refused with 4014) — Turn on Server Members Intent under Privileged Gateway Intents at https://discord.com/developers/applications/${APP}/bot.`,
    );
  });

  it('✗ a bad bot token (the checks needing it are not run)', async () => {
    const { code, lines } = await doctor(envFor({ DISCORD_BOT_TOKEN: 'not-the-bot-token' }));
    expect(lines.filter((l) => l.startsWith('✗'))).toEqual([
      `✗ bot token refused by Discord (GET /users/@me: 401) — Copy the bot's token again (Reset Token at https://discord.com/developers/applications/${APP}/bot) into DISCORD_BOT_TOKEN.`,
    ]);
    expect(lines.some((l) => l.includes('redirect URI') || l.includes('gateway'))).toBe(false);
    expect(code).toBe(1);
  });

  it('✗ a bad client secret', async () => {
    await expectOnlyFailure(
      envFor({ DISCORD_CLIENT_SECRET: 'not-the-secret' }),
      `✗ client id and secret refused by the token endpoint (401 invalid_client) — Copy the Client ID and Client Secret (Reset Secret) from https://discord.com/developers/applications/${APP}/oauth2 into DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET.`,
    );
  });

  it('✗ no session starts left, saying when they reset', async () => {
    await fetch(`${sandbox.url}/_sandbox/gateway-limits`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ remaining: 0 }),
    });
    await expectOnlyFailure(
      envFor(),
      /^✗ gateway: no session starts left \(0 of 1000\) — Wait until they reset in 2[34] h \d+ min \(\d{4}-\d\d-\d\dT[\d:.]+Z\), and stop whatever restarts the worker in a loop\.$/,
    );
  });

  it('✗ slash commands not registered', async () => {
    await fetch(`${sandbox.apiBase}/v10/applications/${APP}/commands`, {
      method: 'PUT',
      headers: { authorization: `Bot ${SANDBOX_BOT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify([]),
    });
    const missing = SLASH_COMMANDS.map(({ name }) => `/${name}`).join(', ');
    await expectOnlyFailure(
      envFor(),
      `✗ slash commands not registered: ${missing} — Start the worker once, it registers them.`,
    );
  });

  it('✗ PostgreSQL not migrated (a fresh empty database)', async () => {
    const server = await testPostgresServerUrl();
    const name = `doctor_empty_${randomBytes(4).toString('hex')}`;
    const url = withDatabase(server, name);
    await ensureDatabase(url);
    try {
      await expectOnlyFailure(
        envFor({ DATABASE_URL: url }),
        new RegExp(
          `^✗ PostgreSQL at ${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} not migrated: no migration applied, \\d+ pending up to \\d{4}_\\w+ — Run \`pnpm db:migrate\` \\(with compose: \`docker compose run --rm migrate\`\\)\\.$`,
        ),
      );
    } finally {
      await dropDatabase(server, name);
    }
  });

  it('✗ Redis that evicts (maxmemory-policy allkeys-lru)', async () => {
    const admin = new Redis(redis.url);
    await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
    admin.disconnect();
    await expectOnlyFailure(
      envFor(),
      '✗ Redis maxmemory-policy is allkeys-lru — Set `maxmemory-policy noeviction` (redis.conf or `--maxmemory-policy noeviction`): BullMQ loses jobs to eviction.',
    );
  });

  it('✗ a managed Redis that refuses CONFIG', async () => {
    const port = await freePort();
    const managed = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--rename-command', 'CONFIG', ''],
      { stdio: 'ignore' },
    );
    const url = `redis://127.0.0.1:${port}`;
    try {
      await waitFor('the managed Redis answering PING', async () => {
        const probe = new Redis(url, { lazyConnect: true, retryStrategy: () => null });
        probe.on('error', () => {});
        try {
          await probe.connect();
          return (await probe.ping()) === 'PONG';
        } catch {
          return false;
        } finally {
          probe.disconnect();
        }
      });
      await expectOnlyFailure(
        envFor({ REDIS_URL: url }),
        `✗ Redis at ${url} reachable, but refuses CONFIG GET (a managed Redis?), so persistence and eviction cannot be checked — Set \`maxmemory-policy noeviction\` and persistence (AOF or snapshots) in your Redis provider's settings.`,
      );
    } finally {
      managed.kill('SIGKILL');
    }
  });

  it('checks every proxy of a set and says which one is active', async () => {
    // Two proxies sharing one lease in Redis: the first to start is the active one.
    const clients = [
      new Redis(redis.url, { keyPrefix: 'doctor-proxies:' }),
      new Redis(redis.url, { keyPrefix: 'doctor-proxies:' }),
    ];
    const pair: DiscordProxy[] = [];
    try {
      for (const client of clients) {
        pair.push(await startDiscordProxy({ upstream: sandbox.apiBase, port: 0, lease: { redis: client } }));
      }
      const [active, standby] = pair.map((p) => `${p.url.replace(/\/api$/, '')}/healthz`);
      const { code, lines } = await doctor(envFor({ DISCORD_PROXY_URL: pair.map((p) => p.url).join(',') }));
      expect(lines).toContain(`✓ Discord proxies answering: ${active} (active), ${standby} (standing by)`);
      expect(code).toBe(0);
    } finally {
      for (const p of pair) await p.close();
      for (const client of clients) client.disconnect();
    }
  });

  it("✗ a SHARD_COUNT other than the running workers' (read from their shard leases)", async () => {
    const admin = new Redis(redis.url);
    // What two workers on SHARD_COUNT=2 hold (REDIS_PREFIX unset: spacecadet).
    const lease = `spacecadet:${shardLeaseKey(0, 2)}`;
    await admin.set(lease, 'a-worker', 'PX', 60_000);
    try {
      await expectOnlyFailure(
        envFor(),
        "✗ SHARD_COUNT is 1 here, the running workers run 2 — Give the API the workers' SHARD_COUNT (1 when the workers run unsharded): it queues each server's jobs for the worker holding its shard.",
      );
      const { code, lines } = await doctor(envFor({ SHARD_COUNT: '2' }));
      expect(lines).toContain("✓ SHARD_COUNT 2, as the running workers'");
      expect(code).toBe(0);
    } finally {
      await admin.del(lease);
      admin.disconnect();
    }
  });

  it('✗ the Discord proxy down', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    await expectOnlyFailure(
      envFor({ DISCORD_PROXY_URL: `${dead}/api` }),
      `✗ Discord proxy at ${dead}/healthz not answering (ECONNREFUSED) — Start the Discord proxy (\`pnpm --filter @spacecadet/discord-proxy start\`, compose service discord-proxy) or correct DISCORD_PROXY_URL.`,
    );
  });
});

/** An application of the admin's own (not the sandbox's published credentials), for production. */
const ownApp = ownApplication();
const OWN = {
  id: ownApp.credentials.clientId,
  client_secret: ownApp.credentials.clientSecret,
  bot_token: ownApp.credentials.botToken,
};

describe('pnpm doctor in production', () => {
  let own: Sandbox;
  beforeAll(async () => {
    own = await startSandbox({ port: 0, fixture: ownApp.fixture });
  });
  afterAll(async () => {
    await own?.close();
  });

  const productionEnv = (secret: string) =>
    envFor({
      NODE_ENV: 'production',
      SESSION_SECRET: secret,
      DISCORD_API_BASE: own.apiBase,
      DISCORD_PROXY_URL: '',
      DISCORD_CLIENT_ID: OWN.id,
      DISCORD_CLIENT_SECRET: OWN.client_secret,
      DISCORD_BOT_TOKEN: OWN.bot_token,
    });

  it('passes a good production deployment', async () => {
    await goodApplication(own);
    const { code, lines } = await doctor(productionEnv(randomBytes(24).toString('hex')));
    expect(lines).toContain(
      '✓ production: SESSION_SECRET is private, the public URLs are https, the Discord credentials your own',
    );
    expect(lines.filter((l) => l.startsWith('✗'))).toEqual([]);
    expect(code).toBe(0);
  });

  it('✗ the demo SESSION_SECRET, the rest still checked', async () => {
    await goodApplication(own);
    await expectOnlyFailure(
      productionEnv('compose-demo-secret-change-me-before-going-public'),
      "✗ SESSION_SECRET is a secret published in this repository (the demo's), so anyone can forge sessions with it — Set a random one, e.g. `openssl rand -hex 32`.",
    );
  });
});
