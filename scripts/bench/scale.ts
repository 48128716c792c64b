/**
 * How the product grows with the number of servers: one run, a generated world of SIZES guilds
 * (BENCH_SCALE_GUILDS, default 1,000 then 10,000; each CHANNELS channels, ROLES roles, MEMBERS
 * members), served by a sandbox in a child process, and two real worker processes
 * (`apps/worker/src/main.ts`, SHARD_COUNT 2, SHARD_IDS 0 and 1) sharing its shards. At each size:
 *
 * - start-up (a restart: the configured guilds' schedulers exist, next due after the run): from
 *   spawning both workers to both logging their shard's `bot_guilds synced` with all its guilds;
 *   the REST calls the sandbox answered meanwhile (its request counter) and after it until the
 *   queue has drained and the sandbox has been quiet for QUIET_MS, per guild; the bytes under the
 *   run's Redis prefix then (MEMORY USAGE of each key), per guild;
 * - memory: both workers' heap (and RSS) after a forced full GC (the GC hook `MeasuredChild`
 *   injects), per guild;
 * - personality refresh: JOBS `personality-roles.refresh` jobs for configured guilds (every guild
 *   is configured: its 5-minute schedulers exist) against the same job for a guild with nothing
 *   set up (it reads the setup and returns: the no-op), enqueued on the shared queue while paused
 *   and drained by both workers; jobs per second, and the REST calls per job;
 * - XP: BURST chat messages spread over every guild (message k in guild k % size, from one of
 *   its members in turn; cooldown off, so each earns XP) from the first emitted to the last one's
 *   XP in Postgres (sum of member_xp.message_count), against two bare discord.js processes (the
 *   same shards, `baseline-client.ts`) counting the same messages, before the workers start;
 *   and the member_xp rows the flushers wrote per second (rows whose last_message_at falls in
 *   the phase; the same number of member_daily_xp rows go with them).
 *
 * Then how each figure grows from the first size to the last: a ratio near 1 for a per-guild
 * figure (or a rate) is linear; a start-up time growing faster than the guilds is not.
 *
 * Every guild has leveling on (10 XP a message, cooldown off) and personality roles configured
 * (Initialize done, not posted: no question messages to keep, so the refresh checks roles; the
 * first ENABLED_QUESTIONS questions enabled, their options' roles among the generated ones).
 *
 * `scale.ts --sandbox <guilds> <members>` is the sandbox child.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type GuildJobPayload, type JobName, jobSchedulerIdFor } from '@spacecadet/contract';
import { PERSONALITY_CATALOG, PERSONALITY_REFRESH_INTERVAL_MS } from '@spacecadet/core';
import { createDb } from '@spacecadet/db';
import { seedPersonalityCatalog } from '@spacecadet/db/queries/personality-roles';
import { levelingSettings, personalityConfigs } from '@spacecadet/db/schema';
import { createTestDatabase, type TestDatabase, type TestRedis, testRedis } from '@spacecadet/db/testing';
import type { RestRequestRecord } from '@spacecadet/discord-sandbox';
import { GUILD_JOB_OPTIONS } from '@spacecadet/queue/guild-jobs';
import { testStackEnv } from '@spacecadet/testing';
import { WORKER_INTENTS } from '@spacecadet/worker/testing';
import { loadBenchEnv, pathAndHome, useLocalServices } from '../env.ts';
import {
  closeOnStop,
  drained,
  emitInChunks,
  epochMs,
  type GeneratedGuild,
  generatedGuildId,
  generateWorld,
  kib,
  type Measured,
  MeasuredChild,
  median,
  printTable,
  producerQueue,
  ratio,
  repoRoot,
  reportHeadline,
  runBounded,
  shardOfGuild,
  snowflake,
  startBenchChild,
  waitFor,
} from './lib.ts';

const BENCH = loadBenchEnv().scale;
const SIZES = BENCH.guilds;
const MEMBERS = BENCH.members;
const CHANNELS = 20;
const ROLES = 30;
const SHARDS = 2;
const XP_PER_MESSAGE = 10;
/** Messages a phase emits, whatever the size, so rates compare. */
const BURST = 30_000;
const XP_ROUNDS = 1;
const REFRESH_ROUNDS = 2;
/** Jobs a refresh phase runs (spread over the guilds), whatever the size. */
const JOBS = 500;
/** When the configured guilds' existing schedulers next run: after the run. */
const NEXT_SCHEDULED_RUN_MS = 60 * 60_000;
/** The catalog's first questions enabled in every guild: their options fit the generated roles. */
const ENABLED_QUESTIONS = 3;
const READY_TIMEOUT_MS = 240_000;
const QUIET_MS = 3_000;
const PHASE_TIMEOUT_MS = 150_000;
const POLL_MS = 25;
const SANDBOX_FLAG = '--sandbox';
const REFRESH_JOB: JobName = 'personality-roles.refresh';
/** A guild id nobody configured (and the bot is not in): the refresh reads its setup and returns. */
const unconfiguredGuildId = (i: number) => snowflake(7n, i);
const ENABLED_TYPES = new Set(PERSONALITY_CATALOG.slice(0, ENABLED_QUESTIONS).map((q) => q.questionType));
const ENABLED_OPTIONS = PERSONALITY_CATALOG.slice(0, ENABLED_QUESTIONS).reduce(
  (n, question) => n + question.options.length,
  0,
);
if (ENABLED_OPTIONS > ROLES - 2)
  throw new Error('the enabled questions have more options than generated roles');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** Polls `read` until it reaches `target` or PHASE_TIMEOUT_MS pass; its last value. */
