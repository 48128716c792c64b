import {
  type GuildJobPayload,
  JOB_RETENTION,
  type JobName,
  jobSchedulerIdFor,
  schedulesSyncedKey,
} from '@spacecadet/contract';
import type { ShardFilter } from '@spacecadet/db/queries/shard-filter';
import type { Redis } from 'ioredis';
import type { WorkerDeps } from '../deps.ts';
import { errorFields, type Logger } from '../logger.ts';

/**
 * A job that runs on a schedule for every guild that needs it: one BullMQ job scheduler per
 * guild, with the id `jobSchedulerIdFor(job, guildId)`, so it survives worker restarts and
 * every worker process shares it (BullMQ adds each run once; the guild lock keeps two runs of a
 * feature from overlapping). It lives in the queue of the guild's shard. Each process keeps the
 * schedulers of the shards it holds: when it takes them, after a Redis reconnect, when their
 * shard's sync marker is gone (a Redis that lost them), and every SCHEDULE_FULL_SYNC_MS it
 * makes them match `guilds()` of its shards (`checkSchedules`); a feature adds or removes one as
 * its configuration changes with `ensureGuildSchedule` / `removeGuildSchedule`; when the bot
 * leaves a guild the host removes all of the guild's.
 */
export interface FeatureSchedule {
  /** The job each run adds; one of this feature's own `jobs`. */
  job: JobName;
  /** Every `everyMs`, or a cron `pattern` read in UTC. */
  repeat: { everyMs: number } | { pattern: string };
  /** The guilds of these shards that should have this schedule now (read from Postgres). */
  guilds(deps: WorkerDeps, shards: ShardFilter): Promise<readonly string[]>;
  /**
   * Which guilds need it changes with time (a temporary role's end coming near), not only with a
   * change the feature hears of: re-read at every check (SCHEDULE_CHECK_MS), not only at a full sync.
   */
  timeBound?: boolean;
}

/** Scheduled runs retry like the API's jobs: a Discord hiccup should not skip a whole period. */
const SCHEDULED_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: JOB_RETENTION.completed,
  removeOnFail: JOB_RETENTION.failed,
} as const;

function repeatOptions(schedule: FeatureSchedule): { every?: number; pattern?: string; tz?: string } {
  return 'everyMs' in schedule.repeat
    ? { every: schedule.repeat.everyMs }
    : { pattern: schedule.repeat.pattern, tz: 'UTC' };
}

/** True when a stored scheduler already repeats as the schedule declares. */
function repeatsAsDeclared(
  current: { every?: number | null; pattern?: string | null } | undefined,
  schedule: FeatureSchedule,
): boolean {
  const repeat = repeatOptions(schedule);
  return (
    current !== undefined &&
    (current.every ?? undefined) === repeat.every &&
    (current.pattern ?? undefined) === repeat.pattern
  );
}

/**
 * Makes sure the guild has its scheduler for this schedule: one Redis read when it already
 * repeats as declared (then it is left alone: upserting it again could add a run), else
 * created or updated. Creating it twice keeps one.
 */
export async function ensureGuildSchedule(
  deps: WorkerDeps,
  schedule: FeatureSchedule,
  guildId: string,
): Promise<void> {
  const id = jobSchedulerIdFor(schedule.job, guildId);
  if (repeatsAsDeclared(await deps.queue.forGuild(guildId).getJobScheduler(id), schedule)) return;
  await writeGuildSchedule(deps, schedule, guildId);
}

async function writeGuildSchedule(
  deps: WorkerDeps,
  schedule: FeatureSchedule,
  guildId: string,
): Promise<void> {
  const data: GuildJobPayload = { guild_id: guildId, requested_by: null };
  const queue = deps.queue.forGuild(guildId);
  await queue.upsertJobScheduler(jobSchedulerIdFor(schedule.job, guildId), repeatOptions(schedule), {
    name: schedule.job,
    data,
    opts: SCHEDULED_JOB_OPTIONS,
  });
}

/** Removes the guild's scheduler for this schedule, if there is one. */
export async function removeGuildSchedule(
  deps: WorkerDeps,
  schedule: FeatureSchedule,
  guildId: string,
): Promise<void> {
  await deps.queue.forGuild(guildId).removeJobScheduler(jobSchedulerIdFor(schedule.job, guildId));
}

/**
 * How many scheduler writes go to Redis at once: ioredis sends concurrent commands of one
 * connection back to back, so a start that creates thousands of schedulers takes a few dozen
 * round trips, not one per guild.
 */
const SCHEDULER_WRITES_AT_ONCE = 100;

async function inBatches<T>(items: readonly T[], write: (item: T) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < items.length; start += SCHEDULER_WRITES_AT_ONCE) {
    await Promise.all(items.slice(start, start + SCHEDULER_WRITES_AT_ONCE).map(write));
  }
}

/** What a sync read and wrote: `rowsRead` the guilds read from Postgres (every schedule's). */
export interface ScheduleSync {
  created: number;
  removed: number;
  rowsRead: number;
}

/**
 * Makes the stored schedulers of these schedules in these shards' queues match what each one's
 * `guilds()` of those shards says now: missing ones are created, ones of guilds that no longer
 * need them are removed. One read of every scheduler stored in those queues, then the writes in
 * batches (SCHEDULER_WRITES_AT_ONCE).
 */
