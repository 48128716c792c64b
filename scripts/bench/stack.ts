/**
 * The product as the benchmarks drive it: the Discord sandbox, a fresh migrated database, a
 * private Redis prefix, the Discord proxy that holds the bot's rate limits (its own process, as
 * `pnpm dev` and compose run it), the real API listening on 127.0.0.1 and, when asked, the real worker
 * (discord.js client + BullMQ), both sending their bot requests through the proxy. Everything it
 * starts is stopped by `close()`.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { buildApp, loadApiConfig } from '@spacecadet/api';
import { createTestDatabase, type TestDatabase, type TestRedis, testRedis } from '@spacecadet/db/testing';
import { startDiscordProxy } from '@spacecadet/discord-proxy';
import { SANDBOX_IDS, type Sandbox, type SandboxFixture, startSandbox } from '@spacecadet/discord-sandbox';
import { freePort, TEST_DASHBOARD_URL, testStackEnv } from '@spacecadet/testing';
import { loadWorkerConfig, type RunningWorker, startWorker } from '@spacecadet/worker';
import { inheritedEnv, useLocalServices } from '../env.ts';
import { type BenchChild, closeOnStop, repoRoot, startBenchChild, waitFor } from './lib.ts';

const PROXY_CHILD_FLAG = '--discord-proxy-child';

/** `stack.ts --discord-proxy-child <upstream>`: the stack's proxy process; sends `{ url }` once listening. */
if (process.argv[2] === PROXY_CHILD_FLAG) {
  const upstream = process.argv[3] ?? '';
  const proxy = await startDiscordProxy({ upstream, port: 0 });
  process.on('SIGTERM', () => {
    proxy.close().finally(() => process.exit(0));
  });
  process.send?.({ url: proxy.url });
}

