/**
 * An upgrade from the single job queue loses no job: a worker moves the waiting, prioritized and
 * delayed jobs an older version left in `spacecadet-jobs` into their guilds' shard queues (same
 * id, options and due time) and removes its schedulers; several at once, and again, move each
 * job once. A job an older process is running stays with it, and moves once that process died.
 */
import {
  bullPrefix,
  type GuildJobPayload,
  type JobResult,
  jobIdFor,
  LEGACY_JOB_QUEUE,
  redisKeyPrefix,
  shardOfGuild,
} from '@spacecadet/contract';
import { JobQueues } from '@spacecadet/queue/job-queues';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerQueue } from '../src/deps.ts';
import { drainLegacyQueue, keepDrainingLegacyQueue } from '../src/jobs/legacy-queue.ts';
import { FAR_ORBIT, type Harness, STATION, startHarness, waitFor } from './helpers.ts';

let harness: Harness;
let connection: Redis;
let legacy: Queue<GuildJobPayload, JobResult, string>;
let queues: JobQueues<WorkerQueue>;

beforeAll(async () => {
  harness = await startHarness();
  connection = new Redis(harness.redis.url, { maxRetriesPerRequest: null });
  const prefix = bullPrefix(harness.redis.prefix);
  legacy = new Queue(LEGACY_JOB_QUEUE, { connection, prefix });
  queues = new JobQueues(2, (name) => new Queue(name, { connection, prefix }));
});
afterAll(async () => {
  await queues?.close();
  await legacy?.close();
  connection?.disconnect();
  await harness?.close();
});

const payload = (guildId: string): GuildJobPayload => ({ guild_id: guildId, requested_by: null });

describe('draining the single queue of an older version', () => {
  it('moves every job still to run into its shard queue once, and removes the schedulers', async () => {
    expect([shardOfGuild(STATION, 2), shardOfGuild(FAR_ORBIT.guild, 2)]).toEqual([0, 1]);
    const waitingId = jobIdFor('leveling.sync-roles', STATION);
    const delayedId = jobIdFor('temp-roles.expire', FAR_ORBIT.guild);
    const prioritizedId = jobIdFor('role-menus.post', FAR_ORBIT.guild);
    await legacy.add('leveling.sync-roles', payload(STATION), { jobId: waitingId, attempts: 3 });
    const delayed = await legacy.add('temp-roles.expire', payload(FAR_ORBIT.guild), {
      jobId: delayedId,
      delay: 600_000,
    });
    const due = delayed.timestamp + 600_000;
    await legacy.add('role-menus.post', payload(FAR_ORBIT.guild), { jobId: prioritizedId, priority: 5 });
    await legacy.upsertJobScheduler(
      `schedule.${jobIdFor('personality-roles.refresh', STATION)}`,
      { every: 300_000 },
      { name: 'personality-roles.refresh', data: payload(STATION) },
    );

    const config = harness.config({ SHARD_COUNT: '2' });
    const redis = new Redis(harness.redis.url, { keyPrefix: redisKeyPrefix(harness.redis.prefix) });
    const deps = { config, logger: pino({ level: 'silent' }), queue: queues, redis };
    // Two processes starting together, then one starting again later.
    const results = await Promise.all([
      drainLegacyQueue(deps, connection),
      drainLegacyQueue(deps, connection),
    ]);
    // Three jobs, and the scheduler's first run (an `every` scheduler runs at once), due now.
    expect(results.reduce((sum, result) => sum + result.moved, 0)).toBe(4);
    expect(results.reduce((sum, result) => sum + result.schedulers, 0)).toBe(1);
    expect(await drainLegacyQueue(deps, connection)).toEqual({
      moved: 0,
      schedulers: 0,
      skipped: 0,
      running: 0,
    });

    expect(await legacy.getJobCounts('waiting', 'delayed', 'prioritized', 'active')).toEqual({
      waiting: 0,
      delayed: 0,
      prioritized: 0,
      active: 0,
    });
    expect(await legacy.getJobSchedulersCount()).toBe(0);
    redis.disconnect();

    const [shard0, shard1] = [queues.forShard(0), queues.forShard(1)];
    expect(await shard0.getJobState(waitingId)).toBe('waiting');
    expect((await shard0.getJob(waitingId))?.opts.attempts).toBe(3);
    expect(await shard1.getJobState(delayedId)).toBe('delayed');
    const moved = await shard1.getJob(delayedId);
    // Still due when it was: not earlier, and not a whole delay later.
    const movedDue = (moved?.timestamp ?? 0) + (moved?.delay ?? 0);
    expect(movedDue).toBeGreaterThanOrEqual(due);
    expect(movedDue).toBeLessThan(due + 600_000);
    expect(await shard1.getJobState(prioritizedId)).toBe('prioritized');
    expect((await shard1.getJob(prioritizedId))?.opts.priority).toBe(5);
    // Each once: nothing in the other shard's queue, no copy.
    expect(await shard0.count()).toBe(2);
    expect(await shard1.count()).toBe(2);
  });

  it('leaves a job an older process runs to it, and moves it once that process died mid-job', async () => {
    const jobId = jobIdFor('color-roles.generate', STATION);
    let taken!: () => void;
    const started = new Promise<void>((resolve) => {
      taken = resolve;
    });
    // An older version's worker: takes the job and never finishes it.
    const oldConnection = connection.duplicate();
    const old = new Worker(
      LEGACY_JOB_QUEUE,
      () => {
        taken();
        return new Promise(() => undefined);
      },
      { connection: oldConnection, prefix: bullPrefix(harness.redis.prefix), lockDuration: 1_000 },
    );
    await legacy.add('color-roles.generate', payload(STATION), { jobId });
    await started;
    const redis = new Redis(harness.redis.url, { keyPrefix: redisKeyPrefix(harness.redis.prefix) });
    const deps = {
      config: harness.config({ SHARD_COUNT: '2' }),
      logger: pino({ level: 'silent' }),
      queue: queues,
      redis,
    };
    let stop: (() => void) | undefined;
    try {
      expect(await drainLegacyQueue(deps, connection)).toMatchObject({ moved: 0, running: 1 });
      expect(await queues.forGuild(STATION).getJobState(jobId)).toBe('unknown');
      // Kept draining while it runs; the process dies (its lock no longer renewed, then lapsed).
      stop = await keepDrainingLegacyQueue(deps, connection, 200);
      await old.close(true);
      await waitFor('the job moved to its shard queue', async () =>
        (await queues.forGuild(STATION).getJobState(jobId)) === 'waiting' ? true : undefined,
      );
      expect(await legacy.getJobState(jobId)).toBe('unknown');
    } finally {
      stop?.();
      await old.close(true);
      oldConnection.disconnect();
      redis.disconnect();
    }
  });
});
