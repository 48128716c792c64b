/**
 * How `pnpm dev` stops its services: each through the real `pnpm --filter ... <script>` it runs,
 * each signalled once, none left behind; how it shows their logs; and Ctrl+C on the whole thing.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { createTestDatabase, type TestDatabase, type TestRedis, testRedis } from '@spacecadet/db/testing';
import { type Sandbox, startSandbox } from '@spacecadet/discord-sandbox';
import { freePort, testStackEnv } from '@spacecadet/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogFormatter, groupAlive, spawnService, stopService } from './dev.ts';

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

describe('stopping a service', () => {
  it('signals the API once, so it closes fully instead of being told to hurry', async () => {
    const api = await start(
      ['--filter', '@spacecadet/api', 'start'],
      { ...testStackEnv(database, redis, sandbox), API_PORT: '0', LOG_LEVEL: 'info' },
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
    // 'stopped': by SIGTERM, not killed at the deadline.
    expect(await stopService(dashboard.child, Date.now() + 20_000)).toBe('stopped');
    expect(groupAlive(pgid)).toBe(false);
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  });
});

describe('the log lines pnpm dev shows', () => {
  const line = (fields: Record<string, unknown>) =>
    JSON.stringify({ level: 30, time: Date.UTC(2026, 0, 1, 12, 0, 5), pid: 1, hostname: 'box', ...fields });

  it('shows a request as one readable line that keeps its id', () => {
    const format = createLogFormatter({ colorize: false });
    const incoming = line({
      reqId: 'req-7',
      req: { method: 'GET', url: '/healthz', host: 'x' },
      msg: 'incoming request',
    });
    const completed = line({
      reqId: 'req-7',
      res: { statusCode: 200 },
      responseTime: 5.54,
      msg: 'request completed',
    });
    expect(format(incoming)).toBeNull();
    const shown = format(completed);
    expect(shown).toMatch(/^\[\d\d:\d\d:05\] INFO: GET \/healthz 200 6ms \{"reqId":"req-7"\}$/);
    expect(shown).not.toContain('pid');
  });

  it('shows a worker line on one line, with the request id of its job', () => {
    const format = createLogFormatter({ colorize: false });
    const shown = format(
      line({
        service: 'worker',
        name: 'worker',
        requestId: 'bug-42',
        jobId: 'j1',
        job: 'leveling.sync-roles',
        msg: 'job completed',
      }),
    );
    expect(shown).toMatch(
      /^\[\d\d:\d\d:05\] INFO: job completed \{"requestId":"bug-42","jobId":"j1","job":"leveling.sync-roles"\}$/,
    );
  });

  it('passes lines that are not pino JSON through unchanged', () => {
    const format = createLogFormatter({ colorize: false });
    for (const text of ['  ➜  Local:   http://127.0.0.1:5173/', '{not json', '{"no":"level"}']) {
      expect(format(text)).toBe(text);
    }
  });
});

describe('pnpm dev', () => {
  it('prints readable lines, the banner after start-up, and ends on Ctrl+C with exit code 0', async () => {
    const [sandboxPort, apiPort, dashboardPort, proxyPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const child = spawn('pnpm', ['dev'], {
      cwd: join(import.meta.dirname, '..'),
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        REDIS_URL: redis.url,
        REDIS_PREFIX: redis.prefix,
        SANDBOX_PORT: String(sandboxPort),
        API_PORT: String(apiPort),
        DASHBOARD_PORT: String(dashboardPort),
        DISCORD_PROXY_PORT: String(proxyPort),
        DISCORD_PROXY_URL: '',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, as a terminal's foreground job is: Ctrl+C signals all of it.
      detached: true,
    });
    service = child;
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('exit', (code, signal) => resolve([code, signal])),
    );
    const deadline = Date.now() + 90_000;
    while (!output.includes('Press Ctrl+C to stop.')) {
      if (child.exitCode !== null) throw new Error(`exited early: ${output}`);
      if (Date.now() > deadline) throw new Error(`no banner within 90 s: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const started = stripVTControlCharacters(output);
    // No raw pino JSON; the API's request and the worker's start-up as readable lines.
    expect(started).not.toMatch(/^\[\w+\]\s+\{"level"/m);
    expect(started).toMatch(/^\[api\]\s+\[\d\d:\d\d:\d\d\] INFO: GET \/healthz 200 \d+ms/m);
    // The banner comes after the worker is connected, not lost among its start-up lines.
    const banner = started.indexOf('Space Cadet is running.');
    expect(started.indexOf('discord client ready')).toBeGreaterThan(-1);
    expect(started.indexOf('discord client ready')).toBeLessThan(banner);
    expect(started.slice(banner)).toContain(`http://127.0.0.1:${apiPort}`);
    // The API and the worker share one Discord rate limit: the proxy pnpm dev started.
    expect(started.slice(banner)).toContain(`Discord proxy http://127.0.0.1:${proxyPort}/api`);
    expect(started).toMatch(/^\[proxy\]\s+.*Discord proxy listening/m);
    expect(started).not.toContain('DISCORD_PROXY_URL is not set');

    process.kill(-(child.pid ?? 0), 'SIGINT');
    expect(await exited).toEqual([0, null]);
    const stopped = stripVTControlCharacters(output).slice(banner);
    expect(stopped).toContain('Space Cadet stopped.');
    expect(stopped).not.toMatch(/ELIFECYCLE|ERR_PNPM|Command failed/);
    expect(groupAlive(child.pid ?? 0)).toBe(false);
    await expect(fetch(`http://127.0.0.1:${apiPort}/healthz`)).rejects.toThrow();
    await expect(fetch(`http://127.0.0.1:${proxyPort}/healthz`)).rejects.toThrow();
  });
});
