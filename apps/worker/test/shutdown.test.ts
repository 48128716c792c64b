import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { jobIdFor } from '@spacecadet/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  control,
  guildState,
  type Harness,
  jobQueue,
  SANDBOX_IDS,
  STATION,
  startHarness,
  waitFor,
} from './helpers.ts';

const workerDir = fileURLToPath(new URL('..', import.meta.url));
const ORBIT = SANDBOX_IDS.guilds.orbit;

describe('the worker process (src/main.ts) on SIGTERM', () => {
  let harness: Harness;
  let jobs: ReturnType<typeof jobQueue>;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    harness = await startHarness();
    jobs = jobQueue(harness);
  });
  afterEach(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  afterAll(async () => {
    await jobs?.close();
    await harness.close();
  });

  /** The real worker process, its log (JSON lines on stdout) kept for the test to read. */
  async function startWorkerProcess() {
    const worker = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: workerDir,
      env: { ...process.env, ...harness.env, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child = worker;
    let log = '';
    worker.stdout?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    const exited = once(worker, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    // A process starting beside other work (tsx compiles it first) can take a while.
    await waitFor('the worker to listen', async () => (await jobs.queue.getWorkersCount()) > 0, 120_000);
    return {
      exited,
      /** Sends `signal`, then waits until the worker has logged `reaction` to it. */
      async signal(reaction: string) {
        const seen = log.split(reaction).length - 1;
        worker.kill('SIGTERM');
        await waitFor(`the worker to log "${reaction}"`, () => log.split(reaction).length - 1 > seen);
      },
      log: () => log,
    };
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
    child?.kill('SIGTERM');
    const [code] = await worker.exited;
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
    await worker.signal('shutting down');
    child?.kill('SIGTERM');
    const [code, signal] = await worker.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
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
    await worker.signal('shutting down');
    await worker.signal('still finishing active jobs');
    child?.kill('SIGTERM');
    const [code] = await worker.exited;
    expect(code).toBe(1);
    expect(worker.log()).toContain('exiting at once');
    // It did not wait for the job: Discord holds that up for a minute, and the job is still active.
    expect(await jobs.queue.getJobState(jobId)).toBe('active');
  });
});
