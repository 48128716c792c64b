import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { jobIdFor } from '@spacecadet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control, guildState, type Harness, jobQueue, STATION, startHarness, waitFor } from './helpers.ts';

const workerDir = fileURLToPath(new URL('..', import.meta.url));

describe('the worker process (src/main.ts) on SIGTERM', () => {
  let harness: Harness;
  let jobs: ReturnType<typeof jobQueue>;

  beforeAll(async () => {
    harness = await startHarness();
    jobs = jobQueue(harness);
  });
  afterAll(async () => {
    await jobs?.close();
    await harness.close();
  });

  it('lets the active job finish, disconnects and exits 0', async () => {
    const fixtureRoles = guildState(harness.sandbox, STATION).roles.length;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: workerDir,
      env: { ...process.env, ...harness.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = once(child, 'exit');
    try {
      await waitFor('the worker to listen', async () => (await jobs.queue.getWorkersCount()) > 0, 30_000);
      expect(harness.sandbox.state().gateway.connected_sessions).toBe(1);
      // A 429 on the first role create keeps the job busy for a second.
      await control(harness.sandbox).fault({
        method: 'POST',
        path: `/guilds/${STATION}/roles`,
        status: 429,
        count: 1,
        retry_after: 1,
      });
      const jobId = jobIdFor('color-roles.generate', STATION);
      await jobs.add('color-roles.generate');
      await waitFor('the job to be active', async () => (await jobs.queue.getJobState(jobId)) === 'active');
      child.kill('SIGTERM');
      const [code] = await exited;
      expect(code).toBe(0);
      expect(await jobs.queue.getJobState(jobId)).toBe('completed');
      expect(guildState(harness.sandbox, STATION).roles.length).toBe(fixtureRoles + 12);
      await waitFor(
        'the gateway session to end',
        () => harness.sandbox.state().gateway.connected_sessions === 0,
      );
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
