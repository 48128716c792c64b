/**
 * `pnpm dev`: the whole product on this machine against local PostgreSQL and Redis, with the
 * Discord sandbox standing in for Discord unless DISCORD_API_BASE points elsewhere. Needs no .env;
 * reads the repo root's .env when there is one (set variables win).
 */
// First: the repo's .env is read before any module looks at the environment.
import '@spacecadet/contract/env-file';
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { isLocalDiscord } from '@spacecadet/contract';
import { prettyFactory } from 'pino-pretty';
import { inheritedEnv } from './env.ts';

/**
 * How long services get to stop before they are killed: more than the worker's own 25 s for
 * its active jobs (and the API's 10 s), so each one ends on its own terms.
 */
export const STOP_DEADLINE_MS = 30_000;

/**
 * Starts `pnpm <args>` as the leader of a new process group (see stopService). Silent: pnpm's
 * own lines (the script banner, and "Command failed with signal SIGTERM" for every service
 * stopped on Ctrl+C, which reads like a crash) are left out; the service's output is all there is.
 */
export function spawnService(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn('pnpm', ['--silent', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
}

interface PinoEntry {
  level: number;
  msg?: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  [field: string]: unknown;
}

function pinoEntry(line: string): PinoEntry | null {
  if (!line.startsWith('{')) return null;
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' &&
      parsed !== null &&
      'level' in parsed &&
      typeof parsed.level === 'number'
      ? (parsed as PinoEntry)
      : null;
  } catch {
    return null;
  }
}

/**
 * Makes a service's output readable in a terminal: pino's JSON lines through pino-pretty, one
 * line each (time, level, message, then the other fields inline), and Fastify's two lines per
 * request ("incoming request", "request completed") as one `GET /url 200 3ms` line that keeps
 * the request id. Returns null for a line held back (an incoming request until it completes);
 * anything that is not pino JSON (vite, the sandbox) passes unchanged.
 */
export function createLogFormatter(options: { colorize: boolean }): (line: string) => string | null {
  const pretty = prettyFactory({
    colorize: options.colorize,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,name,service',
    singleLine: true,
  });
  const incoming = new Map<string, { method?: string; url?: string }>();
  return (line) => {
    const entry = pinoEntry(line);
    if (entry === null) return line;
    const { reqId, req, res, responseTime, ...rest } = entry;
    if (reqId !== undefined && req !== undefined && entry.msg === 'incoming request') {
      // Bounded: a request that never completes is not kept for ever.
      if (incoming.size >= 1_000) incoming.clear();
      incoming.set(reqId, req);
      return null;
    }
    if (reqId !== undefined && res !== undefined && entry.msg === 'request completed') {
      const request = incoming.get(reqId);
      incoming.delete(reqId);
      const took = responseTime === undefined ? '' : ` ${Math.round(responseTime)}ms`;
      const msg = `${request?.method ?? '?'} ${request?.url ?? '?'} ${res.statusCode ?? '?'}${took}`;
      return pretty({ ...rest, msg, reqId }).trimEnd();
    }
    return pretty(entry).trimEnd();
  };
}

/** Whether a live (not zombie) process is left in process group `pgid`. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  // kill(0) counts zombies too, and where nothing reaps orphans (a container's PID 1 that is not
  // an init) they stay forever; /proc tells them apart.
  if (process.platform !== 'linux') return true;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // "pid (comm) state ppid pgrp ..."; comm may hold spaces and parentheses.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') return true;
  }
  return false;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is gone already
  }
}

async function pollUntil(done: () => boolean, deadline: number): Promise<void> {
  while (!done() && Date.now() < deadline) await delay(50);
}

/**
 * Stops a service started by spawnService, signalling each process once: a service that gets
 * SIGTERM twice takes the second as "hurry", and a third as "exit now".
 *
 * pnpm passes SIGTERM on to the script it runs and waits for it, so only pnpm is signalled
 * (signalling the group would reach the script twice). A script that pnpm runs through a shell
 * (`vite`) is not reached that way: the shell dies and leaves it running, unsignalled, in the
 * group, so whatever is left there once pnpm has exited gets SIGTERM then. At `deadline` the
 * group is killed. Resolves with how it ended.
 */
export async function stopService(child: ChildProcess, deadline: number): Promise<'stopped' | 'killed'> {
  const pgid = child.pid;
  if (pgid === undefined) return 'stopped';
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  if (!exited()) child.kill('SIGTERM');
  await pollUntil(exited, deadline);
  if (groupAlive(pgid)) signalGroup(pgid, 'SIGTERM');
  await pollUntil(() => !groupAlive(pgid), deadline);
  if (!groupAlive(pgid)) return 'stopped';
  signalGroup(pgid, 'SIGKILL');
  return 'killed';
}

function devEnv(): NodeJS.ProcessEnv {
  const env = inheritedEnv();
  const defaults: Record<string, string> = {
    DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/spacecadet',
    REDIS_URL: 'redis://127.0.0.1:6379',
    SANDBOX_PORT: '4100',
    API_PORT: '4000',
    DISCORD_PROXY_PORT: '4200',
    DASHBOARD_PORT: '5173',
    DISCORD_CLIENT_ID: '100000000000000001',
    DISCORD_CLIENT_SECRET: 'sandbox-secret',
    DISCORD_BOT_TOKEN: 'sandbox-bot-token',
    SESSION_SECRET: 'dev-only-session-secret-change-me-in-production',
  };
  for (const [key, value] of Object.entries(defaults)) env[key] ??= value;
  env.DISCORD_API_BASE ??= `http://127.0.0.1:${env.SANDBOX_PORT}/api`;
  env.DISCORD_OAUTH_BASE ??= `http://127.0.0.1:${env.SANDBOX_PORT}`;
  env.PUBLIC_API_URL ??= `http://127.0.0.1:${env.API_PORT}`;
  env.DASHBOARD_URL ??= `http://127.0.0.1:${env.DASHBOARD_PORT}`;
  if (startsProxy(env)) env.DISCORD_PROXY_URL = `http://127.0.0.1:${env.DISCORD_PROXY_PORT}/api`;
  return env;
}

/**
 * One Discord rate limit for the API and the worker: `pnpm dev` starts the proxy, unless
 * DISCORD_PROXY_URL names one already running.
 */
function startsProxy(env: NodeJS.ProcessEnv): boolean {
  return (env.DISCORD_PROXY_URL ?? '').trim() === '';
}

async function waitFor(url: string, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await delay(250);
  }
  throw new Error(`${what} did not answer at ${url} within ${timeoutMs / 1000}s`);
}

