import { jobSchedulerIdFor } from '@spacecadet/contract';
import { addMonths, totalXpForLevel } from '@spacecadet/core';
import { LEVELING_SETUP_CHANNEL } from '@spacecadet/db/queries/leveling';
import {
  guildHistory,
  levelingRoles,
  levelingSeasonMembers,
  levelingSeasons,
  levelingSettings,
  memberDailyXp,
  memberXp,
  pendingLevelUps,
} from '@spacecadet/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { levelingSetups } from '../src/features/leveling/setup.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  guildState,
  type Harness,
  jobQueue,
  memberRoles,
  SANDBOX_IDS,
  STATION,
  setupChangesHeard,
  startHarness,
  waitFor,
} from './helpers.ts';
import { removeRewardRoles, runJob, setStationLeveling, stationMember } from './leveling-kit.ts';

const { ada, mo } = SANDBOX_IDS.users;
const { general, levelUps } = SANDBOX_IDS.channels;

/**
 * Seasons that end by themselves (`season_months`), with the worker against the sandbox: the
 * hourly check ends a due season once, records it in History, and the reward roles members
 * keep (`season_keep_rewards`) survive their next level-up and Sync Roles.
 */
describe('seasons on a schedule', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;

  const db = () => harness.database.db;
  const run = (name: 'leveling.season-end' | 'leveling.sync-roles') => runJob(jobs, name);
  const setSettings = (values: Partial<typeof levelingSettings.$inferInsert>) =>
    setStationLeveling(harness, values);
  const member = (userId: string) => stationMember(harness, userId);
  /** Reward roles made in the sandbox by Sync Roles, by name; ada at level 5 holds both. */
  const adaAtFiveWithRewards = async () => {
    for (const [roleName, levelRequired] of [
      ['Starter', 1],
      ['Gold', 5],
    ] as const)
      await db().insert(levelingRoles).values({ guildId: STATION, roleName, levelRequired });
    await db()
      .insert(memberXp)
      .values({ guildId: STATION, userId: ada, xp: totalXpForLevel(5), level: 5 });
    await run('leveling.sync-roles');
    const rows = await db().select().from(levelingRoles).where(eq(levelingRoles.guildId, STATION));
    const ids = Object.fromEntries(rows.map((row) => [row.roleName, row.roleId ?? '']));
    expect(memberRoles(harness.sandbox, STATION, ada)).toEqual(
      expect.arrayContaining([ids.Starter, ids.Gold]),
    );
    return ids;
  };
  const monthsAgo = (months: number) => addMonths(new Date(Date.now() - 3_600_000), -months);
  const seasons = () => db().select().from(levelingSeasons).where(eq(levelingSeasons.guildId, STATION));

  beforeAll(async () => {
    harness = await startHarness();
    worker = await startWorker(harness.config());
    jobs = jobQueue(harness);
  });
  afterEach(async () => {
    await removeRewardRoles(harness);
    for (const table of [memberXp, memberDailyXp, pendingLevelUps, guildHistory]) await db().delete(table);
    await db().delete(levelingSeasonMembers);
    await db().delete(levelingSeasons);
    await db().delete(levelingSettings);
  });
  afterAll(async () => {
    await jobs?.close();
    await worker?.close();
    await harness?.close();
  });

  it('ends a due season once, named and in History; kept rewards outlast a level-up and Sync Roles', async () => {
    const started = monthsAgo(3);
    await setSettings({ seasonMonths: 3, seasonStartedAt: started });
    const ids = await adaAtFiveWithRewards();
    await db().insert(memberXp).values({ guildId: STATION, userId: mo, xp: 300, level: 1 });

    const first = await run('leveling.season-end');
    expect(first.summary).toBe(
      'Ended the season "Season 1" on schedule: 2 members archived, reward roles kept.',
    );
    const [season] = await seasons();
    expect(season).toMatchObject({ name: 'Season 1', automatic: true, keepRewards: true, members: 2 });
    expect(season?.startedAt?.getTime()).toBe(started.getTime());
    expect(season?.top.map((standing) => standing.user_id)).toEqual([ada, mo]);
    expect(await member(ada)).toMatchObject({ xp: 0, level: 0, keptLevel: 5 });
    const [entry] = await db().select().from(guildHistory).where(eq(guildHistory.guildId, STATION));
    expect(entry).toMatchObject({
      action: 'leveling.season_end',
      undoKind: 'snapshot',
      snapshot: { season_id: season?.id },
    });

    // The same hour again (a retry, a second worker): the season began just now, nothing ends.
    expect((await run('leveling.season-end')).summary).toMatch(/^The season ends by itself on /);
    expect(await seasons()).toHaveLength(1);

    // ada levels up to 1 in the new season: the announcement comes after her rewards were
    // brought in line, and Gold (kept from level 5) is still hers.
    await setSettings({
      xpMin: 100,
      xpMax: 100,
      messageCooldownSec: 0,
      announcementChannel: levelUps,
      levelUpDestination: 'channel',
    });
    await setupChangesHeard(harness, levelingSetups, LEVELING_SETUP_CHANNEL);
    await control(harness.sandbox).postMessage({
      guild_id: STATION,
      channel_id: general,
      author_id: ada,
      content: 'a new season',
    });
    await waitFor('the level-up announced', () =>
      (guildState(harness.sandbox, STATION).channels.find((c) => c.id === levelUps)?.messages ?? []).some(
        (message) => message.content.includes(`<@${ada}>`),
      ),
    );
    expect((await member(ada)).level).toBe(1);
    expect(memberRoles(harness.sandbox, STATION, ada)).toEqual(
      expect.arrayContaining([ids.Starter, ids.Gold]),
    );
    await run('leveling.sync-roles');
    expect(memberRoles(harness.sandbox, STATION, ada)).toEqual(
      expect.arrayContaining([ids.Starter, ids.Gold]),
    );
  });

  it('with season_keep_rewards off the reward roles go, kept ones from an earlier season too', async () => {
    await setSettings({ seasonMonths: 1, seasonStartedAt: monthsAgo(1), seasonKeepRewards: false });
    const ids = await adaAtFiveWithRewards();
    // Kept from an earlier season: level 7's rewards, no XP since.
    await db().insert(memberXp).values({ guildId: STATION, userId: mo, xp: 0, level: 0, keptLevel: 7 });

    const outcome = await run('leveling.season-end');
    expect(outcome.summary).toMatch(
      /^Ended the season "Season 1" on schedule: 1 member archived, reward roles removed\./,
    );
    expect(await member(ada)).toMatchObject({ xp: 0, level: 0, keptLevel: 0 });
    expect(await member(mo)).toMatchObject({ keptLevel: 0 });
    const held = memberRoles(harness.sandbox, STATION, ada);
    expect(held).not.toContain(ids.Gold);
    expect(held).not.toContain(ids.Starter);
  });

  it('ends nothing before the months have passed, without a schedule, or with leveling off', async () => {
    await setSettings({ seasonMonths: 2, seasonStartedAt: monthsAgo(1) });
    await db().insert(memberXp).values({ guildId: STATION, userId: mo, xp: 300, level: 1 });
    expect((await run('leveling.season-end')).summary).toMatch(/^The season ends by itself on /);
    await setSettings({ seasonMonths: null, seasonStartedAt: monthsAgo(5) });
    expect((await run('leveling.season-end')).summary).toMatch(/only by hand/);
    await db()
      .update(levelingSettings)
      .set({ enabled: false, seasonMonths: 1 })
      .where(eq(levelingSettings.guildId, STATION));
    expect((await run('leveling.season-end')).summary).toMatch(/only by hand/);
    expect(await seasons()).toEqual([]);
    expect((await member(mo)).xp).toBe(300);
  });

  it('keeps the hourly season check in step with the settings', async () => {
    const scheduler = jobSchedulerIdFor('leveling.season-end', STATION);
    const hasScheduler = async () =>
      (await jobs.queue.getJobSchedulers(0, -1)).some((found) => found.key === scheduler);
    await setSettings({ seasonMonths: 6 });
    await setupChangesHeard(harness, levelingSetups, LEVELING_SETUP_CHANNEL);
    await waitFor('the season check scheduled', hasScheduler);
    const [found] = (await jobs.queue.getJobSchedulers(0, -1)).filter((s) => s.key === scheduler);
    expect(found?.pattern).toBe('10 * * * *');
    await setSettings({ seasonMonths: null });
    await setupChangesHeard(harness, levelingSetups, LEVELING_SETUP_CHANNEL);
    await waitFor('the season check to go', async () => !(await hasScheduler()));
  });
});
