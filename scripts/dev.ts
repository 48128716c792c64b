/**
 * `pnpm dev`: the whole product on this machine against local PostgreSQL and Redis, with the
 * Discord sandbox standing in for Discord unless DISCORD_API_BASE points elsewhere. Needs no .env.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';

const env: NodeJS.ProcessEnv = { ...process.env };
const defaults: Record<string, string> = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/spacecadet',
  REDIS_URL: 'redis://127.0.0.1:6379',
  SANDBOX_PORT: '4100',
  API_PORT: '4000',
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
const useSandbox = /^https?:\/\/(127\.0\.0\.1|localhost)/.test(env.DISCORD_API_BASE ?? '');

const children = new Map<string, ChildProcess>();
let stopping = false;

function run(name: string, args: string[]): ChildProcess {
  // Each service in its own process group, so stopping reaches the process under pnpm and its
  // shell (vite otherwise outlives pnpm and keeps its port).
  const child = spawn('pnpm', args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const prefix = `[${name}]`.padEnd(10);
  const forward = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n'))
      if (line.trim()) process.stdout.write(`${prefix} ${line}\n`);
  };
  child.stdout?.on('data', forward);
  child.stderr?.on('data', forward);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping && name !== 'migrate') {
      console.error(`${prefix} exited (${signal ?? code}); stopping everything`);
      void stop(1);
    }
  });
  children.set(name, child);
  return child;
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

async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  for (const child of children.values()) signalGroup(child, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (children.size > 0 && Date.now() < deadline) await delay(100);
  for (const child of children.values()) signalGroup(child, 'SIGKILL');
  process.exit(code);
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    child.kill(signal); // the group is gone already
  }
}
// Services run in their own process groups: whatever ends this process, they end with it.
process.on('exit', () => {
  for (const child of children.values()) signalGroup(child, 'SIGKILL');
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
  run('api', ['--filter', '@spacecadet/api', 'start']);
  run('worker', ['--filter', '@spacecadet/worker', 'start']);
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

  console.log(`
  Space Cadet is running.
    Dashboard     ${env.DASHBOARD_URL}
    API           ${env.PUBLIC_API_URL}  (OpenAPI: ${env.PUBLIC_API_URL}/api/docs)${
      useSandbox
        ? `
    Discord sandbox chat view  http://127.0.0.1:${env.SANDBOX_PORT}/  (act as a member, click panels)`
        : ''
    }
  Press Ctrl+C to stop.
`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  void stop(1);
});