export async function syncSchedules(
  deps: Pick<WorkerDeps, 'queue'> & Partial<WorkerDeps>,
  schedules: readonly FeatureSchedule[],
  shards: readonly number[],
): Promise<ScheduleSync> {
  const result = { created: 0, removed: 0, rowsRead: 0 };
  if (schedules.length === 0 || shards.length === 0) return result;
  const { queue } = deps;
  const stored = new Map(
    (await Promise.all(shards.map((shard) => queue.forShard(shard).getJobSchedulers(0, -1))))
      .flat()
      .map((scheduler) => [scheduler.key, scheduler] as const),
  );
  const filter = { ids: shards, count: queue.shardCount };
  for (const schedule of schedules) {
    const wanted = new Set(await schedule.guilds(deps as WorkerDeps, filter));
    result.rowsRead += wanted.size;
    const writes: string[] = [];
    for (const guildId of wanted) {
      const current = stored.get(jobSchedulerIdFor(schedule.job, guildId));
      if (repeatsAsDeclared(current, schedule)) continue;
      if (!current) result.created += 1;
      writes.push(guildId);
    }
    await inBatches(writes, (guildId) => writeGuildSchedule(deps as WorkerDeps, schedule, guildId));
    const prefix = jobSchedulerIdFor(schedule.job, '');
    const stale = [...stored.keys()].filter(
      (key) => key.startsWith(prefix) && !wanted.has(key.slice(prefix.length)),
    );
    await inBatches(stale, async (key) => {
      if (await queue.forGuild(key.slice(prefix.length)).removeJobScheduler(key)) result.removed += 1;
    });
  }
  return result;
}

/** How often every held shard's schedulers are matched to Postgres in full, whatever else happened. */
export const SCHEDULE_FULL_SYNC_MS = 15 * 60_000;

/**
 * One check of this process's shards' schedulers (`shards`, those it holds), cheap when nothing
 * changed: a shard not synced by this process yet, whose sync marker (`schedulesSyncedKey`, set
 * after its full sync) is gone (a Redis that lost its keys), or whose last full sync is older
 * than SCHEDULE_FULL_SYNC_MS (or `full`: after a Redis reconnect) is synced in full; for the
 * others only the time-bound schedules are matched (their guilds read from Postgres; the
 * shards' schedulers from Redis). Feature changes add and remove schedulers as they happen, so
 * the minute check does not read every configured guild from Postgres.
 */
export async function checkSchedules(
  deps: WorkerDeps,
  schedules: readonly FeatureSchedule[],
  shards: readonly number[],
  state: { syncedAt: Map<number, number> },
  full = false,
): Promise<ScheduleSync & { fullShards: number[] }> {
  const { queue, redis } = deps;
  const now = Date.now();
  const fullShards: number[] = [];
  for (const shard of shards) {
    const last = state.syncedAt.get(shard);
    const stale = full || last === undefined || now - last >= SCHEDULE_FULL_SYNC_MS;
    if (stale || (await redis.exists(schedulesSyncedKey(shard, queue.shardCount))) === 0)
      fullShards.push(shard);
  }
  const result = await syncSchedules(deps, schedules, fullShards);
  for (const shard of fullShards) {
    await redis.set(schedulesSyncedKey(shard, queue.shardCount), String(now));
    state.syncedAt.set(shard, now);
  }
  const others = shards.filter((shard) => !fullShards.includes(shard));
  const timeBound = await syncSchedules(
    deps,
    schedules.filter((schedule) => schedule.timeBound),
    others,
  );
  return {
    created: result.created + timeBound.created,
    removed: result.removed + timeBound.removed,
    rowsRead: result.rowsRead + timeBound.rowsRead,
    fullShards,
  };
}

/** How often a running worker checks that every wanted scheduler exists (a lost Redis loses them). */
export const SCHEDULE_CHECK_MS = 60_000;

export interface ScheduleKeeper {
  stop(): void;
}

/**
 * Keeps the schedulers there while the worker runs. They live only in Redis: a Redis restarted
 * without persistence (or a failover to an empty replica) loses them, and nothing would add
 * them back until the next worker start. So `sync` runs again when one of `connections` is
 * ready after having been lost (the usual sign of such a restart), and every `checkEveryMs`
 * anyway (a loss the connection did not notice). Runs never overlap: a trigger during a run
 * makes one more run after it. A failed run is logged; the next trigger tries again.
 */
export function keepSchedules(options: {
  /** `full`: every shard in full (a Redis reconnect); else the cheap check. */
  sync: (full: boolean) => Promise<void>;
  connections: readonly Redis[];
  checkEveryMs: number;
  logger: Logger;
}): ScheduleKeeper {
  const { sync, logger } = options;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let againFull = false;
  const run = (reason: string, full = false): void => {
    if (stopped) return;
    if (running) {
      again = true;
      againFull ||= full;
      return;
    }
    running = sync(full)
      .catch((error: unknown) =>
        logger.warn({ ...errorFields(error), reason }, 'job schedulers not checked; trying again later'),
      )
      .finally(() => {
        running = undefined;
        if (again) {
          const wasFull = againFull;
          again = false;
          againFull = false;
          run(reason, wasFull);
        }
      });
  };
  const listeners = options.connections.map((connection) => {
    let lost = false;
    const onClose = () => {
      lost = true;
    };
    const onReady = () => {
      if (!lost) return;
      lost = false;
      run('redis reconnected', true);
    };
    connection.on('close', onClose);
    connection.on('ready', onReady);
    return () => {
      connection.off('close', onClose);
      connection.off('ready', onReady);
    };
  });
  const timer = setInterval(() => run('periodic check'), options.checkEveryMs);
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
      for (const detach of listeners) detach();
    },
  };
}
