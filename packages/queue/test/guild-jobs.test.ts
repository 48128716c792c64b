/**
 * How a guild job is queued, against a real BullMQ queue on the test Redis: the id it runs under,
 * its retries, a second click joining a pending job, a finished one replaced, the follow-up run a
 * change made during a run asks for, and the worker's own delayed repair.
 */
import {
  bullPrefix,
  type GuildJobPayload,
  type JobName,
  jobIdFor,
  jobQueueName,
  repairJobIdFor,
} from '@spacecadet/contract';
import { type TestRedis, testRedis } from '@spacecadet/db/testing';
import { waitFor } from '@spacecadet/testing';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addGuildJob, GUILD_JOB_OPTIONS, guildJobPending } from '../src/guild-jobs.ts';
import { JobQueues } from '../src/job-queues.ts';

const GUILD = '300000000000000001';
const ADA = '400000000000000001';
const NIA = '400000000000000002';
const SYNC: JobName = 'leveling.sync-roles';

let redis: TestRedis;
let connection: Redis;
let queues: JobQueues<Queue<GuildJobPayload, unknown, JobName>>;
let queue: Queue<GuildJobPayload, unknown, JobName>;
const workers: Worker[] = [];

beforeAll(async () => {
  redis = await testRedis();
  connection = new Redis(redis.url, { maxRetriesPerRequest: null });
  // One shard: every guild's jobs in shard 0's queue.
  queues = new JobQueues(1, (name) => new Queue(name, { connection, prefix: bullPrefix(redis.prefix) }));
  queue = queues.forShard(0);
});
beforeEach(async () => {
  await queue.obliterate({ force: true });
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.close(true)));
});
afterAll(async () => {
  await queues?.close();
  connection?.disconnect();
  await redis?.close();
});

/**
 * A worker on the queue that holds each job it takes until `release()`; `taken` lists their ids.
 */
function holdingWorker(): { taken: string[]; release(): void } {
  const taken: string[] = [];
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const worker = new Worker(
    jobQueueName(0),
    async (job) => {
      taken.push(job.id ?? '');
      await released;
    },
    {
      connection: new Redis(redis.url, { maxRetriesPerRequest: null }),
      prefix: bullPrefix(redis.prefix),
    },
  );
  workers.push(worker);
  return { taken, release };
}

