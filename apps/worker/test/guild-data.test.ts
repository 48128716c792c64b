import { once } from 'node:events';
import {
  guildChannelsCacheKey,
  guildMembershipCacheKey,
  jobIdFor,
  jobSchedulerIdFor,
  memberPicksKey,
  userGuildsCacheKey,
  xpBatchesKey,
  xpBatchKey,
  xpCooldownKey,
  xpDirtyGuildsKey,
  xpPendingKey,
  xpSlotGroup,
} from '@spacecadet/contract';
import { guildDeparture, tablesWithGuildId } from '@spacecadet/db/queries/guild-data';
import { writeXpBatch } from '@spacecadet/db/queries/member-xp';
import { guildConfigs, guildDepartures } from '@spacecadet/db/schema';
import { guildRowCounts, seedEveryGuildTable } from '@spacecadet/db/testing';
import { Events } from 'discord.js';
import { eq, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  type Harness,
  jobQueue,
  SANDBOX_IDS,
  STATION,
  startHarness,
  storedKey,
  waitFor,
} from './helpers.ts';

/**
 * A server's data on the real worker: `guild-data.delete` empties every guild_id table of the
 * schema (read from it: a table added later, e.g. by `pnpm gen feature`, is seeded and checked
 * without editing this file), every Redis key naming the guild and its job schedulers and jobs,
 * twice to the same end; the retention after the bot is removed, its restore on a re-add, the
 * daily purge, and an outage that records nothing.
 */
const GONE = '400000000000000777';
const KEPT = '400000000000000778';
const ORBIT = SANDBOX_IDS.guilds.orbit;
const NIA = SANDBOX_IDS.users.nia;

