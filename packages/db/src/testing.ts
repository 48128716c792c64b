/**
 * Test helpers every package's integration tests use: a fresh, migrated Postgres database
 * and an isolated Redis key prefix per call. They use TEST_DATABASE_URL / TEST_REDIS_URL when
 * set (CI, machines without Docker) and fall back to Testcontainers otherwise. The env that points
 * an app at them is `testStackEnv` of `@spacecadet/testing`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { freePort } from '@spacecadet/testing';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createDb, type Db } from './client.ts';
import { dropDatabase, withDatabase } from './database.ts';
import { runMigrations } from './migrate.ts';

export interface TestDatabase {
  /** Connection URL of the new database; hand it to the code under test. */
  url: string;
  db: Db;
  /** Closes this helper's pool and drops the database (disconnecting any other clients). */
  close(): Promise<void>;
}

export interface TestRedis {
  url: string;
  /** Unique per call; keep every key under it (e.g. BullMQ `prefix`, `${prefix}:cooldown:…`). */
  prefix: string;
  /** Deletes every key starting with `prefix` and disconnects. */
  close(): Promise<void>;
}

// One container per test process, started on first use; Testcontainers' reaper removes it.
let postgresServer: Promise<string> | undefined;
let redisServer: Promise<string> | undefined;

/** URL of the Postgres server test databases live on (TEST_DATABASE_URL or a container). */
export function testPostgresServerUrl(): Promise<string> {
  const fromEnv = process.env.TEST_DATABASE_URL;
  if (fromEnv) return Promise.resolve(fromEnv);
  postgresServer ??= (async () => {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const container = await new PostgreSqlContainer('postgres:16-alpine').start();
    return container.getConnectionUri();
  })();
  return postgresServer;
}

function redisServerUrl(): Promise<string> {
  const fromEnv = process.env.TEST_REDIS_URL;
  if (fromEnv) return Promise.resolve(fromEnv);
  redisServer ??= (async () => {
    const { RedisContainer } = await import('@testcontainers/redis');
    const container = await new RedisContainer('redis:7-alpine').start();
    return container.getConnectionUrl();
  })();
  return redisServer;
}

function uniqueSuffix(): string {
  return `${Date.now().toString(36)}_${randomBytes(5).toString('hex')}`;
}

/** Postgres identifiers: lower-case letters, digits and `_`, at most 63 bytes. */
function databaseNameFor(prefix: string): string {
  const safePrefix =
    prefix
      .toLowerCase()
      .replace(/[^a-z0-9_]/g, '_')
      .slice(0, 40) || 'test';
  return `${safePrefix}_${uniqueSuffix()}`;
}

export async function createTestDatabase(prefix = 'test'): Promise<TestDatabase> {
  const serverUrl = await testPostgresServerUrl();
  const name = databaseNameFor(prefix);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }

  const url = withDatabase(serverUrl, name);
  try {
    await runMigrations(url);
  } catch (error) {
    await dropDatabase(serverUrl, name);
    throw error;
  }
  const handle = createDb(url, { max: 5, applicationName: 'spacecadet-test' });
  let closed: Promise<void> | undefined;
  return {
    url,
    db: handle.db,
    close() {
      closed ??= (async () => {
        await handle.close();
        await dropDatabase(serverUrl, name);
      })();
      return closed;
    },
  };
}

export async function testRedis(): Promise<TestRedis> {
  const url = await redisServerUrl();
  const prefix = `t_${uniqueSuffix()}`;
  let closed: Promise<void> | undefined;
  return {
    url,
    prefix,
    close() {
      closed ??= deleteKeysWithPrefix(url, prefix);
      return closed;
    },
  };
}

async function deleteKeysWithPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** A Redis server of the test's own, for tests that restart it (`redis-server` on the PATH). */
export interface PrivateRedis {
  url: string;
  /**
   * Kills it and starts it again on the same port, empty (no persistence): what a Redis
   * restart without `appendonly`/`save` does to every connected process. Resolves once it answers.
   */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a `redis-server` that keeps nothing on disk on a free port; resolves once it answers PING. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  const start = async () => {
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    server = child;
    let answered = false;
    const failed = new Promise<never>((_resolve, reject) => {
      child.once('exit', () => {
        if (!answered) reject(new Error(`redis-server on port ${port} exited before it answered`));
      });
    });
    // Commands wait in ioredis' offline queue until the server listens.
    const probe = new Redis(url, { maxRetriesPerRequest: null, retryStrategy: () => 50 });
    probe.on('error', () => {});
    try {
      await Promise.race([probe.ping(), failed]);
      answered = true;
    } finally {
      probe.disconnect();
    }
  };
  const stop = async () => {
    const child = server;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url,
    async restart() {
      await stop();
      await start();
    },
    close: stop,
  };
}

export { guildRowCounts, seedEveryGuildTable } from './guild-rows-testing.ts';
