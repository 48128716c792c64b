import { jobIdFor } from '@spacecadet/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChildWorker,
  control,
  guildState,
  type Harness,
  jobQueue,
  SANDBOX_IDS,
  STATION,
  startChildWorker,
  startHarness,
  waitFor,
} from './helpers.ts';

const ORBIT = SANDBOX_IDS.guilds.orbit;

describe('the worker process (src/main.ts) on SIGTERM', () => {
  let harness: Harness;
  let jobs: ReturnType<typeof jobQueue>;
  let child: ChildWorker | undefined;

  beforeAll(async () => {
    harness = await startHarness();
    jobs = jobQueue(harness);
  });
  afterEach(async () => {
    await child?.stop();
  });
  afterAll(async () => {
    await jobs?.close();
    await harness.close();
  });

  /** The real worker process, logging at info level for the test to read. */
  async function startWorkerProcess(): Promise<ChildWorker> {
    child = await startChildWorker(harness, { LOG_LEVEL: 'info' });
    return child;
  }

  /** Sends SIGTERM, then waits until the worker has logged `reaction` to it. */
  async function signal(worker: ChildWorker, reaction: string): Promise<void> {
    const seen = worker.log().split(reaction).length - 1;
    worker.kill('SIGTERM');
    await waitFor(`the worker to log "${reaction}"`, () => worker.log().split(reaction).length - 1 > seen);
  }

  /** Queues color-roles.generate for `guildId` and waits until the worker is running it. */
  async function activeGenerateJob(guildId: string): Promise<string> {
    const jobId = jobIdFor('color-roles.generate', guildId);
    await jobs.add('color-roles.generate', guildId);
    await waitFor('the job to be active', async () => (await jobs.queue.getJobState(jobId)) === 'active');
    return jobId;
  }

  it('lets the active job finish, disconnects and exits 0', async () => {
    const fixtureRoles = guildState(harness.sandbox, STATION).roles.length;
    const worker = await startWorkerProcess();
    expect(harness.sandbox.state().gateway.connected_sessions).toBe(1);
    // A 429 on the first role create keeps the job busy for a second.
    await control(harness.sandbox).fault({
      method: 'POST',
      path: `/guilds/${STATION}/roles`,
      status: 429,
      count: 1,
      retry_after: 1,
    });
    const jobId = await activeGenerateJob(STATION);
    worker.kill('SIGTERM');
    const { code } = await worker.exited;
    expect(code).toBe(0);
    expect(await jobs.queue.getJobState(jobId)).toBe('completed');
    expect(guildState(harness.sandbox, STATION).roles.length).toBe(fixtureRoles + 12);
    await waitFor(
      'the gateway session to end',
      () => harness.sandbox.state().gateway.connected_sessions === 0,
    );
  });

  it('a second SIGTERM (pnpm forwarding one to a signalled process group) does not cut the job short', async () => {
    const fixtureRoles = guildState(harness.sandbox, ORBIT).roles.length;
    const worker = await startWorkerProcess();
    await control(harness.sandbox).fault({
      method: 'POST',
      path: `/guilds/${ORBIT}/roles`,
      status: 429,
      count: 1,
      retry_after: 2,
    });
    const jobId = await activeGenerateJob(ORBIT);
    await signal(worker, 'shutting down');
    worker.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    expect(worker.log()).toContain('still finishing active jobs');
    expect(await jobs.queue.getJobState(jobId)).toBe('completed');
    expect(guildState(harness.sandbox, ORBIT).roles.length).toBe(fixtureRoles + 12);
  });

  it('a third SIGTERM exits at once, leaving the job to be retried', async () => {
    const worker = await startWorkerProcess();
    // Discord holds the job up for far longer than the test waits.
    await control(harness.sandbox).fault({
      method: 'GET',
      path: `/guilds/${STATION}/roles`,
      status: 429,
      count: 1,
      retry_after: 60,
    });
    const jobId = await activeGenerateJob(STATION);
    await signal(worker, 'shutting down');
    await signal(worker, 'still finishing active jobs');
    worker.kill('SIGTERM');
    const { code } = await worker.exited;
    expect(code).toBe(1);
    expect(worker.log()).toContain('exiting at once');
    // It did not wait for the job: Discord holds that up for a minute, and the job is still active.
    expect(await jobs.queue.getJobState(jobId)).toBe('active');
  });
});
