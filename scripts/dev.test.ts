/**
 * How `pnpm dev` stops its services: each through the real `pnpm --filter ... <script>` it runs,
 * each signalled once, none left behind.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { stripVTControlCharacters } from 'node:util';
import { createTestDatabase, type TestDatabase, type TestRedis, testRedis } from '@spacecadet/db/testing';
import { type Sandbox, startSandbox } from '@spacecadet/discord-sandbox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { groupAlive, spawnService, stopService } from './dev.ts';

let database: TestDatabase;
let redis: TestRedis;
let sandbox: Sandbox;
let service: ChildProcess | undefined;

beforeAll(async () => {
  [database, redis, sandbox] = await Promise.all([
    createTestDatabase('dev_script'),
    testRedis(),
    startSandbox(),
  ]);
});
afterEach(() => {
  if (service?.pid !== undefined && groupAlive(service.pid)) process.kill(-service.pid, 'SIGKILL');
});
afterAll(async () => {
  await sandbox?.close();
  await redis?.close();
  await database?.close();
});

/** Starts `pnpm <args>` as dev.ts does and resolves once its output matches `ready`. */
async function start(args: string[], env: NodeJS.ProcessEnv, ready: RegExp) {
  const child = spawnService(args, { ...process.env, ...env });
  service = child;
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const deadline = Date.now() + 60_000;
  // Under CI=true vite and pino colour their output, which splits words like `Local:`.
  const plain = () => stripVTControlCharacters(output);
  while (!ready.test(plain())) {
    if (child.exitCode !== null) throw new Error(`exited early: ${output}`);
    if (Date.now() > deadline) throw new Error(`not ready within 60 s: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, output: plain };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('stopping a service', () => {
  it('signals the API once, so it closes fully instead of being told to hurry', async () => {
    const api = await start(
      ['--filter', '@spacecadet/api', 'start'],
      {
        DATABASE_URL: database.url,
        REDIS_URL: redis.url,
        REDIS_PREFIX: redis.prefix,
        DISCORD_API_BASE: sandbox.apiBase,
        DISCORD_OAUTH_BASE: sandbox.oauthBase,
        SESSION_SECRET: 'dev-test-session-secret-that-is-long-enough',
        API_PORT: '0',
        LOG_LEVEL: 'info',
      },
      /Server listening at/,
    );
    const url = /Server listening at (http:\/\/[\d.:]+)/.exec(api.output())?.[1];
    const pnpm = api.child.pid ?? 0;
    // With pnpm paused, the API hears of the stop only if it is signalled besides pnpm. Whether
    // a second SIGTERM then arrives separately or merges with the first is a race; this is not.
    process.kill(pnpm, 'SIGSTOP');
    const stopped = stopService(api.child, Date.now() + 20_000);
    for (let probe = 0; probe < 2; probe++) {
      // A signal delivered before a request is handled before its answer: still serving, still
      // not signalled.
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    }
    expect(api.output()).not.toContain('shutting down');
    process.kill(pnpm, 'SIGCONT');
    expect(await stopped).toBe('stopped');
    expect(api.output()).toContain('shutting down');
    expect(api.output()).toContain('shutdown complete');
    expect(api.output()).not.toContain('already shutting down');
    expect(api.child.exitCode).toBe(0);
  });

  it('reaches a script pnpm runs through a shell (vite), which pnpm alone would leave running', async () => {
    const port = await freePort();
    const dashboard = await start(
      ['--filter', '@spacecadet/dashboard', 'dev', '--port', String(port), '--strictPort'],
      {},
      /Local:/,
    );
    const pgid = dashboard.child.pid ?? 0;
    const started = Date.now();
    expect(await stopService(dashboard.child, Date.now() + 20_000)).toBe('stopped');
    // Stopped by its SIGTERM, not killed at the deadline.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(groupAlive(pgid)).toBe(false);
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  });
});
