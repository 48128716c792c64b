import { jobSchedulerIdFor } from '@spacecadet/contract';
import { levelingSettings, personalityConfigs } from '@spacecadet/db/schema';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { type Harness, jobQueue, SANDBOX_IDS, STATION, startHarness, waitFor } from './helpers.ts';

/**
 * The job schedulers live only in Redis. A Redis restarted without persistence comes back
 * empty and drops every connection; the worker must put back the schedulers Postgres says
 * are wanted, without being restarted itself.
 */
describe('job schedulers after Redis lost them', () => {
  let harness: Harness;
  let jobs: ReturnType<typeof jobQueue>;
  let admin: Redis;
  let worker: RunningWorker | undefined;
  const wanted = [
    jobSchedulerIdFor('personality-roles.refresh', STATION),
    jobSchedulerIdFor('leveling.daily-overview', STATION),
  ].sort();

  beforeAll(async () => {
    harness = await startHarness();
    jobs = jobQueue(harness);
    admin = new Redis(harness.redis.url);
    // A guild with personality roles set up (refresh every 5 min) and a daily overview channel.
    await harness.database.db
      .insert(personalityConfigs)
      .values({ guildId: STATION, assignChannelId: SANDBOX_IDS.channels.roles, configured: true });
    await harness.database.db
      .insert(levelingSettings)
      .values({ guildId: STATION, enabled: true, dailyOverviewChannel: SANDBOX_IDS.channels.roles });
  });
  afterEach(async () => {
    await worker?.close();
    worker = undefined;
  });
  afterAll(async () => {
    admin?.disconnect();
    await jobs?.close();
    await harness?.close();
  });

  const schedulerIds = async () =>
    (await jobs.queue.getJobSchedulers(0, -1)).map((scheduler) => scheduler.key).sort();

  /** Starts a worker and waits until its start-up work is done (schedulers made, queue idle). */
  async function startAndSettle(scheduleCheckMs: number): Promise<void> {
    worker = await startWorker(harness.config(), { scheduleCheckMs });
    expect(await schedulerIds()).toEqual(wanted);
    // The refresh a new scheduler runs at once: a job that ends by making sure its scheduler
    // exists, so it must be over before the loss below.
    await waitFor('the first scheduled runs to finish', async () => {
      const counts = await jobs.queue.getJobCounts('active', 'waiting', 'prioritized');
      return Object.values(counts).every((count) => count === 0);
    });
  }

  /** What a Redis restart without persistence leaves of this test's keys: nothing. */
  async function loseEveryKey(): Promise<void> {
    const keys: string[] = [];
    const stream = admin.scanStream({ match: `${harness.redis.prefix}:*`, count: 500 });
    for await (const batch of stream) keys.push(...(batch as string[]));
    if (keys.length > 0) await admin.del(...keys);
  }

  /** The ids of this test's worker's Redis connections: it names them after its prefix. */
  async function workerConnections(): Promise<string[]> {
    const list = (await admin.client('LIST')) as string;
    return list
      .split('\n')
      .map((line) => Object.fromEntries(line.split(' ').map((field) => field.split('=', 2))))
      .filter((client) => typeof client.name === 'string' && client.name.includes(harness.redis.prefix))
      .map((client) => client.id as string);
  }

  /** The worker's connections dropped as by a restart; resolves once it has them all again. */
  async function dropWorkerConnections(): Promise<number> {
    const ids = await workerConnections();
    for (const id of ids) await admin.client('KILL', 'ID', id);
    // Closing a worker while BullMQ is still reconnecting can hang its close: wait it out.
    await waitFor('the worker to reconnect', async () => {
      const now = await workerConnections();
      return now.length >= ids.length && now.every((id) => !ids.includes(id));
    });
    return ids.length;
  }

  it('recreates them as soon as the worker reconnects', async () => {
    // A check interval far beyond the test: only the reconnect can bring them back.
    await startAndSettle(3_600_000);
    await loseEveryKey();
    expect(await schedulerIds()).toEqual([]);
    expect(await dropWorkerConnections()).toBeGreaterThanOrEqual(2);
    await waitFor('the schedulers to be back', async () =>
      JSON.stringify(await schedulerIds()) === JSON.stringify(wanted) ? true : undefined,
    );
    const refresh = await jobs.queue.getJobScheduler(wanted.find((id) => id.includes('refresh')) ?? '');
    expect(refresh?.every).toBe(300_000);
  });

  it('recreates them at the periodic check when no connection noticed the loss', async () => {
    await startAndSettle(250);
    await loseEveryKey();
    await waitFor('the schedulers to be back', async () =>
      JSON.stringify(await schedulerIds()) === JSON.stringify(wanted) ? true : undefined,
    );
  });
});
