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

/** The states of a job still to run, moved over; an active one finishes where it is. */
const MOVED_STATES = ['waiting', 'prioritized', 'delayed'] as const;
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
): Promise<{ moved: number; schedulers: number; skipped: number }> {
  // The older version ran on one Redis only: on a cluster there is no old queue to drain (and its
  // untagged name would spread its keys over several slots, which BullMQ's scripts refuse).
  if ((connection as Redis | Cluster) instanceof Cluster) return { moved: 0, schedulers: 0, skipped: 0 };
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

const RELEASE_IF_OURS = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;

async function drainUnderLock(
  deps: Pick<WorkerDeps, 'config' | 'logger' | 'queue'>,
  connection: Redis,
): Promise<{ moved: number; schedulers: number; skipped: number }> {
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
            const outcome = await moveJob(deps, legacy, job);
            if (outcome === 'moved') movedInPass += 1;
            else offset += 1;
            if (outcome === 'skipped') skipped += 1;
          }
        }
        moved += movedInPass;
      }
    }
    if (moved + schedulers + skipped > 0) {
      deps.logger.info(
        { moved, schedulers, skipped },
        'moved the jobs of the single job queue of an older version into the shard queues',
      );
    }
    return { moved, schedulers, skipped };
  } finally {
    await legacy.close();
  }
}

async function moveJob(
  deps: Pick<WorkerDeps, 'logger' | 'queue'>,
  legacy: Queue<GuildJobPayload, JobResult, string>,
  job: Job<GuildJobPayload, JobResult, string>,
): Promise<'moved' | 'gone' | 'skipped'> {
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
  return 'skipped';
}