describe('addGuildJob', () => {
  it('queues the job under its deterministic id, with the shared retries and the request', async () => {
    const jobId = await addGuildJob(queues, SYNC, GUILD, ADA, { requestId: 'req-1', historyEntryId: 7 });
    expect(jobId).toBe(jobIdFor(SYNC, GUILD));
    const job = await queue.getJob(jobId);
    expect(job?.name).toBe(SYNC);
    expect(job?.data).toEqual({
      guild_id: GUILD,
      requested_by: ADA,
      request_id: 'req-1',
      history_entry_id: 7,
    });
    expect(job?.opts.attempts).toBe(GUILD_JOB_OPTIONS.attempts);
    expect(job?.opts.backoff).toEqual(GUILD_JOB_OPTIONS.backoff);
    expect(await queue.getJobState(jobId)).toBe('waiting');
  });

  it('leaves the request id and history entry out when there are none (a schedule)', async () => {
    const jobId = await addGuildJob(queues, SYNC, GUILD, null);
    expect((await queue.getJob(jobId))?.data).toEqual({ guild_id: GUILD, requested_by: null });
  });

  it('joins a second click to the pending job: one job, the first request kept', async () => {
    const first = await addGuildJob(queues, SYNC, GUILD, ADA, { requestId: 'first' });
    const second = await addGuildJob(queues, SYNC, GUILD, NIA, { requestId: 'second' });
    expect(second).toBe(first);
    expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 1 });
    expect((await queue.getJob(first))?.data.request_id).toBe('first');
  });

  it('queues two concurrent clicks as one job', async () => {
    const ids = await Promise.all([
      addGuildJob(queues, SYNC, GUILD, ADA),
      addGuildJob(queues, SYNC, GUILD, NIA),
    ]);
    expect(new Set(ids).size).toBe(1);
    expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 1 });
  });

  it('keeps jobs of other guilds and other actions apart', async () => {
    const other = '300000000000000002';
    const ids = await Promise.all([
      addGuildJob(queues, SYNC, GUILD, ADA),
      addGuildJob(queues, SYNC, other, ADA),
      addGuildJob(queues, 'leveling.resend-overview', GUILD, ADA),
    ]);
    expect(new Set(ids).size).toBe(3);
    expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 3 });
  });

  it('replaces a finished job with a new run', async () => {
    const jobId = await addGuildJob(queues, SYNC, GUILD, ADA, { requestId: 'first' });
    const worker = holdingWorker();
    worker.release();
    await waitFor('the first run to complete', async () => (await queue.getJobState(jobId)) === 'completed');
    await workers.splice(0)[0]?.close();

    expect(await addGuildJob(queues, SYNC, GUILD, NIA, { requestId: 'again' })).toBe(jobId);
    expect(await queue.getJobState(jobId)).toBe('waiting');
    expect((await queue.getJob(jobId))?.data).toMatchObject({ requested_by: NIA, request_id: 'again' });
  });

  it('queues one follow-up run for a change made while the job runs, joined while it is pending', async () => {
    const jobId = await addGuildJob(queues, SYNC, GUILD, ADA);
    const worker = holdingWorker();
    await waitFor('the job to run', async () => (await queue.getJobState(jobId)) === 'active');

    // Without a change to read, a click joins the running job.
    expect(await addGuildJob(queues, SYNC, GUILD, ADA)).toBe(jobId);
    expect(await queue.getJobState(`${jobId}.followup`)).toBe('unknown');

    expect(await addGuildJob(queues, SYNC, GUILD, ADA, { afterChange: true })).toBe(jobId);
    expect(await addGuildJob(queues, SYNC, GUILD, NIA, { afterChange: true })).toBe(jobId);
    expect(await queue.getJobState(`${jobId}.followup`)).toBe('waiting');
    expect((await queue.getJob(`${jobId}.followup`))?.data.requested_by).toBe(ADA);
    worker.release();
  });

  it("queues the worker's repair under its own id, delayed so a burst of deletes joins it", async () => {
    const jobId = await addGuildJob(queues, 'color-roles.repair', GUILD, null, {
      repair: true,
      delayMs: 60_000,
    });
    expect(jobId).toBe(repairJobIdFor('color-roles.repair', GUILD));
    expect(await queue.getJobState(jobId)).toBe('delayed');
    expect(
      await addGuildJob(queues, 'color-roles.repair', GUILD, null, { repair: true, delayMs: 60_000 }),
    ).toBe(jobId);
    expect(await queue.getJobCounts('delayed')).toEqual({ delayed: 1 });
  });
});

describe('guildJobPending', () => {
  it('is false with no job, true while one waits or runs, and false once it finished', async () => {
    expect(await guildJobPending(queues, SYNC, GUILD)).toBe(false);
    const jobId = await addGuildJob(queues, SYNC, GUILD, ADA);
    expect(await guildJobPending(queues, SYNC, GUILD)).toBe(true);
    expect(await guildJobPending(queues, 'leveling.resend-overview', GUILD)).toBe(false);

    const worker = holdingWorker();
    await waitFor('the job to run', async () => (await queue.getJobState(jobId)) === 'active');
    expect(await guildJobPending(queues, SYNC, GUILD)).toBe(true);
    worker.release();
    await waitFor('the job to complete', async () => (await queue.getJobState(jobId)) === 'completed');
    expect(await guildJobPending(queues, SYNC, GUILD)).toBe(false);
  });

  it('counts a pending follow-up run as pending', async () => {
    await queue.add(
      SYNC,
      { guild_id: GUILD, requested_by: null },
      { jobId: `${jobIdFor(SYNC, GUILD)}.followup` },
    );
    expect(await guildJobPending(queues, SYNC, GUILD)).toBe(true);
  });
});
