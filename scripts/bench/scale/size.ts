/**
 * One size of `pnpm bench scale` (see `../scale.ts` for what each phase measures): a sandbox of
 * `size` guilds, bare discord.js on its shards, then the workers' start-up, memory, refresh, XP
 * and scheduler checks.
 */
import { join } from 'node:path';
import { type GuildJobPayload, jobSchedulerIdFor } from '@spacecadet/contract';
import { PERSONALITY_REFRESH_INTERVAL_MS } from '@spacecadet/core';
import { createDb } from '@spacecadet/db';
import { createTestDatabase, type TestDatabase, type TestRedis, testRedis } from '@spacecadet/db/testing';
import type { RestRequestRecord } from '@spacecadet/discord-sandbox';
import { GUILD_JOB_OPTIONS } from '@spacecadet/queue/guild-jobs';
import { testStackEnv } from '@spacecadet/testing';
import { WORKER_INTENTS } from '@spacecadet/worker/testing';
import { pathAndHome } from '../../env.ts';
import {
  closeOnStop,
  drained,
  epochMs,
  type GeneratedGuild,
  kib,
  type Measured,
  MeasuredChild,
  median,
  producerQueue,
  repoRoot,
  runBounded,
  shardOfGuild,
  waitFor,
} from '../lib.ts';
import {
  BURST,
  JOBS,
  mib,
  NEXT_SCHEDULED_RUN_MS,
  PHASE_TIMEOUT_MS,
  polledUntil,
  QUIET_MS,
  READY_TIMEOUT_MS,
  REFRESH_JOB,
  REFRESH_ROUNDS,
  SHARDS,
  seconds,
  sum,
  unconfiguredGuildId,
  XP_ROUNDS,
} from './config.ts';
import { type SandboxHandle, startSandboxChild } from './sandbox.ts';
import { redisBytes, seedDatabase } from './seed.ts';

/** A worker checks its schedulers a minute after it starts, then every minute. */
const MINUTE_CHECK_TIMEOUT_MS = 150_000;

export interface SizeResult {
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
export const route = (request: RestRequestRecord) =>
  `${request.method} ${request.path.replace(/\d{15,}/g, ':id').replace(/\?.*$/, '')}`;

export function describeRoutes(requests: readonly RestRequestRecord[], complete: boolean): string {
  const kinds = new Map<string, number>();
  for (const request of requests) kinds.set(route(request), (kinds.get(route(request)) ?? 0) + 1);
  const top = [...kinds]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([key, n]) => `${n} x ${key}`)
    .join(', ');
  return `${top || 'none'}${complete ? '' : ' (the last 2,000 only)'}`;
}

export async function runSize(size: number): Promise<SizeResult> {
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
      MeasuredChild.start(join(import.meta.dirname, '..', 'baseline-client.ts'), [], repoRoot, {
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
    const schedulerChecks: Array<{ shard: number; rowsRead: number; full: boolean }> = [];
    for (let shard = 0; shard < SHARDS; shard += 1) {
      const worker = MeasuredChild.worker(
        { ...workerEnv, SHARD_COUNT: String(SHARDS), SHARD_IDS: String(shard) },
        (line) => {
          if (line.includes('leveling setup unreadable')) unpricedGuilds += 1;
          if (line.includes('job schedulers checked')) {
            try {
              const check = JSON.parse(line) as { rowsRead: number; fullShards: number[] };
              schedulerChecks.push({ shard, rowsRead: check.rowsRead, full: check.fullShards.length > 0 });
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
    // The limit's timer is cleared once ready: left running, it kept the bench alive for up to
    // READY_TIMEOUT_MS after the last size.
    let readyTimer: NodeJS.Timeout | undefined;
    const tooLate = new Promise<never>((_, reject) => {
      readyTimer = setTimeout(
        () =>
          reject(
            new Error(
              `workers not ready within ${READY_TIMEOUT_MS} ms: shards hold ${synced.join(', ')} guilds, expected ${expected.join(', ')}`,
            ),
          ),
        READY_TIMEOUT_MS,
      );
    });
    await Promise.race([ready, exited, tooLate]).finally(() => clearTimeout(readyTimer));
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

    // Personality refresh against the no-op, on the shard queues the workers drain.
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

    // XP through the workers to Postgres.
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

    // Every process's minute check (SCHEDULE_CHECK_MS after its start, then each minute): the
    // rows it reads are what grows, or not, with the servers.
    const checked = () => new Set(schedulerChecks.filter((c) => !c.full).map((c) => c.shard)).size;
    await waitFor(
      'a minute scheduler check in every worker',
      async () => (checked() === SHARDS ? true : undefined),
      MINUTE_CHECK_TIMEOUT_MS,
    ).catch(() => problems.push(`${checked()} of ${SHARDS} workers ran a minute scheduler check`));
    const minute = minuteRows(schedulerChecks);
    console.log(
      `  ${size} guilds: scheduler checks read ${sum(schedulerChecks.filter((c) => c.full).map((c) => c.rowsRead))} rows in full syncs at start, ${Number.isNaN(minute) ? 'no minute check ran' : `${minute} rows per minute check per process (${schedulerChecks.filter((c) => !c.full).length} minute checks)`}; REST per refresh ${median(refreshOnly.map((p) => p.reads)).toFixed(2)}`,
    );
    const perGuild = (n: number) => (n / size).toFixed(4);
    console.log(
      `  ${size} guilds, per server: start-up REST ${perGuild(seqReady - seqBefore + quietSeq - seqReady)}, Redis ${(redisUse.bytes / size).toFixed(0)} B, worker heap ${kib(worker.heap / size)} (RSS ${kib(worker.rss / size)}); refresh ${median(refreshOnly.map((p) => p.perSecond)).toFixed(0)} jobs/s at ${median(refreshOnly.map((p) => p.reads)).toFixed(2)} REST/refresh; XP ${median(workerRates).toFixed(0)} msg/s; scheduler ${Number.isNaN(minute) ? 'no minute check' : `${minute} rows read/min/process`}`,
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
export function minuteRows(checks: ReadonlyArray<{ rowsRead: number; full: boolean }>): number {
  const minute = checks.filter((check) => !check.full).map((check) => check.rowsRead);
  return minute.length === 0 ? Number.NaN : Math.max(...minute);
}
