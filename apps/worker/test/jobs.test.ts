import { guildJobLockKey, jobIdFor, NOT_SUPPORTED } from '@spacecadet/contract';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURES } from '../src/features/index.ts';
import { notSupported } from '../src/jobs/not-supported.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  guildState,
  type Harness,
  jobQueue,
  SANDBOX_IDS,
  STATION,
  startHarness,
  storedKey,
  waitFor,
} from './helpers.ts';

describe('job pipeline', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;

  beforeAll(async () => {
    harness = await startHarness();
    // Every contract job is built now: one stands in for a feature that is not.
    const features = FEATURES.map((feature) =>
      feature.name === 'leveling' && 'jobs' in feature
        ? {
            ...feature,
            jobs: { ...feature.jobs, 'leveling.prune-leavers': notSupported('leveling.prune-leavers') },
          }
        : feature,
    );
    worker = await startWorker(harness.config(), { features });
    jobs = jobQueue(harness);
  });
  afterAll(async () => {
    await jobs?.close();
    await worker?.close();
    await harness.close();
  });

  it('fails a job whose feature is not built with not_supported, at once and without retries', async () => {
    const job = await jobs.add('leveling.prune-leavers');
    const outcome = await jobs.finished(job.id ?? '');
    expect(outcome.state).toBe('failed');
    expect(outcome.error).toBe(`${NOT_SUPPORTED}: leveling.prune-leavers is not built yet`);
    expect(outcome.job.attemptsMade).toBe(1);
  });

  it('collapses duplicate job ids into one job', async () => {
    const payload = { guild_id: STATION, requested_by: null };
    const jobId = jobIdFor('personality-roles.generate', STATION);
    const [first, second] = await Promise.all([
      jobs.queue.add('personality-roles.generate', payload, { jobId }),
      jobs.queue.add('personality-roles.generate', payload, { jobId }),
    ]);
    expect(second.id).toBe(first.id);
    await jobs.finished(jobId);
    const all = await jobs.queue.getJobs(['waiting', 'active', 'completed', 'failed', 'delayed']);
    expect(all.filter((job) => job.name === 'personality-roles.generate')).toHaveLength(1);
  });

  it('retries a 429 from Discord and finishes the job once', async () => {
    const sandbox = control(harness.sandbox);
    await sandbox.fault({
      method: 'POST',
      path: `/guilds/${STATION}/roles`,
      status: 429,
      count: 1,
      retry_after: 0.2,
    });
    const before = guildState(harness.sandbox, STATION).roles.length;
    const outcome = await jobs.finished((await jobs.add('color-roles.generate')).id ?? '');
    expect(outcome.state).toBe('completed');
    expect((await sandbox.faults()).every((fault) => fault.remaining === 0)).toBe(true);
    expect(guildState(harness.sandbox, STATION).roles.length).toBe(before + 12);
  });

  it('retries a 5xx from Discord', async () => {
    const sandbox = control(harness.sandbox);
    const before = guildState(harness.sandbox, STATION).roles.length;
    const red = guildState(harness.sandbox, STATION).roles.find((role) => role.name === 'Red');
    await sandbox.botRest('DELETE', `/guilds/${STATION}/roles/${red?.id}`);
    await sandbox.fault({ method: 'POST', path: `/guilds/${STATION}/roles`, status: 502, count: 2 });
    const outcome = await jobs.finished((await jobs.add('color-roles.generate')).id ?? '');
    expect(outcome.state).toBe('completed');
    expect((await sandbox.faults()).every((fault) => fault.remaining === 0)).toBe(true);
    expect(guildState(harness.sandbox, STATION).roles.length).toBe(before);
  });

  it('runs one job per feature and guild at a time: a second one waits, then runs', async () => {
    const redis = new Redis(harness.redis.url);
    const lock = storedKey(harness, guildJobLockKey('color-roles', STATION));
    try {
      // Another process is running a color-roles job for Sandbox Station.
      await redis.set(lock, 'someone-else', 'PX', 30_000);
      const jobId = jobIdFor('color-roles.post-panel', STATION);
      await jobs.add('color-roles.post-panel');
      await waitFor(
        'the job to wait for the guild',
        async () => (await jobs.queue.getJobState(jobId)) === 'delayed',
      );
      await redis.del(lock);
      const outcome = await jobs.finished(jobId);
      // It ran (and failed on its own terms: no panel channel is set), without spending attempts.
      expect(outcome.error).toContain('Select a channel first');
      expect(outcome.job.attemptsMade).toBe(1);
    } finally {
      redis.disconnect();
    }
  });

  it('fails at once with bot_not_in_guild for a guild the bot is not in', async () => {
    const outcome = await jobs.finished(
      (await jobs.add('color-roles.generate', SANDBOX_IDS.guilds.quiet)).id ?? '',
    );
    expect(outcome.state).toBe('failed');
    expect(outcome.error).toMatch(/^bot_not_in_guild: /);
    expect(outcome.job.attemptsMade).toBe(1);
  });

  it('reports progress up to 100', async () => {
    const outcome = await jobs.finished((await jobs.add('color-roles.generate')).id ?? '');
    expect(outcome.job.progress).toBe(100);
  });
});