export interface Stack {
  sandbox: Sandbox;
  /** DISCORD_PROXY_URL of the proxy child the API and the worker send their bot requests through. */
  proxyUrl: string;
  database: TestDatabase;
  redis: TestRedis;
  apiUrl: string;
  worker: RunningWorker | null;
  /** The env the API and the worker were started with (for another worker process of this stack). */
  env: Record<string, string>;
  /** Signs `userId` in through the sandbox's OAuth2 page and the API's exchange; returns `Bearer …`. */
  signIn(userId: string): Promise<string>;
  /** A JSON call to the API; throws on a non-2xx answer. */
  api<T>(method: string, path: string, auth: string | null, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

export interface StackOptions {
  fixture?: SandboxFixture;
  withWorker: boolean;
  /** Where a dashboard that calls this API is served (CORS and the sign-in redirect); default TEST_DASHBOARD_URL. */
  dashboardUrl?: string;
  /**
   * Discord's limits enforced from the start (global requests a second, per-route buckets), so the
   * proxy and the worker learn the buckets as Discord reports them.
   */
  limits?: { globalPerSecond: number; routes: boolean };
  /**
   * REDIS_CLUSTER_NODES: the API, the worker and the proxy on this Redis Cluster (the proxy then
   * is the product's own process, `packages/discord-proxy/src/main.ts`, holding its lease there).
   */
  redisClusterNodes?: string;
  /** More env for the API, the worker and the proxy (e.g. SHARD_COUNT, SHARD_IDS). */
  env?: Record<string, string>;
  /** How long the sandbox waits for a click's first answer (its default: Discord's 3 s). */
  interactionTimeoutMs?: number;
}

export async function startStack(options: StackOptions): Promise<Stack> {
  useLocalServices();
  const [sandbox, database, redis] = await Promise.all([
    startSandbox({
      port: 0,
      ...(options.fixture ? { fixture: options.fixture } : {}),
      ...(options.interactionTimeoutMs ? { interactionTimeoutMs: options.interactionTimeoutMs } : {}),
      ...(options.limits
        ? { globalRateLimit: options.limits.globalPerSecond, routeRateLimits: options.limits.routes }
        : {}),
    }),
    createTestDatabase('bench'),
    testRedis(),
  ]);
  let app: Awaited<ReturnType<typeof buildApp>> | null = null;
  let worker: RunningWorker | null = null;
  let proxy: Pick<BenchChild<{ url: string }>, 'ready' | 'stop'> | null = null;
  const close = closeOnStop(async () => {
    await worker?.close().catch(() => {});
    await app?.close().catch(() => {});
    await proxy?.stop().catch(() => {});
    await Promise.allSettled([sandbox.close(), redis.close()]);
    await database.close().catch(() => {});
  });
  try {
    const dashboardUrl = options.dashboardUrl ?? TEST_DASHBOARD_URL;
    // Its own process, as deployed: in this one it would take the event loop the worker answers
    // clicks on.
    const base = {
      ...testStackEnv(database, redis, sandbox),
      DASHBOARD_URL: dashboardUrl,
      ...(options.redisClusterNodes ? { REDIS_CLUSTER_NODES: options.redisClusterNodes } : {}),
      ...options.env,
    };
    proxy = options.redisClusterNodes
      ? await startProxyProcess(base)
      : await startBenchChild<{ url: string }>(import.meta.filename, PROXY_CHILD_FLAG, undefined, [
          sandbox.apiBase,
        ]);
    const proxyUrl = proxy.ready.url;
    const env = { ...base, DISCORD_PROXY_URL: proxyUrl };
    const apiConfig = loadApiConfig(env);
    // The per-IP limit protects production; here every request comes from 127.0.0.1 on purpose.
    const config = {
      ...apiConfig,
      rateLimit: { ...apiConfig.rateLimit, max: 1_000_000, exchangeMax: 1_000 },
    };
    app = await buildApp(config, { logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const apiUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    if (options.withWorker) worker = await startWorker(loadWorkerConfig(env));

    async function api<T>(method: string, path: string, auth: string | null, body?: unknown): Promise<T> {
      const headers: Record<string, string> = {};
      if (auth) headers.authorization = auth;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${apiUrl}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path} -> ${response.status}: ${text.slice(0, 300)}`);
      return (text ? JSON.parse(text) : undefined) as T;
    }

    const signIn = (userId: string) => signInThroughSandbox(sandbox, apiUrl, dashboardUrl, userId);

    return { sandbox, proxyUrl, database, redis, apiUrl, worker, env, signIn, api, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The product's proxy process (`packages/discord-proxy/src/main.ts`) with `env` (its lease in
 * REDIS_URL's Redis or REDIS_CLUSTER_NODES' cluster), on a free port; ready once it says it is
 * the active proxy (holds the lease and the limits).
 */
async function startProxyProcess(
  env: Record<string, string>,
): Promise<Pick<BenchChild<{ url: string }>, 'ready' | 'stop'>> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join('packages', 'discord-proxy', 'src', 'main.ts')],
    {
      cwd: repoRoot,
      env: { ...inheritedEnv(), ...env, DISCORD_PROXY_PORT: String(port), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  });
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const outcome = await waitFor(
      'the Discord proxy to hold its lease',
      async () =>
        child.exitCode !== null ? 'exited' : log.includes('now the active one') ? 'active' : undefined,
      60_000,
    );
    if (outcome === 'exited') throw new Error(`the Discord proxy exited:\n${log}`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { ready: { url: `http://127.0.0.1:${port}/api` }, stop };
}

/**
 * Signs `userId` in as the dashboard does: the sandbox's OAuth2 page (approved at once for that
 * user), then the API's code exchange with PKCE. Returns `Bearer <access token>`.
 */
export async function signInThroughSandbox(
  sandbox: Sandbox,
  apiUrl: string,
  dashboardUrl: string,
  userId: string,
): Promise<string> {
  const verifier = randomBytes(48).toString('base64url');
  const query = new URLSearchParams({
    client_id: SANDBOX_IDS.app,
    redirect_uri: `${dashboardUrl}/auth/callback`,
    response_type: 'code',
    scope: 'identify guilds',
    prompt: 'consent',
    state: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    sandbox_user: userId,
  });
  const authorize = await fetch(`${sandbox.oauthBase}/oauth2/authorize?${query}`, { redirect: 'manual' });
  await authorize.text();
  const location = authorize.headers.get('location');
  const code = location ? new URL(location).searchParams.get('code') : null;
  if (!code) throw new Error(`sandbox authorize answered ${authorize.status} without a code`);
  const exchange = await fetch(`${apiUrl}/api/auth/discord/exchange`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code, code_verifier: verifier }),
  });
  const text = await exchange.text();
  if (!exchange.ok)
    throw new Error(`POST /api/auth/discord/exchange -> ${exchange.status}: ${text.slice(0, 300)}`);
  const session = JSON.parse(text) as { tokens: { access_token: string } };
  return `Bearer ${session.tokens.access_token}`;
}

export interface JobStatus {
  state: string;
  progress: number;
  error: string | null;
}

/** Enqueues a job through the API (like the dashboard's button) and waits for it to finish. */
export async function runJobThroughApi(stack: Stack, auth: string, path: string): Promise<JobStatus> {
  const { job_id } = await stack.api<{ job_id: string }>('POST', path, auth);
  const status = await waitFor(
    `job ${job_id}`,
    async () => {
      const job = await stack.api<JobStatus>('GET', `/api/jobs/${encodeURIComponent(job_id)}`, auth);
      return job.state === 'completed' || job.state === 'failed' ? job : undefined;
    },
    60_000,
  );
  if (status.state !== 'completed') throw new Error(`job ${job_id} ${status.state}: ${status.error ?? ''}`);
  return status;
}
