import { type GuildJobPayload, JOB_NAMES, jobSchedulerIdFor } from '@spacecadet/contract';
import { SLASH_COMMANDS } from '@spacecadet/core';
import { Events } from 'discord.js';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerDeps } from '../src/deps.ts';
import { onGateway, type WorkerFeature } from '../src/features/feature.ts';
import { hostFeatures } from '../src/features/host.ts';
import { FEATURES } from '../src/features/index.ts';
import { presenceFeature } from '../src/features/presence/index.ts';
import { notSupported } from '../src/jobs/not-supported.ts';
import { type FeatureSchedule, syncSchedules } from '../src/jobs/schedules.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { control, type Harness, jobQueue, SANDBOX_IDS, startHarness, waitFor } from './helpers.ts';

const { station, orbit, quiet } = SANDBOX_IDS.guilds;

describe('hostFeatures', () => {
  it('refuses two handlers for one job name', () => {
    const twin: WorkerFeature = {
      name: 'twin',
      jobs: { 'color-roles.reset': notSupported('color-roles.reset') },
    };
    expect(() => hostFeatures([...FEATURES, twin])).toThrow(/color-roles\.reset has two handlers/);
  });

  it('refuses a schedule whose job has no handler', () => {
    const schedule: FeatureSchedule = {
      job: 'leveling.daily-overview',
      repeat: { pattern: '0 0 * * *' },
      guilds: async () => [],
    };
    expect(() => hostFeatures([{ name: 'orphan', schedules: [schedule] }])).toThrow(/has no job handler/);
  });

  it('refuses a slash command declared twice', () => {
    const colors = FEATURES.flatMap((feature) => ('commands' in feature ? feature.commands : []));
    expect(() => hostFeatures([...FEATURES, { name: 'copy', commands: colors }])).toThrow(/\/colors/);
  });

  it('hands every job name of the contract to exactly one feature', () => {
    const host = hostFeatures(FEATURES);
    expect([...host.jobs.keys()].sort()).toEqual([...JOB_NAMES].sort());
    expect(host.components.map((route) => route.prefix)).toEqual(['color:', 'personality:', 'menu:']);
    // The feature list's commands, in its order (today /colors, /rank, /leaderboard, /xp).
    expect(host.commands.map((command) => command.data.name)).toEqual(
      SLASH_COMMANDS.map((command) => command.name),
    );
    expect(host.commands.length).toBeGreaterThanOrEqual(4);
  });
});

/**
 * A feature declared the way every feature is, run by the real worker against the sandbox:
 * its gateway handlers, its schedule and its shutdown hook must all be called.
 */
