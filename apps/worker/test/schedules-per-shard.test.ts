/**
 * The scheduler check of a process covers only its shards and, between full syncs, reads no
 * configured guild: it syncs a shard in full when it takes it (or its marker in Redis is gone),
 * reading only that shard's guilds from Postgres and writing only that shard's queue.
 */
import { jobSchedulerIdFor, redisKeyPrefix, schedulesSyncedKey, shardOfGuild } from '@spacecadet/contract';
import { seasonScheduleGuilds } from '@spacecadet/db/queries/leveling/seasons';
import { levelingSettings, personalityConfigs } from '@spacecadet/db/schema';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerDeps } from '../src/deps.ts';
import { personalityRefreshSchedule } from '../src/features/personality-roles/schedule.ts';
import { checkSchedules } from '../src/jobs/schedules.ts';
import { FAR_ORBIT, type Harness, jobQueue, SANDBOX_IDS, STATION, startHarness } from './helpers.ts';

let harness: Harness;
let jobs: ReturnType<typeof jobQueue>;
let redis: Redis;

beforeAll(async () => {
  harness = await startHarness();
  jobs = jobQueue(harness, 2);
  redis = new Redis(harness.redis.url, { keyPrefix: redisKeyPrefix(harness.redis.prefix) });
  await harness.database.db.insert(personalityConfigs).values([
    { guildId: STATION, assignChannelId: SANDBOX_IDS.channels.roles, configured: true },
    { guildId: FAR_ORBIT.guild, assignChannelId: FAR_ORBIT.channel, configured: true },
  ]);
});
afterAll(async () => {
  await jobs?.close();
  redis?.disconnect();
  await harness?.close();
});

describe('the scheduler check of one shard', () => {
  it("reads and writes only its shard's guilds, and reads no guild again until its marker is gone", async () => {
    expect([shardOfGuild(STATION, 2), shardOfGuild(FAR_ORBIT.guild, 2)]).toEqual([0, 1]);
    const deps = {
      db: harness.database.db,
      redis,
      queue: jobs.queues,
      logger: pino({ level: 'silent' }),
    } as unknown as WorkerDeps;
    const state = { syncedAt: new Map<number, number>() };
    const schedules = [personalityRefreshSchedule];
    const keys = async (shard: number) =>
      (await jobs.queues.forShard(shard).getJobSchedulers(0, -1)).map((scheduler) => scheduler.key);

    // Taking shard 1: a full sync of its guilds only (Far Orbit), in its queue only.
    expect(await checkSchedules(deps, schedules, [1], state)).toEqual({
      created: 1,
      removed: 0,
      rowsRead: 1,
      fullShards: [1],
    });
    expect(await keys(1)).toEqual([jobSchedulerIdFor('personality-roles.refresh', FAR_ORBIT.guild)]);
    expect(await keys(0)).toEqual([]);

    // The minute check: nothing read from Postgres.
    expect(await checkSchedules(deps, schedules, [1], state)).toEqual({
      created: 0,
      removed: 0,
      rowsRead: 0,
      fullShards: [],
    });

    // Redis lost the shard's keys (its schedulers and marker): the next check syncs it in full.
    await jobs.queues
      .forShard(1)
      .removeJobScheduler(jobSchedulerIdFor('personality-roles.refresh', FAR_ORBIT.guild));
    await redis.del(schedulesSyncedKey(1, 2));
    expect(await checkSchedules(deps, schedules, [1], state)).toMatchObject({ created: 1, fullShards: [1] });
    expect(await keys(1)).toEqual([jobSchedulerIdFor('personality-roles.refresh', FAR_ORBIT.guild)]);
  });

  it('filters the hand-written schedule queries by shard too', async () => {
    const db = harness.database.db;
    await db.insert(levelingSettings).values({ guildId: STATION, enabled: true, seasonMonths: 3 });
    expect(await seasonScheduleGuilds(db, { ids: [0], count: 2 })).toEqual([STATION]);
    expect(await seasonScheduleGuilds(db, { ids: [1], count: 2 })).toEqual([]);
    expect(await seasonScheduleGuilds(db, { ids: [], count: 2 })).toEqual([]);
    expect(await seasonScheduleGuilds(db)).toEqual([STATION]);
  });
});