/** What the worker logs once it is connected to Discord. */
const WORKER_READY_MESSAGE = 'discord client ready';
const WORKER_READY_WAIT_MS = 30_000;

function runDev(): void {
  const ownProxy = startsProxy(inheritedEnv());
  const env = devEnv();
  const useSandbox = isLocalDiscord(env.DISCORD_API_BASE ?? '');
  // Every service started, exited or not: its process group may outlive pnpm (see stopService).
  const services = new Map<string, ChildProcess>();
  let stopping = false;

  async function stop(code: number): Promise<void> {
    // Ctrl+C reaches this process more than once (pnpm and tsx pass it on too); one stop is enough.
    if (stopping) return;
    stopping = true;
    const deadline = Date.now() + STOP_DEADLINE_MS;
    await Promise.all([...services.values()].map((child) => stopService(child, deadline)));
    if (code === 0) console.log('\n  Space Cadet stopped.');
    process.exit(code);
  }

  /** Starts a service; its output is shown line by line, readable (createLogFormatter), prefixed. */
  function run(
    name: string,
    args: string[],
    onLine?: (line: string) => void,
    serviceEnv: NodeJS.ProcessEnv = env,
  ): ChildProcess {
    const child = spawnService(args, serviceEnv);
    const prefix = `[${name}]`.padEnd(10);
    const format = createLogFormatter({ colorize: process.stdout.isTTY === true });
    for (const stream of [child.stdout, child.stderr]) {
      if (stream === null) continue;
      // Whole lines, however the pipe splits them: a JSON line cut in two is not pino's.
      createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
        onLine?.(line);
        if (line.trim() === '') return;
        const shown = format(line);
        if (shown === null) return;
        for (const part of shown.split('\n')) process.stdout.write(`${prefix} ${part}\n`);
      });
    }
    child.on('exit', (code, signal) => {
      if (!stopping && name !== 'migrate') {
        console.error(`${prefix} exited (${signal ?? code}); stopping everything`);
        void stop(1);
      }
    });
    services.set(name, child);
    return child;
  }

  // Services run in their own process groups: whatever ends this process, they end with it.
  process.on('exit', () => {
    for (const child of services.values()) {
      if (child.pid !== undefined && groupAlive(child.pid)) signalGroup(child.pid, 'SIGKILL');
    }
  });
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  async function main(): Promise<void> {
    const migrate = run('migrate', ['db:migrate']);
    const migrated = await new Promise<number | null>((resolve) => migrate.on('exit', resolve));
    if (migrated !== 0) throw new Error('Database migration failed (is PostgreSQL running at DATABASE_URL?)');

    if (useSandbox) {
      run('sandbox', ['--filter', '@spacecadet/discord-sandbox', 'start']);
      await waitFor(`http://127.0.0.1:${env.SANDBOX_PORT}/_sandbox/state`, 'Discord sandbox');
    }
    if (ownProxy) {
      // With METRICS_PORT set, the proxy takes the one after the worker's.
      const proxyMetricsPort = env.METRICS_PORT ? String(Number(env.METRICS_PORT) + 2) : undefined;
      const proxyEnv: NodeJS.ProcessEnv = { ...env, DISCORD_PROXY_HOST: '127.0.0.1' };
      if (proxyMetricsPort === undefined) delete proxyEnv.METRICS_PORT;
      else proxyEnv.METRICS_PORT = proxyMetricsPort;
      run('proxy', ['--filter', '@spacecadet/discord-proxy', 'start'], undefined, proxyEnv);
      await waitFor(`http://127.0.0.1:${env.DISCORD_PROXY_PORT}/healthz`, 'Discord proxy');
    }
    run('api', ['--filter', '@spacecadet/api', 'start']);
    let workerConnected = () => {};
    const workerReady = new Promise<void>((resolve) => {
      workerConnected = resolve;
    });
    // With METRICS_PORT set, the API takes it and the worker the next one (one port per process).
    const workerMetricsPort = env.METRICS_PORT ? String(Number(env.METRICS_PORT) + 1) : undefined;
    run(
      'worker',
      ['--filter', '@spacecadet/worker', 'start'],
      (line) => {
        if (pinoEntry(line)?.msg === WORKER_READY_MESSAGE) workerConnected();
      },
      workerMetricsPort === undefined ? env : { ...env, METRICS_PORT: workerMetricsPort },
    );
    run('dashboard', [
      '--filter',
      '@spacecadet/dashboard',
      'dev',
      '--port',
      env.DASHBOARD_PORT ?? '5173',
      '--strictPort',
    ]);
    await waitFor(`${env.PUBLIC_API_URL}/healthz`, 'API');
    await waitFor(env.DASHBOARD_URL ?? '', 'dashboard');
    // The banner comes after the start-up lines, so it is the last thing on screen; a worker
    // that takes longer to reach Discord than this does not hold it back.
    await Promise.race([workerReady, delay(WORKER_READY_WAIT_MS)]);

    console.log(`
  Space Cadet is running.
    Dashboard     ${env.DASHBOARD_URL}
    API           ${env.PUBLIC_API_URL}  (OpenAPI: ${env.PUBLIC_API_URL}/api/docs)
    Discord proxy ${env.DISCORD_PROXY_URL}  (one rate limit for the API and the worker)${
      useSandbox
        ? `
    Discord sandbox chat view  http://127.0.0.1:${env.SANDBOX_PORT}/  (act as a member, click panels)`
        : ''
    }${
      workerMetricsPort === undefined
        ? ''
        : `
    Metrics       http://${env.METRICS_HOST ?? '127.0.0.1'}:${env.METRICS_PORT}/metrics (API), :${workerMetricsPort}/metrics (worker), :${Number(workerMetricsPort) + 1}/metrics (Discord proxy)`
    }
  Press Ctrl+C to stop.
`);
  }

  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    void stop(1);
  });
}

// Run by `pnpm dev`; imported by its test for the functions above.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) runDev();