describe("a feature's events, schedule and shutdown hook", () => {
  let harness: Harness;
  let worker: RunningWorker | undefined;
  let jobs: ReturnType<typeof jobQueue>;
  const logs: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => logs.push(JSON.parse(line)) });
  const seen = {
    readyShards: [] as number[],
    scheduledRuns: [] as GuildJobPayload[],
    shutdown: [] as Array<{ clientReady: boolean; dbAnswered: boolean }>,
  };
  let wantedGuilds: string[] = [station];

  const probe: WorkerFeature = {
    name: 'probe',
    jobs: {
      'personality-roles.refresh': async ({ payload }) => {
        seen.scheduledRuns.push(payload);
        return { ok: true, summary: 'probed' };
      },
    },
    events: [
      onGateway(Events.ShardReady, 'record a ready shard', (_deps, shardId) => {
        seen.readyShards.push(shardId);
      }),
      // Both ways a handler can fail: the host logs them, the process and the others carry on.
      onGateway(Events.ShardReady, 'explode synchronously', () => {
        throw new Error('sync boom');
      }),
      onGateway(Events.ShardReady, 'explode asynchronously', async () => {
        throw new Error('async boom');
      }),
    ],
    schedules: [
      {
        job: 'personality-roles.refresh',
        repeat: { everyMs: 300 },
        guilds: async () => wantedGuilds,
      },
    ],
    async shutdown(deps) {
      const answer = await deps.db.execute(sql`select 1 as one`);
      seen.shutdown.push({ clientReady: deps.client.isReady(), dbAnswered: answer.rows.length === 1 });
    },
  };
  const schedulerIds = async () =>
    (await jobs.queue.getJobSchedulers(0, -1)).map((scheduler) => scheduler.key).sort();
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    harness = await startHarness();
    jobs = jobQueue(harness);
    // Left from an earlier configuration: Other Orbit no longer wants the schedule.
    await jobs.queue.upsertJobScheduler(
      jobSchedulerIdFor('personality-roles.refresh', orbit),
      { every: 60_000 },
      { name: 'personality-roles.refresh', data: { guild_id: orbit, requested_by: null } },
    );
    worker = await startWorker(harness.config(), { logger, features: [presenceFeature, probe] });
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await worker?.close();
    await jobs?.close();
    await harness?.close();
  });

  it('syncs the schedulers at start: the wanted guild gets one, a stale one is removed', async () => {
    expect(await schedulerIds()).toEqual([jobSchedulerIdFor('personality-roles.refresh', station)]);
  });

  it('runs the scheduled job for its guild, again and again', async () => {
    const ofStation = () => seen.scheduledRuns.filter((payload) => payload.guild_id === station);
    await waitFor('two scheduled runs', () => ofStation().length >= 2);
    expect(ofStation()[0]).toEqual({ guild_id: station, requested_by: null });
  });

  it('calls its gateway handlers, and logs the ones that fail without stopping the others', async () => {
    expect(seen.readyShards).toEqual([0]);
    await waitFor('both failures logged', () => {
      const failures = logs.filter((line) => line.feature === 'probe' && line.level === 50);
      return failures.length >= 2 ? failures : undefined;
    });
    const messages = logs.filter((line) => line.feature === 'probe').map((line) => line.msg);
    expect(messages).toContain('explode synchronously failed');
    expect(messages).toContain('explode asynchronously failed');
    expect(unhandled).toEqual([]);
  });

  it("removes a guild's schedulers when the bot leaves it", async () => {
    await control(harness.sandbox).installBot(quiet);
    await waitFor('Quiet Quarters joined', () => worker?.client.guilds.cache.has(quiet));
    wantedGuilds = [station, quiet];
    await jobs.queue.upsertJobScheduler(
      jobSchedulerIdFor('personality-roles.refresh', quiet),
      { every: 60_000 },
      { name: 'personality-roles.refresh', data: { guild_id: quiet, requested_by: null } },
    );
    await control(harness.sandbox).botRest('DELETE', `/users/@me/guilds/${quiet}`);
    await waitFor(
      'the scheduler of Quiet Quarters to go',
      async () => !(await schedulerIds()).includes(jobSchedulerIdFor('personality-roles.refresh', quiet)),
    );
    expect(await schedulerIds()).toEqual([jobSchedulerIdFor('personality-roles.refresh', station)]);
  });

  it('calls its shutdown hook once, after the gateway closed and before Postgres did', async () => {
    await worker?.close();
    worker = undefined;
    expect(seen.shutdown).toEqual([{ clientReady: false, dbAnswered: true }]);
  });
});

describe('syncSchedules', () => {
  let harness: Harness;
  let jobs: ReturnType<typeof jobQueue>;
  beforeAll(async () => {
    harness = await startHarness();
    jobs = jobQueue(harness);
  });
  afterAll(async () => {
    await jobs?.close();
    await harness?.close();
  });

  it('leaves a scheduler that already repeats as declared alone, and updates one that does not', async () => {
    const deps = { queue: jobs.queues } as unknown as WorkerDeps;
    const id = jobSchedulerIdFor('personality-roles.refresh', station);
    const schedule = (everyMs: number): FeatureSchedule => ({
      job: 'personality-roles.refresh',
      repeat: { everyMs },
      guilds: async () => [station],
    });
    // Made by an earlier start; the marker shows whether a sync wrote it again.
    await jobs.queue.upsertJobScheduler(
      id,
      { every: 600_000 },
      { name: 'personality-roles.refresh', data: { guild_id: station, requested_by: 'marker' } },
    );
    const template = async () =>
      (await jobs.queue.getJobSchedulers(0, -1)).find((scheduler) => scheduler.key === id);

    expect(await syncSchedules(deps, [schedule(600_000)], [0])).toEqual({
      created: 0,
      removed: 0,
      rowsRead: 1,
    });
    expect((await template())?.template?.data).toEqual({ guild_id: station, requested_by: 'marker' });

    expect(await syncSchedules(deps, [schedule(300_000)], [0])).toEqual({
      created: 0,
      removed: 0,
      rowsRead: 1,
    });
    const updated = await template();
    expect(updated?.every).toBe(300_000);
    expect(updated?.template?.data).toEqual({ guild_id: station, requested_by: null });
  });
});
