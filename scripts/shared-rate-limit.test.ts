/**
 * Issue 25, part 1: one rate limit for every process. Discord counts its limits per bot token,
 * so the API and two worker shards (each its own discord.js client) send their bot requests
 * through one `@spacecadet/discord-proxy`. Against a sandbox enforcing the global 50 a second
 * and the per-route buckets, role-heavy jobs on two servers at once get no 429 and all finish;
 * with the proxy down a job waits for Discord and is retried later, and the API answers 503.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { buildApp, loadApiConfig } from '@spacecadet/api';
import { bullPrefix, jobQueueName, shardOfGuild } from '@spacecadet/contract';
import { createTestDatabase, type TestDatabase, type TestRedis, testRedis } from '@spacecadet/db/testing';
import { type DiscordProxy, startDiscordProxy } from '@spacecadet/discord-proxy';
import {
  type RestRequestRecord,
  SANDBOX_BOT_TOKEN,
  SANDBOX_IDS,
  type Sandbox,
  startSandbox,
} from '@spacecadet/discord-sandbox';
import { parsePrometheusSamples } from '@spacecadet/runtime/testing';
import { TEST_DASHBOARD_URL, testStackEnv } from '@spacecadet/testing';
import { loadWorkerConfig, type RunningWorker, startWorker } from '@spacecadet/worker';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './bench/lib.ts';
import { signInThroughSandbox } from './bench/stack.ts';
import { useLocalServices } from './env.ts';

const { guilds, users, channels } = SANDBOX_IDS;
const ORBIT_HANGAR = '300000000000000061';
/** The two servers with the bot, each with its admin and the channel its panels go to. */
const SERVERS = [
  { guildId: guilds.station, admin: users.ada, channelId: channels.roles },
  { guildId: guilds.orbit, admin: users.rex, channelId: ORBIT_HANGAR },
] as const;

let sandbox: Sandbox;
let database: TestDatabase;
let redis: TestRedis;
let proxy: DiscordProxy;
let app: Awaited<ReturnType<typeof buildApp>> | undefined;
const workers: RunningWorker[] = [];
let apiUrl = '';
const sessions = new Map<string, string>();

/** Every REST call the sandbox answered, collected as they come (it keeps only the last 2000). */
const answered: RestRequestRecord[] = [];
let lastSeq = 0;
function collect(): RestRequestRecord[] {
  for (const request of sandbox.world.requests) {
    if (request.seq > lastSeq) answered.push(request);
  }
  lastSeq = sandbox.world.requests.at(-1)?.seq ?? lastSeq;
  return answered;
}
let collector: NodeJS.Timeout | undefined;

async function api<T>(method: string, path: string, auth: string | null, body?: unknown) {
  const headers: Record<string, string> = {};
  if (auth) headers.authorization = auth;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

async function ok<T>(method: string, path: string, auth: string | null, body?: unknown): Promise<T> {
  const answer = await api<T>(method, path, auth, body);
  if (answer.status >= 300)
    throw new Error(`${method} ${path} -> ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

const signIn = (userId: string) => signInThroughSandbox(sandbox, apiUrl, TEST_DASHBOARD_URL, userId);

function admin(guildId: string): string {
  const auth = sessions.get(guildId);
  if (!auth) throw new Error(`no admin session for ${guildId}`);
  return auth;
}

beforeAll(async () => {
  useLocalServices();
  [sandbox, database, redis] = await Promise.all([
    startSandbox({ port: 0, globalRateLimit: 50, routeRateLimits: true }),
    createTestDatabase('shared_limit'),
    testRedis(),
  ]);
  collector = setInterval(collect, 100);
  proxy = await startDiscordProxy({
    upstream: sandbox.apiBase,
    port: 0,
    metrics: { port: 0, host: '127.0.0.1', token: null },
  });
  const env = {
    ...testStackEnv(database, redis, sandbox),
    DISCORD_PROXY_URL: proxy.url,
    JOB_LOCK_DURATION_MS: '5000',
    // Two shards of one bot; the API queues each server's jobs in its shard's queue.
    SHARD_COUNT: '2',
  };
  const base = loadApiConfig(env);
  // Every request of this test comes from 127.0.0.1: the API's per-IP limit is not under test.
  app = await buildApp(
    { ...base, rateLimit: { ...base.rateLimit, max: 1_000_000, exchangeMax: 1_000 } },
    { logger: false },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  apiUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // Two shards of one bot, each process with its own discord.js client.
  for (const shard of ['0', '1']) {
    workers.push(await startWorker(loadWorkerConfig({ ...env, SHARD_IDS: shard })));
  }
  for (const server of SERVERS) sessions.set(server.guildId, await signIn(server.admin));
  for (const { guildId } of SERVERS) {
    await waitFor(`the bot's presence in ${guildId}`, async () => {
      const presence = await ok<{ inGuild: boolean }>('GET', `/api/bot/in-guild/${guildId}`, admin(guildId));
      return presence.inGuild ? true : undefined;
    });
  }
}, 240_000);

afterAll(async () => {
  clearInterval(collector);
  for (const worker of workers) await worker.close().catch(() => {});
  await app?.close().catch(() => {});
  await proxy?.close().catch(() => {});
  await Promise.allSettled([sandbox?.close(), redis?.close()]);
  await database?.close().catch(() => {});
});

interface JobStatus {
  state: string;
  error: string | null;
  name: string;
  waiting_for_discord: boolean;
}

async function finished(guildId: string, jobId: string): Promise<JobStatus> {
  return waitFor(
    `job ${jobId}`,
    async () => {
      const job = await ok<JobStatus>('GET', `/api/jobs/${encodeURIComponent(jobId)}`, admin(guildId));
      return job.state === 'completed' || job.state === 'failed' ? job : undefined;
    },
    180_000,
  );
}

