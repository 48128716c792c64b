import { jobIdFor, workerConnectionName } from '@spacecadet/contract';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { type Harness, jobQueue, STATION, startHarness } from './helpers.ts';

/**
 * The API tells a job whose worker process died at once by looking for the process's
 * connections (`workerConnectionName(prefix, job.processedBy)`) in `CLIENT LIST`: the worker
 * must record its name on the jobs it takes and keep connections of that name while it runs.
 */
describe("a job's worker process, as the API finds it", () => {
  let harness: Harness;
  let jobs: ReturnType<typeof jobQueue>;
  let admin: Redis;
  let worker: RunningWorker | undefined;

  beforeAll(async () => {
    harness = await startHarness();
    jobs = jobQueue(harness);
    admin = new Redis(harness.redis.url);
  });
  afterAll(async () => {
    await worker?.close();
    admin?.disconnect();
    await jobs?.close();
    await harness?.close();
  });

  const connectedNames = async () =>
    ((await admin.client('LIST')) as string).split('\n').map((line) =>
      line
        .split(' ')
        .find((field) => field.startsWith('name='))
        ?.slice('name='.length),
    );

  it('is named on the job it took, and connected under that name until it stops', async () => {
    worker = await startWorker(harness.config());
    await jobs.add('leveling.sync-roles');
    const { job } = await jobs.finished(jobIdFor('leveling.sync-roles', STATION));
    expect(job.processedBy).toEqual(expect.any(String));
    const name = workerConnectionName(harness.redis.prefix, job.processedBy ?? '');
    expect(await connectedNames()).toContain(name);

    await worker.close();
    worker = undefined;
    expect(await connectedNames()).not.toContain(name);
  });
});
