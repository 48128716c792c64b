import { type JobName, jobIdFor } from '@spacecadet/contract';
import { DEFAULT_COLOR_PALETTE, PERSONALITY_CATALOG } from '@spacecadet/core';
import { seedPersonalityCatalog } from '@spacecadet/db/queries/personality-roles';
import {
  colorShades,
  colors,
  guildConfigs,
  personalityConfigs,
  personalityOptions,
} from '@spacecadet/db/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
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

const shadeNames = DEFAULT_COLOR_PALETTE.flatMap((family) =>
  family.shades.length > 0 ? family.shades.map((shade) => shade.name) : [family.name],
).sort();
const optionLabels = PERSONALITY_CATALOG.flatMap((question) =>
  question.options.map((option) => option.label),
).sort();

/** A job that creates roles one by one, and what one clean run of it leaves. */
interface RoleCreatingJob {
  job: JobName;
  setup(harness: Harness): Promise<void>;
  /** The role names one clean run creates, sorted. */
  names: readonly string[];
  /** Every role id the run recorded in Postgres. */
  recorded(harness: Harness): Promise<Array<string | null>>;
}

const CASES: RoleCreatingJob[] = [
  {
    job: 'color-roles.generate',
    async setup(harness) {
      await harness.database.db
        .insert(guildConfigs)
        .values({ guildId: STATION, data: { color_roles_mode: 'shades' } });
    },
    names: shadeNames,
    recorded: async (harness) =>
      [
        ...(await harness.database.db.select({ roleId: colorShades.roleId }).from(colorShades)),
        ...(await harness.database.db.select({ roleId: colors.roleId }).from(colors)),
      ].map((row) => row.roleId),
  },
  {
    job: 'personality-roles.generate',
    async setup(harness) {
      await harness.database.db.transaction(async (tx) => {
        await tx
          .insert(personalityConfigs)
          .values({ guildId: STATION, assignChannelId: SANDBOX_IDS.channels.roles, configured: true });
        await seedPersonalityCatalog(tx, STATION);
      });
    },
    names: optionLabels,
    recorded: async (harness) =>
      (await harness.database.db.select({ roleId: personalityOptions.roleId }).from(personalityOptions)).map(
        (row) => row.roleId,
      ),
  },
];

describe.each(CASES)('a worker killed with SIGKILL in the middle of $job', (job) => {
  let harness: Harness;
  let child: ChildWorker | undefined;
  let survivor: RunningWorker | undefined;
  let jobs: ReturnType<typeof jobQueue>;

  beforeAll(async () => {
    harness = await startHarness();
    jobs = jobQueue(harness);
  });
  afterAll(async () => {
    await child?.stop();
    await survivor?.close();
    await jobs?.close();
    await harness.close();
  });

  it('is taken over within JOB_LOCK_DURATION_MS and ends as one clean run: one role per target, no duplicates', async () => {
    const fixtureRoles = guildState(harness.sandbox, STATION).roles.length;
    child = await startChildWorker(harness, { LOG_LEVEL: 'warn' });
    // Set up once the child is listening: at start a worker schedules a refresh of every
    // configured guild, which would make the roles before the job under test could.
    await job.setup(harness);

    const jobId = jobIdFor(job.job, STATION);
    const sandbox = control(harness.sandbox);
    await jobs.add(job.job);
    // Once the first role exists, make Discord answer 429 for a long time: the child is then
    // stuck mid-job, waiting to retry, when it is killed. The sandbox runs in this process, so
    // its state is watched directly (an event through Redis came too late for a fast job).
    await new Promise<void>((resolve) => {
      const watch = () => {
        if (guildState(harness.sandbox, STATION).roles.length > fixtureRoles) resolve();
        else setImmediate(watch);
      };
      watch();
    });
    await sandbox.fault({
      method: 'POST',
      path: `/guilds/${STATION}/roles`,
      status: 429,
      count: 1000,
      retry_after: 60,
    });
    await waitFor('the child to hit the rate limit', async () =>
      (await sandbox.faults()).some((fault) => fault.remaining < 1000),
    );
    const createdBeforeKill = guildState(harness.sandbox, STATION).roles.length - fixtureRoles;
    expect(createdBeforeKill).toBeGreaterThan(0);
    expect(createdBeforeKill).toBeLessThan(job.names.length);
    // Another worker is up and idle while the child holds the job: what a deployment with
    // several workers looks like when one of them dies.
    survivor = await startWorker(harness.config());

    expect(await jobs.queue.getJobState(jobId)).toBe('active');
    await child.stop('SIGKILL');
    await sandbox.clearFaults();

    // Taken over = the survivor is creating roles again (not merely holding the job). How soon
    // (README: within JOB_LOCK_DURATION_MS) follows from the lock and stalled-check timings,
    // which takeover.test.ts checks; a stopwatch here would measure the machine's load.
    await waitFor(
      'the survivor to resume the job',
      () => guildState(harness.sandbox, STATION).roles.length > fixtureRoles + createdBeforeKill,
      30_000,
    );

    const outcome = await jobs.finished(jobId, 30_000);
    expect(outcome.state).toBe('completed');
    expect(outcome.job.attemptsStarted).toBeGreaterThanOrEqual(2);

    // The final state of one clean run: exactly one role per target, each recorded once.
    const roles = guildState(harness.sandbox, STATION).roles;
    expect(roles.length).toBe(fixtureRoles + job.names.length);
    const created = roles.filter((role) => job.names.includes(role.name));
    expect(created.map((role) => role.name).sort()).toEqual(job.names);
    const recorded = (await job.recorded(harness)).filter((id): id is string => id !== null);
    expect(recorded.sort()).toEqual(created.map((role) => role.id).sort());
  });
});