describe('one Discord rate limit for the API and two worker shards', () => {
  it('runs role-heavy jobs on two servers at once with no 429 and every job completed', async () => {
    const mark = lastSeq;
    const jobIds = await Promise.all(
      SERVERS.map(async ({ guildId, channelId }) => {
        const auth = admin(guildId);
        const base = `/api/guilds/${guildId}`;
        // The API's own bot reads (channel checks) go through the proxy as well.
        await ok('PUT', `${base}/color-roles/channel`, auth, { channel_id: channelId });
        await ok('POST', `${base}/personality-roles/init`, auth, { channel_id: channelId });
        const ids: string[] = [];
        for (const path of [
          'color-roles/generate-roles',
          'personality-roles/generate-roles',
          'leveling/tasks/refresh',
        ]) {
          ids.push((await ok<{ job_id: string }>('POST', `${base}/${path}`, auth)).job_id);
        }
        return ids.map((jobId) => ({ guildId, jobId }));
      }),
    );
    // A third sender beside the jobs (as more shards would be): reads through the same proxy,
    // so together they ask for more than Discord's 50 a second.
    const reads = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        fetch(`${proxy.url}/v10/guilds/${SERVERS[i % 2]?.guildId}/members/${SERVERS[i % 2]?.admin}`, {
          headers: { authorization: `Bot ${SANDBOX_BOT_TOKEN}` },
        }).then(async (response) => {
          await response.arrayBuffer();
          return response.status;
        }),
      ),
    );
    expect(reads.filter((status) => status !== 200)).toEqual([]);
    const jobs = await Promise.all(jobIds.flat().map(({ guildId, jobId }) => finished(guildId, jobId)));
    expect(jobs.map((job) => [job.name, job.state, job.error])).toEqual(
      jobs.map((job) => [job.name, 'completed', null]),
    );

    const requests = collect().filter((request) => request.seq > mark);
    const roleWrites = requests.filter(
      (request) => /^\/guilds\/\d+\/roles/.test(request.path) && request.method !== 'GET',
    );
    // Role-heavy indeed: both servers' roles were created through the proxy.
    expect(roleWrites.length).toBeGreaterThan(40);
    expect(requests.filter((request) => request.status === 429)).toEqual([]);
    expect(sandbox.world.invalidRequests.count(Date.now())).toBe(0);

    // The busiest second, as the sandbox saw it (its limit is 50).
    const times = requests.map((request) => Date.parse(request.at)).sort((a, b) => a - b);
    let peak = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while ((times[i] ?? 0) - (times[j] ?? 0) >= 1000) j++;
      peak = Math.max(peak, i - j + 1);
    }
    console.log(
      `shared limit: ${requests.length} requests, ${roleWrites.length} role writes, busiest second ${peak}, 0 x 429`,
    );

    if (!proxy.metricsUrl) throw new Error('the proxy has no metrics listener');
    const samples = parsePrometheusSamples(await (await fetch(proxy.metricsUrl)).text());
    const routes = samples.filter((s) => s.name === 'discord_proxy_requests_total');
    const created = routes.find(
      (s) =>
        s.labels.route === '/guilds/:id/roles' && s.labels.method === 'POST' && s.labels.status === '200',
    );
    expect(created?.value).toBeGreaterThanOrEqual(
      roleWrites.filter((r) => r.method === 'POST' && /^\/guilds\/\d+\/roles$/.test(r.path)).length,
    );
    expect(samples.filter((s) => s.name === 'discord_proxy_upstream_429_total')).toEqual([]);
    expect(samples.find((s) => s.name === 'discord_proxy_invalid_requests')?.value).toBe(0);
    expect(routes.every((s) => !/\d{17}/.test(s.labels.route ?? ''))).toBe(true);
  }, 240_000);

  it('with the proxy down a job waits for Discord (its status says so) and is retried later, nothing goes to Discord unlimited, the API answers 503', async () => {
    const { guildId } = SERVERS[0];
    await proxy.close();
    const mark = collect().at(-1)?.seq ?? 0;

    const { job_id } = await ok<{ job_id: string }>(
      'POST',
      `/api/guilds/${guildId}/color-roles/reset`,
      admin(guildId),
    );
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue(jobQueueName(shardOfGuild(guildId, 2)), {
      connection,
      prefix: bullPrefix(redis.prefix),
    });
    try {
      // The admin's job card: still running, waiting for Discord, not failed.
      const status = await waitFor(
        'the job to report that it waits for Discord',
        async () => {
          const job = await ok<JobStatus>('GET', `/api/jobs/${encodeURIComponent(job_id)}`, admin(guildId));
          return job.waiting_for_discord ? job : undefined;
        },
        60_000,
      );
      expect(status.state).not.toBe('failed');
      expect(status.error).toBeNull();
      const job = await queue.getJob(job_id);
      // Retried with backoff without spending its attempts, not given up and not run around the proxy.
      expect(job?.attemptsMade).toBe(0);
      expect(['delayed', 'waiting', 'active']).toContain(await job?.getState());
    } finally {
      await queue.close();
      connection.disconnect();
    }
    const roleCalls = collect().filter(
      (request) => request.seq > mark && request.path.startsWith(`/guilds/${guildId}/roles`),
    );
    expect(roleCalls).toEqual([]);

    // A route that needs the bot's Discord read: a dependency down, not a server error.
    const search = await api<{ error: string }>(
      'GET',
      `/api/guilds/${guildId}/members/search?query=${randomBytes(4).toString('hex')}`,
      admin(guildId),
    );
    expect(search.status).toBe(503);
    expect(search.body.error).toBe('service_unavailable');
  }, 120_000);
});