describe("a server's data", () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;
  let redis: Redis;
  const db = () => harness.database.db;

  beforeAll(async () => {
    harness = await startHarness();
    // Seeded before the worker starts: its schedule sync gives the guild its schedulers.
    await seedEveryGuildTable(harness.database.db, GONE);
    await seedEveryGuildTable(harness.database.db, KEPT);
    worker = await startWorker(harness.config({ DATA_RETENTION_DAYS: '7' }));
    jobs = jobQueue(harness);
    redis = new Redis(harness.redis.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await jobs?.close();
    await worker?.close();
    await harness?.close();
  });

  /** Every stored key naming the guild as a whole segment, but the job locks and BullMQ's. */
  async function keysOf(guildId: string): Promise<string[]> {
    const found = await redis.keys(storedKey(harness, `*${guildId}*`));
    return found.filter((key) => !key.includes(':job-lock:') && !key.includes(':bull:')).sort();
  }
  const schedulersOf = async (guildId: string) =>
    (await jobs.queue.getJobSchedulers(0, -1)).map((s) => s.key).filter((key) => key.endsWith(`.${guildId}`));
  const jobsOf = async (guildId: string) =>
    (await jobs.queue.getJobs(['waiting', 'delayed', 'prioritized', 'completed', 'failed']))
      .filter((job) => job?.data.guild_id === guildId && !job.name.startsWith('guild-data.'))
      .map((job) => job.id);

  async function seedRedis(guildId: string): Promise<void> {
    const batch = `${guildId}.in-flight`;
    await redis
      .multi()
      .set(storedKey(harness, guildChannelsCacheKey(guildId)), '[]')
      .set(storedKey(harness, guildMembershipCacheKey(guildId, NIA)), '1')
      .hset(storedKey(harness, memberPicksKey('color-roles', guildId, NIA)), 'd:colors', '1')
      .set(storedKey(harness, xpCooldownKey(guildId, NIA)), '1')
      .hset(storedKey(harness, xpPendingKey(guildId)), `${NIA}:x`, '20', `${NIA}:m`, '1')
      .sadd(storedKey(harness, xpDirtyGuildsKey(xpSlotGroup(guildId))), guildId)
      // A batch a flusher took a moment ago (not stale, so no other process takes it over).
      .hset(storedKey(harness, xpBatchKey(batch)), `${NIA}:x`, '30', `${NIA}:m`, '1')
      .zadd(storedKey(harness, xpBatchesKey(xpSlotGroup(guildId))), Date.now() + 3_600_000, batch)
      .set(storedKey(harness, userGuildsCacheKey(NIA)), '[]')
      .exec();
    // A pending job of the guild (delayed, so it waits) besides its schedulers.
    await jobs.queue.add(
      'leveling.sync-roles',
      { guild_id: guildId, requested_by: null },
      { jobId: jobIdFor('leveling.sync-roles', guildId), delay: 3_600_000 },
    );
  }

  it('deletes every row, Redis key, scheduler and job of the guild, and nothing of another; twice, same end', async () => {
    await seedRedis(GONE);
    await seedRedis(KEPT);
    // The worker's start gave the seeded guild its schedulers (history, role menus…).
    await waitFor('schedulers of the seeded guild', async () =>
      (await schedulersOf(GONE)).length > 0 ? true : undefined,
    );
    expect(await keysOf(GONE)).not.toEqual([]);
    expect(await jobsOf(GONE)).not.toEqual([]);

    for (const run of [1, 2]) {
      const job = await jobs.add('guild-data.delete', GONE);
      const done = await jobs.finished(job.id as string);
      expect({ run, state: done.state, error: done.error }).toEqual({
        run,
        state: 'completed',
        error: undefined,
      });

      const counts = await guildRowCounts(db(), GONE);
      for (const name of tablesWithGuildId()) {
        // Every table with a guild_id column, read from the schema: none left out.
        // bot_guilds mirrors Discord (the bot is not in this made-up guild): not the deletion's.
        // xp_flush_batches is the flush's record, which the deletion adds to (GUILD_TABLES_KEPT).
        if (name === 'bot_guilds' || name === 'xp_flush_batches') continue;
        expect({ name, rows: counts[name] }).toEqual({ name, rows: 0 });
      }
      expect(await keysOf(GONE)).toEqual([]);
      expect(await schedulersOf(GONE)).toEqual([]);
      expect(await jobsOf(GONE)).toEqual([]);
      expect(await redis.sismember(storedKey(harness, xpDirtyGuildsKey(xpSlotGroup(GONE))), GONE)).toBe(0);
    }
    // The XP batch a flusher held in memory is not written back after the deletion.
    const late = await writeXpBatch(db(), {
      batchId: `${GONE}.in-flight`,
      guildId: GONE,
      day: '2026-11-28',
      members: [
        { userId: NIA, xp: 30, messages: 1, earned: 1, username: null, avatar: null, channelId: null },
      ],
      levelUpLeaseMs: 1_000,
    });
    expect(late.applied).toBe(false);
    expect((await guildRowCounts(db(), GONE)).member_xp).toBe(0);

    // The other guild keeps its data (the worker acts on some of it meanwhile: its buffered XP
    // is flushed, its level-ups delivered), its keys, its jobs.
    const kept = await guildRowCounts(db(), KEPT);
    expect(kept).toMatchObject({ guild_configs: 1, guild_history: 1, role_menus: 1, colors: 1 });
    expect(kept.member_xp).toBeGreaterThanOrEqual(1);
    expect((await keysOf(KEPT)).length).toBeGreaterThan(4);
    expect(await jobsOf(KEPT)).not.toEqual([]);
    expect(await redis.exists(storedKey(harness, userGuildsCacheKey(NIA)))).toBe(1);
  });

  it('an outage (guild unavailable) records no departure', async () => {
    // A sandbox reset sends GUILD_DELETE {unavailable: true} for the guilds the bot stays in, then GUILD_CREATE.
    const unavailable = once(worker.client, Events.GuildUnavailable);
    const back = once(worker.client, Events.GuildAvailable);
    await fetch(`${harness.sandbox.url}/_sandbox/reset`, { method: 'POST' });
    await unavailable;
    await back;
    expect(await guildDeparture(db(), STATION)).toBeNull();
    expect(await guildDeparture(db(), ORBIT)).toBeNull();
  });

  it('keeps a removed guild 7 days (DATA_RETENTION_DAYS), restores it on a re-add, purges it when due', async () => {
    await db()
      .insert(guildConfigs)
      .values({ guildId: ORBIT, data: { color_roles_mode: 'basic' } });
    const sandbox = control(harness.sandbox);
    await sandbox.botRest('DELETE', `/users/@me/guilds/${ORBIT}`);
    const departure = await waitFor('departure recorded', () =>
      guildDeparture(db(), ORBIT).then((row) => row ?? undefined),
    );
    const days = (departure.purgeAfter.getTime() - departure.leftAt.getTime()) / (24 * 3600_000);
    expect(Math.round(days)).toBe(7);
    expect((await guildRowCounts(db(), ORBIT)).guild_configs).toBe(1);
    await waitFor('the purge scheduled', async () =>
      (await schedulersOf(ORBIT)).includes(jobSchedulerIdFor('guild-data.purge', ORBIT)) ? true : undefined,
    );

    // Not due yet: the purge keeps it.
    const early = await jobs.finished((await jobs.add('guild-data.purge', ORBIT)).id as string);
    expect(early.state).toBe('completed');
    expect((await guildRowCounts(db(), ORBIT)).guild_configs).toBe(1);

    // Re-added: the record goes, the data stays.
    expect(await sandbox.installBot(ORBIT, SANDBOX_IDS.users.rex)).toBeLessThan(400);
    await waitFor('departure cleared', async () =>
      (await guildDeparture(db(), ORBIT)) === null ? true : undefined,
    );
    expect((await guildRowCounts(db(), ORBIT)).guild_configs).toBe(1);

    // Removed again, and its retention over: the daily purge deletes it all, then its record.
    await sandbox.botRest('DELETE', `/users/@me/guilds/${ORBIT}`);
    await waitFor('departure recorded again', () =>
      guildDeparture(db(), ORBIT).then((row) => row ?? undefined),
    );
    await db()
      .update(guildDepartures)
      .set({ purgeAfter: sql`now() - interval '1 minute'` })
      .where(eq(guildDepartures.guildId, ORBIT));
    const purged = await jobs.finished((await jobs.add('guild-data.purge', ORBIT)).id as string);
    expect({ state: purged.state, error: purged.error }).toEqual({ state: 'completed', error: undefined });
    expect(Object.values(await guildRowCounts(db(), ORBIT)).every((n) => n === 0)).toBe(true);
    expect(await guildDeparture(db(), ORBIT)).toBeNull();
    expect(await schedulersOf(ORBIT)).toEqual([]);
  });
});