async function polledUntil(read: () => Promise<number>, target: number): Promise<number> {
  const deadline = Date.now() + PHASE_TIMEOUT_MS;
  for (;;) {
    const value = await read();
    if (value >= target || Date.now() >= deadline) return value;
    await sleep(POLL_MS);
  }
}

// ---------------------------------------------------------------- the sandbox child

interface EmitRequest {
  bench: 'emit';
  id: number;
  /** Messages offset..offset+count-1: message k in guild k % guilds, from its member (k / guilds) % members. */
  offset: number;
  count: number;
}

interface EmitDone {
  bench: 'emitted';
  id: number;
  first: number;
  last: number;
}

interface SandboxReady {
  url: string;
  apiBase: string;
  guilds: GeneratedGuild[];
  buildMs: number;
}

async function sandboxChild(guildCount: number, members: number): Promise<void> {
  const started = Date.now();
  const sandboxModule = await import('@spacecadet/discord-sandbox');
  // The sandbox's own module (the same instance startSandbox uses) for postMessage.
  const { buildMessage, postMessage } = await import('@spacecadet/discord-sandbox/testing');
  const { fixture, guilds } = generateWorld(
    { guilds: guildCount, channels: CHANNELS, roles: ROLES, members },
    sandboxModule,
  );
  const sandbox = await sandboxModule.startSandbox({ port: 0, fixture });
  const state = sandbox.world;
  const records = guilds.map((guild) => {
    const record = state.guilds.get(guild.guildId);
    if (!record) throw new Error(`the sandbox has no guild ${guild.guildId}`);
    return record;
  });
  const emitOne = (k: number): number => {
    const g = k % guilds.length;
    const guild = guilds[g] as GeneratedGuild;
    const authors = guild.memberIds;
    postMessage(
      state,
      records[g] as (typeof records)[number],
      buildMessage(state, {
        channel_id: guild.channelId,
        author_id: authors[Math.floor(k / guilds.length) % authors.length] as string,
        content: `status report ${k}`,
      }),
    );
    return epochMs();
  };
  process.on('message', (message: EmitRequest) => {
    if (message?.bench !== 'emit') return;
    void emitInChunks(message.count, (i) => emitOne(message.offset + i)).then(
      (times) => {
        // The sandbox keeps every message; nothing here reads them back.
        state.messages.clear();
        process.send?.({
          bench: 'emitted',
          id: message.id,
          first: times[0] ?? Number.NaN,
          last: times.at(-1) ?? Number.NaN,
        } satisfies EmitDone);
      },
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
  const stop = () => void sandbox.close().finally(() => process.exit(0));
  process.once('SIGTERM', stop).once('disconnect', stop);
  process.send?.({
    url: sandbox.url,
    apiBase: sandbox.apiBase,
    guilds,
    buildMs: Date.now() - started,
  } satisfies SandboxReady);
}

interface SandboxHandle extends SandboxReady {
  emit(offset: number, count: number): Promise<EmitDone>;
  /** REST calls answered so far (the request log's sequence number). */
  requestSeq(): Promise<number>;
  /** The calls after `seq` the log still holds, and whether it lost some. */
  requestsSince(seq: number): Promise<{ requests: RestRequestRecord[]; complete: boolean }>;
  stop(): Promise<void>;
}

async function startSandboxChild(guilds: number): Promise<SandboxHandle> {
  const { child, ready, died, stop } = await startBenchChild<SandboxReady>(
    join(import.meta.dirname, 'scale.ts'),
    SANDBOX_FLAG,
    pathAndHome(),
    [String(guilds), String(MEMBERS)],
  );
  const waiting = new Map<number, (done: EmitDone) => void>();
  child.on('message', (message: EmitDone) => {
    if (message?.bench === 'emitted') waiting.get(message.id)?.(message);
  });
  let nextId = 0;
  const log = async () =>
    (await (await fetch(`${ready.url}/_sandbox/requests`)).json()) as RestRequestRecord[];
  return {
    ...ready,
    emit(offset, count) {
      const id = nextId++;
      const done = new Promise<EmitDone>((resolve) => waiting.set(id, resolve));
      child.send({ bench: 'emit', id, offset, count } satisfies EmitRequest);
      return Promise.race([done, died]).finally(() => waiting.delete(id));
    },
    async requestSeq() {
      return (await log()).at(-1)?.seq ?? 0;
    },
    async requestsSince(seq) {
      const requests = await log();
      return {
        requests: requests.filter((request) => request.seq > seq),
        complete: (requests[0]?.seq ?? seq + 1) <= seq + 1,
      };
    },
    stop,
  };
}

// ---------------------------------------------------------------- one size

interface RawRedis {
  scan(cursor: string, ...args: string[]): Promise<[string, string[]]>;
  pipeline(): { call(...args: string[]): unknown; exec(): Promise<Array<[Error | null, unknown]>> };
  disconnect(): void;
}

/** Keys under `prefix:` and the bytes MEMORY USAGE gives them (ioredis as the worker loads it). */
async function redisBytes(url: string, prefix: string): Promise<{ keys: number; bytes: number }> {
  const require = createRequire(join(repoRoot, 'apps', 'worker', 'package.json'));
  const { Redis } = require('ioredis') as { Redis: new (url: string) => RawRedis };
  const redis = new Redis(url);
  try {
    let cursor = '0';
    let keys = 0;
    let bytes = 0;
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', '1000');
      cursor = next;
      const pipeline = redis.pipeline();
      for (const key of batch) pipeline.call('MEMORY', 'USAGE', key, 'SAMPLES', '0');
      for (const [, usage] of await pipeline.exec()) bytes += Number(usage ?? 0);
      keys += batch.length;
    } while (cursor !== '0');
    return { keys, bytes };
  } finally {
    redis.disconnect();
  }
}

interface SizeResult {
  guilds: number;
  setupMs: number;
  baselineReadyMs: number;
  baselineHeap: number;
  workerReadyMs: number;
  worker: Measured;
  restBeforeReady: number;
  restAfterReady: number;
  /** From ready until the queue drained and the sandbox was quiet. */
  settleMs: number;
  restRoutes: string;
  /** Under the run's Redis prefix once settled: the queue (a scheduler per configured guild, retained jobs), leases, caches. */
  redis: { keys: number; bytes: number };
  baselineXp: number;
  workerXp: number;
  /** member_xp rows written per second during the worker's XP phases. */
  xpRows: number;
  noop: number;
  refresh: number;
  refreshReads: number;
  /** Postgres rows the workers' scheduler checks read: their full syncs at start, summed. */
  schedulerFullRows: number;
  /** The most one process's minute check read (NaN: none ran during the size's run). */
  schedulerMinuteRows: number;
  problems: string[];
}

/** `GET /guilds/:id/roles` for any id: the shape of a route, for counting. */
const route = (request: RestRequestRecord) =>
  `${request.method} ${request.path.replace(/\d{15,}/g, ':id').replace(/\?.*$/, '')}`;

function describeRoutes(requests: readonly RestRequestRecord[], complete: boolean): string {
  const kinds = new Map<string, number>();
  for (const request of requests) kinds.set(route(request), (kinds.get(route(request)) ?? 0) + 1);
  const top = [...kinds]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([key, n]) => `${n} x ${key}`)
    .join(', ');
  return `${top || 'none'}${complete ? '' : ' (the last 2,000 only)'}`;
}

/** Postgres as each guild's admins would have left it: leveling on, personality roles set up. */
async function seedDatabase(database: TestDatabase, guilds: readonly GeneratedGuild[]): Promise<void> {
  const { db } = database;
  for (let i = 0; i < guilds.length; i += 1_000) {
    const slice = guilds.slice(i, i + 1_000);
    await db.insert(levelingSettings).values(
      slice.map((guild) => ({
        guildId: guild.guildId,
        enabled: true,
        xpPerMessage: XP_PER_MESSAGE,
        xpMultiplier: 1,
        messageCooldownSec: 0,
      })),
    );
    await db.insert(personalityConfigs).values(
      slice.map((guild) => ({
        guildId: guild.guildId,
        assignChannelId: guild.channelId,
        configured: true,
        messagesPosted: false,
      })),
    );
  }
  // The first guild gets the catalog as Initialize seeds it; the others copy its rows in two
  // statements (seeding each guild on its own takes minutes at 10,000 guilds).
  const [seed, ...rest] = guilds;
  if (!seed) return;
  await db.transaction((tx) => seedPersonalityCatalog(tx, seed.guildId, ENABLED_TYPES));
  const admin = createDb(database.url, { max: 1 });
  try {
    const others = rest.map((guild) => guild.guildId);
    await admin.pool.query(
      `INSERT INTO personality_questions (guild_id, question_type, title, description, is_multi_select, is_enabled, position)
       SELECT g.id, q.question_type, q.title, q.description, q.is_multi_select, q.is_enabled, q.position
         FROM personality_questions AS q CROSS JOIN unnest($1::text[]) AS g(id)
        WHERE q.guild_id = $2`,
      [others, seed.guildId],
    );
    await admin.pool.query(
      `INSERT INTO personality_options (question_id, guild_id, label, emoji, position)
       SELECT nq.id, nq.guild_id, o.label, o.emoji, o.position
         FROM personality_options AS o
         JOIN personality_questions AS sq ON sq.id = o.question_id AND sq.guild_id = $1
         JOIN personality_questions AS nq ON nq.question_type = sq.question_type AND nq.guild_id <> $1`,
      [seed.guildId],
    );
    // The enabled options' roles are the guild's generated roles, in order (generateWorld's ids).
    const updated = await admin.pool.query(
      `UPDATE personality_options AS o
          SET role_id = ($1::bigint + ((o.guild_id::bigint - $2::bigint) >> 22) * $3 + ranked.n)::text
         FROM (SELECT o2.id, row_number() OVER (PARTITION BY o2.guild_id ORDER BY q.position, o2.position) - 1 AS n
                 FROM personality_options AS o2 JOIN personality_questions AS q ON q.id = o2.question_id
                WHERE q.is_enabled) AS ranked
        WHERE ranked.id = o.id`,
      [snowflake(5n, 0), generatedGuildId(0), ROLES],
    );
    await admin.pool.query('ANALYZE');
    if (updated.rowCount !== guilds.length * ENABLED_OPTIONS)
      throw new Error(`gave ${updated.rowCount} options a role, expected ${guilds.length * ENABLED_OPTIONS}`);
  } finally {
    await admin.close();
  }
}

async function runSize(size: number): Promise<SizeResult> {
  const problems: string[] = [];
  let sandbox: SandboxHandle | null = null;
  let database: TestDatabase | null = null;
  let redis: TestRedis | null = null;
  let producer: ReturnType<typeof producerQueue> | null = null;
  let poller: ReturnType<typeof createDb> | null = null;
  const children: MeasuredChild[] = [];
  const close = closeOnStop(async () => {
    await Promise.allSettled(children.map((child) => child.stop()));
    await producer?.close();
    await poller?.close().catch(() => {});
    await Promise.allSettled([sandbox?.stop(), redis?.close()]);
    await database?.close().catch(() => {});
  });
  try {
    let since = Date.now();
    const sandboxStarting = startSandboxChild(size);
    [database, redis] = await Promise.all([createTestDatabase('bench_scale'), testRedis()]);
    sandbox = await sandboxStarting;
    const { guilds } = sandbox;
    await seedDatabase(database, guilds);
    // A restart, not a first start: each configured guild's 5-minute scheduler exists already
    // (made when its admin set it up), next due after this run. Fresh, the worker would make them
    // all at start with a first run at once: every configured guild refreshed at the same time.
    producer = producerQueue(redis.url, redis.prefix, SHARDS);
    const queue = producer.queue;
    const nextRun = Date.now() + NEXT_SCHEDULED_RUN_MS;
    await runBounded(
      guilds.length,
      16,
      (g) => {
        const guildId = (guilds[g] as GeneratedGuild).guildId;
        return queue.upsertJobScheduler(
          jobSchedulerIdFor(REFRESH_JOB, guildId),
          { every: PERSONALITY_REFRESH_INTERVAL_MS, startDate: nextRun },
          { name: REFRESH_JOB, data: { guild_id: guildId, requested_by: null } satisfies GuildJobPayload },
        );
      },
      PHASE_TIMEOUT_MS,
    );
    const setupMs = Date.now() - since;
    console.log(
      `  ${size} guilds: sandbox built and serving in ${seconds(sandbox.buildMs)}; database seeded; ${seconds(setupMs)} in all`,
    );
    const expected = Array.from(
      { length: SHARDS },
      (_, shard) => guilds.filter((guild) => shardOfGuild(guild.guildId, SHARDS) === shard).length,
    );
    const discordEnv = {
      ...pathAndHome(),
      // Not NODE_ENV=production: with it the worker refuses the sandbox's published bot token
      // (contract's production-env.ts); it changes nothing else in the worker.
      DISCORD_API_BASE: sandbox.apiBase,
      DISCORD_BOT_TOKEN: (await import('@spacecadet/discord-sandbox')).SANDBOX_BOT_TOKEN,
    };
    const intents = WORKER_INTENTS.reduce((bits, bit) => bits | bit, 0);

    // Bare discord.js first, on the same shards, with nothing else connected.
    since = Date.now();
    const baselines = Array.from({ length: SHARDS }, (_, shard) =>
      MeasuredChild.start(join(import.meta.dirname, 'baseline-client.ts'), [], repoRoot, {
        ...discordEnv,
        BENCH_INTENTS: String(intents),
        BENCH_SHARD_IDS: String(shard),
        BENCH_SHARD_COUNT: String(SHARDS),
      }),
    );
    children.push(...baselines);
    const held = await Promise.all(baselines.map((child) => child.next('ready', READY_TIMEOUT_MS)));
    const baselineReadyMs = Date.now() - since;
    if (sum(held.map((m) => m.guilds ?? 0)) !== size)
      problems.push(`baseline holds ${held.map((m) => m.guilds).join(' + ')} guilds, expected ${size}`);
    const baselineMemory = await Promise.all(baselines.map((child) => child.measure(3, 300)));
    let offset = 0;
    const baselineRates: number[] = [];
    for (let round = 0; round < XP_ROUNDS; round += 1) {
      const count = async () =>
        sum(
          (await Promise.all(baselines.map((child) => child.ask({ bench: 'count' }, 'count')))).map(
            (m) => m.count ?? 0,
          ),
        );
      const before = await count();
      const emitted = await sandbox.emit(offset, BURST);
      offset += BURST;
      const counted = await polledUntil(async () => (await count()) - before, BURST);
      if (counted < BURST) problems.push(`baseline counted ${counted}/${BURST} messages`);
      baselineRates.push(counted / ((epochMs() - emitted.first) / 1000));
    }
    await Promise.all(baselines.map((child) => child.stop()));
    children.length = 0;
    console.log(
      `  ${size} guilds: bare discord.js ready in ${seconds(baselineReadyMs)}, ${baselineRates.map((r) => r.toFixed(0)).join(' ')} msg/s`,
    );

    // The workers.
    const seqBefore = await sandbox.requestSeq();
    since = Date.now();
    const synced = Array.from({ length: SHARDS }, () => 0);
    /** Guilds whose messages a worker left unpriced (its leveling setup read failed or timed out). */
    let unpricedGuilds = 0;
    let readyAt = 0;
    let allReady: () => void = () => {};
    const ready = new Promise<void>((resolve) => (allReady = resolve));
    const workerEnv = { ...testStackEnv(database, redis, sandbox), ...discordEnv, LOG_LEVEL: 'info' };
    const schedulerChecks: Array<{ rowsRead: number; full: boolean }> = [];
    for (let shard = 0; shard < SHARDS; shard += 1) {
      const worker = MeasuredChild.worker(
        { ...workerEnv, SHARD_COUNT: String(SHARDS), SHARD_IDS: String(shard) },
        (line) => {
          if (line.includes('leveling setup unreadable')) unpricedGuilds += 1;
          if (line.includes('job schedulers checked')) {
            try {
              const check = JSON.parse(line) as { rowsRead: number; fullShards: number[] };
              schedulerChecks.push({ rowsRead: check.rowsRead, full: check.fullShards.length > 0 });
            } catch {
              // Not a log line of ours.
            }
            return;
          }
          // The worker's own log: bot_guilds is synced once the shard's GUILD_CREATEs are in.
          if (!line.includes('bot_guilds synced for shard')) return;
          try {
            const entry = JSON.parse(line) as { shardId: number; guilds: number };
            synced[entry.shardId] = entry.guilds;
          } catch {
            return;
          }
          if (readyAt === 0 && synced.every((n, s) => n === expected[s])) {
            readyAt = Date.now();
            allReady();
          }
        },
      );
      children.push(worker);
    }
    const exited = Promise.race(children.map((child) => child.exited)).then(() => {
      throw new Error(`a worker exited before it was ready:\n${children.map((c) => c.stderr).join('\n')}`);
    });
    exited.catch(() => {});
    await Promise.race([
      ready,
      exited,
      sleep(READY_TIMEOUT_MS).then(() => {
        throw new Error(
          `workers not ready within ${READY_TIMEOUT_MS} ms: shards hold ${synced.join(', ')} guilds, expected ${expected.join(', ')}`,
        );
      }),
    ]);
    const workerReadyMs = readyAt - since;
    const seqReady = await sandbox.requestSeq();
    // What the workers do next on their own: until the queue has drained and the sandbox has
    // heard nothing for QUIET_MS.
    await drained(queue, READY_TIMEOUT_MS);
    let quietSeq = await sandbox.requestSeq();
    let quietSince = Date.now();
    await waitFor(
      'the sandbox to go quiet',
      async () => {
        const seq = await sandbox?.requestSeq();
        if (seq !== quietSeq) {
          quietSeq = seq ?? 0;
          quietSince = Date.now();
        }
        return Date.now() - quietSince >= QUIET_MS ? true : undefined;
      },
      READY_TIMEOUT_MS,
    );
    const settleMs = quietSince - readyAt;
    const startup = await sandbox.requestsSince(seqBefore);
    const restRoutes = describeRoutes(startup.requests, startup.complete);
    console.log(
      `  ${size} guilds: workers ready in ${seconds(workerReadyMs)}; REST ${seqReady - seqBefore} before ready, ${quietSeq - seqReady} after (settled ${seconds(settleMs)} after ready): ${restRoutes}`,
    );
    const redisUse = await redisBytes(redis.url, redis.prefix);
    console.log(
      `  ${size} guilds: Redis under the prefix after start-up: ${redisUse.keys} keys, ${mib(redisUse.bytes)} by MEMORY USAGE`,
    );
    const memory = await Promise.all(children.map((child) => child.measure(3, 300)));
    const worker = { rss: sum(memory.map((m) => m.rss)), heap: sum(memory.map((m) => m.heap)) };

    // Personality refresh against the no-op, on the queue both workers drain.
    const step = Math.max(1, Math.floor(size / JOBS));
    const sampled = guilds.filter((_, g) => g % step === 0).slice(0, JOBS);
    const runJobs = async (kind: 'no-op' | 'refresh', tag: string) => {
      const jobs = sampled.map((guild, i) => ({
        name: REFRESH_JOB,
        data: {
          guild_id: kind === 'refresh' ? guild.guildId : unconfiguredGuildId(i),
          requested_by: null,
        } satisfies GuildJobPayload,
        opts: { ...GUILD_JOB_OPTIONS, jobId: `bench.${tag}.${i}` },
      }));
      const seq = await sandbox?.requestSeq();
      await queue.pause();
      await queue.addBulk(jobs);
      const start = Date.now();
      await queue.resume();
      await drained(queue, PHASE_TIMEOUT_MS);
      const done = await Promise.all(jobs.map((job) => queue.getJob(job.opts.jobId)));
      const finished = done.filter((job) => job?.finishedOn && !job.failedReason);
      if (finished.length < jobs.length)
        problems.push(`${jobs.length - finished.length} ${kind} jobs failed`);
      const end = Math.max(...finished.map((job) => job?.finishedOn ?? 0));
      const reads = ((await sandbox?.requestSeq()) ?? 0) - (seq ?? 0);
      return { kind, perSecond: finished.length / ((end - start) / 1000), reads: reads / jobs.length };
    };
    const refreshPhases: Array<Awaited<ReturnType<typeof runJobs>>> = [];
    for (let round = 0; round < REFRESH_ROUNDS; round += 1) {
      const order = round % 2 === 0 ? (['no-op', 'refresh'] as const) : (['refresh', 'no-op'] as const);
      for (const kind of order) refreshPhases.push(await runJobs(kind, `r${round}-${kind}`));
    }
    const noopPhases = refreshPhases.filter((phase) => phase.kind === 'no-op');
    const refreshOnly = refreshPhases.filter((phase) => phase.kind === 'refresh');
    console.log(
      `  ${size} guilds: ${sampled.length} jobs a phase; no-op ${noopPhases.map((p) => p.perSecond.toFixed(0)).join(' ')} jobs/s, refresh ${refreshOnly.map((p) => `${p.perSecond.toFixed(0)} (${p.reads.toFixed(2)} REST/job)`).join(' ')} jobs/s`,
    );

    // XP through both workers to Postgres.
    poller = createDb(database.url, { max: 1, applicationName: 'bench-scale-poll' });
    const pool = poller.pool;
    const stored = async () =>
      Number(
        (await pool.query<{ n: string }>('SELECT coalesce(sum(message_count), 0) AS n FROM member_xp'))
          .rows[0]?.n ?? 0,
      );
    const workerRates: number[] = [];
    const rowRates: number[] = [];
    for (let round = 0; round < XP_ROUNDS; round += 1) {
      const before = await stored();
      const emitted = await sandbox.emit(offset, BURST);
      offset += BURST;
      const done = await polledUntil(async () => (await stored()) - before, BURST);
      const end = epochMs();
      if (done < BURST) problems.push(`workers stored ${done}/${BURST} messages' XP`);
      const phaseSeconds = (end - emitted.first) / 1000;
      workerRates.push(done / phaseSeconds);
      const rows = Number(
        (
          await pool.query<{ n: string }>(
            'SELECT count(*) AS n FROM member_xp WHERE last_message_at >= to_timestamp($1)',
            [emitted.first / 1000 - 1],
          )
        ).rows[0]?.n ?? 0,
      );
      rowRates.push(rows / phaseSeconds);
    }
    console.log(
      `  ${size} guilds: workers ${workerRates.map((r) => r.toFixed(0)).join(' ')} msg/s to Postgres, ${rowRates.map((r) => r.toFixed(0)).join(' ')} member_xp rows/s; ${unpricedGuilds} guilds' messages left unpriced (setup read failed)`,
    );

    const minute = minuteRows(schedulerChecks);
    console.log(
      `  ${size} guilds: scheduler checks read ${sum(schedulerChecks.filter((c) => c.full).map((c) => c.rowsRead))} rows in full syncs at start, ${Number.isNaN(minute) ? 'no minute check ran' : `${minute} rows per minute check per process`}; REST per refresh ${median(refreshOnly.map((p) => p.reads)).toFixed(2)}`,
    );
    return {
      guilds: size,
      setupMs,
      baselineReadyMs,
      baselineHeap: sum(baselineMemory.map((m) => m.heap)),
      workerReadyMs,
      worker,
      restBeforeReady: seqReady - seqBefore,
      restAfterReady: quietSeq - seqReady,
      settleMs,
      restRoutes,
      redis: redisUse,
      baselineXp: median(baselineRates),
      workerXp: median(workerRates),
      xpRows: median(rowRates),
      noop: median(noopPhases.map((p) => p.perSecond)),
      refresh: median(refreshOnly.map((p) => p.perSecond)),
      refreshReads: median(refreshOnly.map((p) => p.reads)),
      schedulerFullRows: sum(schedulerChecks.filter((c) => c.full).map((c) => c.rowsRead)),
      schedulerMinuteRows: minuteRows(schedulerChecks),
      problems,
    };
  } finally {
    await close();
  }
}

/** The most a minute (not full) scheduler check read; NaN when none ran. */
function minuteRows(checks: ReadonlyArray<{ rowsRead: number; full: boolean }>): number {
  const minute = checks.filter((check) => !check.full).map((check) => check.rowsRead);
  return minute.length === 0 ? Number.NaN : Math.max(...minute);
}

// ---------------------------------------------------------------- the report

async function main(): Promise<void> {
  useLocalServices();
  const started = Date.now();
  console.log(
    `scale: ${SIZES.join(', ')} guilds (each ${CHANNELS} channels, ${ROLES} roles, ${MEMBERS} members; leveling on, personality roles configured), ${SHARDS} worker processes sharing ${SHARDS} shards; XP ${XP_ROUNDS} x ${BURST} messages, refresh ${REFRESH_ROUNDS} rounds of up to ${JOBS} jobs`,
  );
  const results: SizeResult[] = [];
  for (const size of SIZES) {
    const since = Date.now();
    results.push(await runSize(size));
    console.log(`  ${size} guilds measured in ${seconds(Date.now() - since)}`);
  }
  const perSecond = (n: number) => `${n.toFixed(0)}/s`;
  const rows: Array<[string, (r: SizeResult) => number, (n: number, r: SizeResult) => string, string]> = [
    ['workers ready (every guild available)', (r) => r.workerReadyMs, (n) => seconds(n), 'time'],
    ['  bare discord.js ready', (r) => r.baselineReadyMs, (n) => seconds(n), 'time'],
    ['REST before ready, per guild', (r) => r.restBeforeReady / r.guilds, (n) => n.toFixed(3), 'flat'],
    [
      'REST after ready until quiet, per guild',
      (r) => r.restAfterReady / r.guilds,
      (n) => n.toFixed(3),
      'flat',
    ],
    ['  settled after ready', (r) => r.settleMs, (n) => seconds(n), 'time'],
    ['worker heap, both processes', (r) => r.worker.heap, (n) => mib(n), 'total'],
    ['worker heap / guilds', (r) => r.worker.heap / r.guilds, (n) => kib(n), 'flat'],
    ['worker RSS / guilds', (r) => r.worker.rss / r.guilds, (n) => kib(n), 'flat'],
    ['  bare discord.js heap / guilds', (r) => r.baselineHeap / r.guilds, (n) => kib(n), 'flat'],
    [
      'Redis bytes per guild after start-up',
      (r) => r.redis.bytes / r.guilds,
      (n) => `${n.toFixed(0)} B`,
      'flat',
    ],
    ['XP: workers, message -> Postgres', (r) => r.workerXp, perSecond, 'rate'],
    ['  bare discord.js, counts', (r) => r.baselineXp, perSecond, 'rate'],
    ['  workers / bare discord.js', (r) => r.workerXp / r.baselineXp, (n) => `${n.toFixed(2)}x`, 'rate'],
    ['Postgres member_xp rows written', (r) => r.xpRows, perSecond, 'rate'],
    ['personality refresh, configured guilds', (r) => r.refresh, perSecond, 'rate'],
    ['  no-op (nothing set up)', (r) => r.noop, perSecond, 'rate'],
    ['  refresh / no-op', (r) => r.refresh / r.noop, (n) => `${n.toFixed(2)}x`, 'rate'],
    ['  REST per refresh', (r) => r.refreshReads, (n) => n.toFixed(2), 'flat'],
    ['scheduler check rows, full syncs at start', (r) => r.schedulerFullRows, (n) => n.toFixed(0), 'total'],
    [
      'scheduler check rows read per minute per process',
      (r) => r.schedulerMinuteRows,
      (n) => (Number.isNaN(n) ? 'none ran' : n.toFixed(0)),
      'flat',
    ],
  ];
  const first = results[0] as SizeResult;
  const last = results.at(-1) as SizeResult;
  const growth = last.guilds / first.guilds;
  printTable([
    ['figure', ...results.map((r) => `${r.guilds} guilds`), `${first.guilds}->${last.guilds}`],
    ...rows.map(([label, pick, show]) => [
      label,
      ...results.map((r) => show(pick(r), r)),
      ratio(pick(last), pick(first)),
    ]),
  ]);
  // Fixed costs (BullMQ, pg, pino, the code itself) cancel out in the growth between sizes.
  const span = last.guilds - first.guilds;
  const heapGrowth = (last.worker.heap - first.worker.heap) / span;
  const baselineGrowth = (last.baselineHeap - first.baselineHeap) / span;
  console.log(
    `  heap growth per guild (${first.guilds}->${last.guilds}): workers ${kib(heapGrowth)}, bare discord.js ${kib(baselineGrowth)} (${ratio(heapGrowth, baselineGrowth)}); RSS ${kib((last.worker.rss - first.worker.rss) / span)}`,
  );
  console.log(
    `  guilds grew ${growth.toFixed(1)}x. Linear or better: a time or total grows <= ${growth.toFixed(1)}x, a per-guild figure or a rate stays near 1.00x; REST per guild should be 0 before ready.`,
  );
  for (const r of results) console.log(`  ${r.guilds} guilds, REST from start until quiet: ${r.restRoutes}`);
  const problems = results.flatMap((r) => r.problems.map((p) => `${r.guilds} guilds: ${p}`));
  for (const problem of problems) console.log(`  PROBLEM ${problem}`);
  console.log(`  ${seconds(Date.now() - started)} in all`);
  const readyGrowth = last.workerReadyMs / first.workerReadyMs;
  reportHeadline(
    'scale',
    `${first.guilds}->${last.guilds} guilds: ready ${seconds(first.workerReadyMs)}->${seconds(last.workerReadyMs)} (${readyGrowth.toFixed(1)}x), heap growth ${kib(heapGrowth)}/guild (${ratio(heapGrowth, baselineGrowth)} of bare discord.js), REST before ready/guild ${(first.restBeforeReady / first.guilds).toFixed(2)}->${(last.restBeforeReady / last.guilds).toFixed(2)}, XP ${first.workerXp.toFixed(0)}->${last.workerXp.toFixed(0)} msg/s (${ratio(last.workerXp, last.baselineXp)} of bare discord.js), refresh ${first.refresh.toFixed(0)}->${last.refresh.toFixed(0)} jobs/s (${ratio(last.refresh, last.noop)} of no-op)${problems.length ? `; ${problems.length} problems` : ''}`,
  );
  if (problems.length > 0) process.exitCode = 1;
}

const flag = process.argv.indexOf(SANDBOX_FLAG);
if (flag >= 0) await sandboxChild(Number(process.argv[flag + 1]), Number(process.argv[flag + 2]));
else await main();
