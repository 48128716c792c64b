import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { bullPrefix, jobIdFor } from '@spacecadet/contract';
import { DEFAULT_COLOR_PALETTE } from '@spacecadet/core';
import { colorShades, colors, guildConfigs } from '@spacecadet/db/schema';
import { QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { control, guildState, type Harness, jobQueue, STATION, startHarness, waitFor } from './helpers.ts';

const workerDir = fileURLToPath(new URL('..', import.meta.url));
const shadeNames = DEFAULT_COLOR_PALETTE.flatMap((family) =>
  family.shades.length > 0 ? family.shades.map((shade) => shade.name) : [family.name],
).sort();

describe('a worker killed with SIGKILL in the middle of color-roles.generate', () => {
  let harness: Harness;
  let child: ChildProcess | undefined;
  let survivor: RunningWorker | undefined;
  let jobs: ReturnType<typeof jobQueue>;

  beforeAll(async () => {
    harness = await startHarness();
    jobs = jobQueue(harness);
    await harness.database.db
      .insert(guildConfigs)
      .values({ guildId: STATION, data: { color_roles_mode: 'shades' } });
  });
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await survivor?.close();
    await jobs?.close();
    await harness.close();
  });

  it('is taken over within JOB_LOCK_DURATION_MS and ends as one clean run: one role per shade, no duplicates', async () => {
    const fixtureRoles = guildState(harness.sandbox, STATION).roles.length;
    // node itself runs the worker (tsx as a loader): killing a `tsx` wrapper would leave its
    // node child running.
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: workerDir,
      env: { ...process.env, ...harness.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitFor('the child worker to listen', async () => (await jobs.queue.getWorkersCount()) > 0, 30_000);

    const events = new QueueEvents(jobs.queue.name, {
      connection: new Redis(harness.redis.url, { maxRetriesPerRequest: null }),
      prefix: bullPrefix(harness.redis.prefix),
    });
    await events.waitUntilReady();
    const jobId = jobIdFor('color-roles.generate', STATION);
    const sandbox = control(harness.sandbox);
    // Once the first role is written, make Discord answer 429 for a long time: the child is
    // then stuck mid-job, waiting to retry, when it is killed.
    const stalled = new Promise<void>((resolve) => {
      events.on('progress', ({ jobId: id, data }) => {
        if (id === jobId && typeof data === 'number' && data > 10) {
          void sandbox
            .fault({
              method: 'POST',
              path: `/guilds/${STATION}/roles`,
              status: 429,
              count: 1000,
              retry_after: 60,
            })
            .then(() => resolve());
        }
      });
    });
    await jobs.add('color-roles.generate');
    await stalled;
    await waitFor('the child to hit the rate limit', async () =>
      (await sandbox.faults()).some((fault) => fault.remaining < 1000),
    );
    const createdBeforeKill = guildState(harness.sandbox, STATION).roles.length - fixtureRoles;
    expect(createdBeforeKill).toBeGreaterThan(0);
    expect(createdBeforeKill).toBeLessThan(shadeNames.length);
    // Another worker is up and idle while the child holds the job: what a deployment with
    // several workers looks like when one of them dies.
    survivor = await startWorker(harness.config());

    expect(await jobs.queue.getJobState(jobId)).toBe('active');
    const exited = once(child, 'exit');
    const killedAt = performance.now();
    child.kill('SIGKILL');
    await exited;
    await sandbox.clearFaults();
    await events.close();

    // Taken over = the survivor is creating roles again (not merely holding the job).
    const takeoverBound = Number(harness.env.JOB_LOCK_DURATION_MS);
    await waitFor(
      'the survivor to resume the job',
      () => guildState(harness.sandbox, STATION).roles.length > fixtureRoles + createdBeforeKill,
      takeoverBound * 5,
    );
    const takeoverMs = performance.now() - killedAt;
    // README: JOB_LOCK_DURATION_MS is how soon another process takes over a dead one's job.
    expect(takeoverMs, 'ms from SIGKILL to the job running again').toBeLessThanOrEqual(takeoverBound);

    const outcome = await jobs.finished(jobId, 30_000);
    expect(outcome.state).toBe('completed');
    expect(outcome.job.attemptsStarted).toBeGreaterThanOrEqual(2);

    // The final state of one clean run: exactly one role per shade, each recorded once.
    const roles = guildState(harness.sandbox, STATION).roles;
    expect(roles.length).toBe(fixtureRoles + shadeNames.length);
    const created = roles.filter((role) => shadeNames.includes(role.name));
    expect(created.map((role) => role.name).sort()).toEqual(shadeNames);
    const recorded = [
      ...(await harness.database.db.select({ roleId: colorShades.roleId }).from(colorShades)),
      ...(await harness.database.db.select({ roleId: colors.roleId }).from(colors)),
    ]
      .map((row) => row.roleId)
      .filter((id): id is string => id !== null);
    expect(recorded.sort()).toEqual(created.map((role) => role.id).sort());
  });
});
