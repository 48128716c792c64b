import { randomUUID } from 'node:crypto';
import {
  bullPrefix,
  GuildJobPayload,
  type JobResult,
  LEGACY_JOB_QUEUE,
  legacyQueueDrainLockKey,
} from '@spacecadet/contract';
import { type Job, type JobsOptions, Queue } from 'bullmq';
import { Cluster, type Redis } from 'ioredis';
import type { WorkerDeps } from '../deps.ts';
import { errorFields } from '../logger.ts';

/**
 * The states of a job still to run, moved over. An active one finishes where it is while the
 * older version's process running it holds its lock; once that lock has lapsed (the process
 * died mid-job, and no worker of the old queue is left to notice it stalled) it is moved too.
 */
const MOVED_STATES = ['waiting', 'prioritized', 'delayed', 'active'] as const;
const PAGE = 500;
/** How long one process may drain before another may take over (it died meanwhile). */
const DRAIN_LOCK_MS = 60_000;
const DRAIN_LOCK_POLL_MS = 200;

/**
 * Moves what an older version left in the single queue every process shared
 * (`LEGACY_JOB_QUEUE`) into the shard queues, so an upgrade loses no job: each job still to run
 * is added to its guild's shard queue under the same id and options (a delayed one keeps the
 * time it was due), then removed from the old queue. The old queue's job schedulers are removed:
 * the schedule sync creates them again in the guilds' shard queues. Safe to run by several
 * processes at once and again: one drains at a time (`legacyQueueDrainLockKey`), the others
 * wait for it and find nothing left; a job of that id already in the shard queue stands for it.
 * A job taken meanwhile by a process of the older version (still running it) is left to it and
 * its copy removed.
 */
export async function drainLegacyQueue(
  deps: Pick<WorkerDeps, 'config' | 'logger' | 'queue' | 'redis'>,
  connection: Redis,
): Promise<LegacyDrain> {
  // The older version ran on one Redis only: on a cluster there is no old queue to drain (and its
  // untagged name would spread its keys over several slots, which BullMQ's scripts refuse).
  if ((connection as Redis | Cluster) instanceof Cluster)
    return { moved: 0, schedulers: 0, skipped: 0, running: 0 };
  const token = randomUUID();
  const key = legacyQueueDrainLockKey();
  while ((await deps.redis.set(key, token, 'PX', DRAIN_LOCK_MS, 'NX')) === null) {
    await new Promise((resolve) => setTimeout(resolve, DRAIN_LOCK_POLL_MS));
  }
  try {
    return await drainUnderLock(deps, connection);
  } finally {
    // Only its own lock: one that lapsed and was taken by another process stays.
    await deps.redis.eval(RELEASE_IF_OURS, 1, key, token);
  }
}

/**
 * What a drain did: `running` counts the jobs an older version's process is running now (their
 * lock held), left to it; `skipped` the jobs that name no guild, left in the old queue.
 */
export interface LegacyDrain {
  moved: number;
  schedulers: number;
  skipped: number;
  running: number;
}

/**
 * Drains the old queue at start and, while an older version's process still runs some of its
 * jobs, again every `everyMs` (a job lock's duration): should that process die mid-job, its job
 * moves to the shard queues once its lock lapses. Returns the stop.
 */
export async function keepDrainingLegacyQueue(
  deps: Pick<WorkerDeps, 'config' | 'logger' | 'queue' | 'redis'>,
  connection: Redis,
  everyMs: number,
): Promise<() => void> {
  if ((await drainLegacyQueue(deps, connection)).running === 0) return () => undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const again = () => {
    timer = setTimeout(async () => {
      const drain = await drainLegacyQueue(deps, connection).catch((error: unknown) => {
        deps.logger.warn(errorFields(error), 'the old single job queue not drained; trying again later');
        return undefined;
      });
      if (!stopped && drain?.running !== 0) again();
    }, everyMs);
    timer.unref();
  };
  again();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

const RELEASE_IF_OURS = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;

async function drainUnderLock(
  deps: Pick<WorkerDeps, 'config' | 'logger' | 'queue'>,
  connection: Redis,
): Promise<LegacyDrain> {
  const legacy = new Queue<GuildJobPayload, JobResult, string>(LEGACY_JOB_QUEUE, {
    connection,
    prefix: bullPrefix(deps.config.redisPrefix),
  });
  try {
    let schedulers = 0;
    for (;;) {
      const page = await legacy.getJobSchedulers(0, PAGE - 1);
      let removed = 0;
      for (const scheduler of page) if (await legacy.removeJobScheduler(scheduler.key)) removed += 1;
      schedulers += removed;
      if (removed === 0) break;
    }
    let moved = 0;
    let skipped = 0;
    let running = 0;
    for (const state of MOVED_STATES) {
      // Passes until one moves nothing: an older version's worker taking jobs shifts the pages.
      for (let movedInPass = -1; movedInPass !== 0; ) {
        movedInPass = 0;
        let offset = 0;
        for (;;) {
          const page = (await legacy.getJobs([state], offset, offset + PAGE - 1, true)).filter(
            (job): job is Job<GuildJobPayload, JobResult, string> => job !== undefined,
          );
          if (page.length === 0) break;
          for (const job of page) {
            const outcome = await moveJob(deps, legacy, connection, job, state);
            if (outcome === 'moved') movedInPass += 1;
            else offset += 1;
            if (outcome === 'skipped') skipped += 1;
            if (outcome === 'running') running += 1;
          }
        }
        moved += movedInPass;
      }
    }
    if (moved + schedulers + skipped + running > 0) {
      deps.logger.info(
        { moved, schedulers, skipped, running },
        'moved the jobs of the single job queue of an older version into the shard queues',
      );
    }
    return { moved, schedulers, skipped, running };
  } finally {
    await legacy.close();
  }
}

async function moveJob(
  deps: Pick<WorkerDeps, 'logger' | 'queue'>,
  legacy: Queue<GuildJobPayload, JobResult, string>,
  connection: Redis,
  job: Job<GuildJobPayload, JobResult, string>,
  state: (typeof MOVED_STATES)[number],
): Promise<'moved' | 'gone' | 'skipped' | 'running'> {
  // BullMQ's lock of a job taken by a worker: held while its process runs it.
  if (state === 'active' && (await connection.exists(legacy.toKey(`${job.id}:lock`))) === 1) return 'running';
  const payload = GuildJobPayload.safeParse(job.data);
  if (!job.id || !payload.success) {
    deps.logger.warn(
      { jobId: job.id, job: job.name },
      'job of the old single queue names no guild; left there',
    );
    return 'skipped';
  }
  const target = deps.queue.forGuild(payload.data.guild_id);
  // Its own run, no more tied to a scheduler of the old queue (removed above).
  const {
    repeat: _repeat,
    repeatJobKey: _key,
    delay: _delay,
    jobId: _id,
    ...options
  } = job.opts as JobsOptions & {
    repeat?: unknown;
  };
  const dueIn = job.timestamp + (job.delay ?? 0) - Date.now();
  // One of that id already there (moved by another process, or queued anew since) stands for it.
  const added = (await target.getJobState(job.id)) === 'unknown';
  if (added) {
    await target.add(job.name, job.data, {
      ...options,
      jobId: job.id,
      ...(dueIn > 0 ? { delay: dueIn } : {}),
    });
  }
  if (await legacy.remove(job.id)) return 'moved';
  // Not removed: another process moved it already (gone), or an older worker took it (it runs there).
  if ((await legacy.getJobState(job.id)) === 'unknown') return 'gone';
  if (added) await target.remove(job.id);
  return 'running';
}
