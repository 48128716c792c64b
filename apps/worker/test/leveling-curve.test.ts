import { jobSchedulerIdFor, type LevelCurve } from '@spacecadet/contract';
import { levelForTotalXp, totalXpForLevel } from '@spacecadet/core';
import { LEVELING_SETUP_CHANNEL } from '@spacecadet/db/queries/leveling';
import { changeMemberXp, importMemberXp } from '@spacecadet/db/queries/xp-tools';
import {
  guildHistory,
  levelingRoles,
  levelingSettings,
  memberDailyXp,
  memberXp,
  pendingLevelUps,
} from '@spacecadet/db/schema';
import { and, eq, sql } from 'drizzle-orm';
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

const { ada, mo, nia, rex } = SANDBOX_IDS.users;
const general = SANDBOX_IDS.channels.general;
const DAY_MS = 86_400_000;

/**
 * The admin's own numbers, with the worker against the sandbox: each message's XP within
 * xp_min..xp_max (multiplier applied), a curve change moving levels and reward roles, and the
 * daily XP decay.
 */
describe("the server's XP range, level curve and decay", () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;

  const db = () => harness.database.db;
  const run = (name: 'leveling.recompute-levels' | 'leveling.decay' | 'leveling.sync-roles') =>
    runJob(jobs, name);
  const setSettings = (values: Partial<typeof levelingSettings.$inferInsert>) =>
    setStationLeveling(harness, values);
  const giveXp = (userId: string, xp: number, extra: Partial<typeof memberXp.$inferInsert> = {}) =>
    db()
      .insert(memberXp)
      .values({ guildId: STATION, userId, xp, level: levelForTotalXp(xp), ...extra });
  const member = (userId: string) => stationMember(harness, userId);
  /** Creates the reward roles in the sandbox (Sync Roles) and answers their ids by name. */
  const rewards = async (levels: Record<string, number>) => {
    for (const [roleName, levelRequired] of Object.entries(levels))
      await db().insert(levelingRoles).values({ guildId: STATION, roleName, levelRequired });
    await run('leveling.sync-roles');
    const rows = await db().select().from(levelingRoles).where(eq(levelingRoles.guildId, STATION));
    return Object.fromEntries(rows.map((row) => [row.roleName, row.roleId ?? '']));
  };
  const decayEntries = () =>
    db()
      .select()
      .from(guildHistory)
      .where(and(eq(guildHistory.guildId, STATION), eq(guildHistory.action, 'leveling.decay')));
  const inactiveSince = (days: number) => new Date(Date.now() - days * DAY_MS);

  beforeAll(async () => {
    harness = await startHarness();
    worker = await startWorker(harness.config());
    jobs = jobQueue(harness);
  });
  afterEach(async () => {
    await removeRewardRoles(harness);
    await db().delete(memberXp);
    await db().delete(memberDailyXp);
    await db().delete(pendingLevelUps);
    await db().delete(guildHistory);
    await db().delete(levelingSettings);
  });
  afterAll(async () => {
    await jobs?.close();
    await worker?.close();
    await harness?.close();
  });

  it('each message earns from xp_min to xp_max times the multiplier, spread over the range', async () => {
    await setSettings({ xpMin: 10, xpMax: 20, xpMultiplier: 2, messageCooldownSec: 0 });
    const sandbox = control(harness.sandbox);
    const earned: number[] = [];
    let before = 0;
    for (let i = 1; i <= 30; i++) {
      await sandbox.postMessage({
        guild_id: STATION,
        channel_id: general,
        author_id: nia,
        content: `hi ${i}`,
      });
      // One message at a time: each flush holds exactly this message's XP.
      const row = await waitFor(`message ${i} counted`, async () => {
        const [found] = await db()
          .select()
          .from(memberXp)
          .where(and(eq(memberXp.guildId, STATION), eq(memberXp.userId, nia)));
        if (found?.messageCount !== i) throw new Error(`counted ${found?.messageCount ?? 0}`);
        return found;
      });
      earned.push(row.xp - before);
      before = row.xp;
    }
    for (const xp of earned) {
      expect(xp).toBeGreaterThanOrEqual(20);
      expect(xp).toBeLessThanOrEqual(40);
    }
    // 30 draws from 11 amounts: both halves of the range come up (all in one half: p < 1e-7).
    expect(earned.some((xp) => xp < 30)).toBe(true);
    expect(earned.some((xp) => xp > 30)).toBe(true);
    expect(new Set(earned).size).toBeGreaterThanOrEqual(3);
  });

  it("XP earned, set and imported and /rank and /leaderboard follow the server's curve", async () => {
    await setSettings({
      xpMin: 40,
      xpMax: 40,
      messageCooldownSec: 0,
      levelCurve: { kind: 'table', xp: [30] },
    });
    await setupChangesHeard(harness, levelingSetups, LEVELING_SETUP_CHANNEL);
    const sandbox = control(harness.sandbox);
    for (const content of ['one', 'two']) {
      await sandbox.postMessage({ guild_id: STATION, channel_id: general, author_id: mo, content });
    }
    // 80 XP: level 2 at 30 XP a level (the default curve would say 0).
    await waitFor('mo at level 2', async () => {
      const row = await member(mo).catch(() => null);
      if (row?.xp !== 80 || row.level !== 2) throw new Error(`has ${row?.xp ?? 0} XP, level ${row?.level}`);
      return row;
    });
    expect((await changeMemberXp(db(), STATION, ada, { set: 95 })).level).toBe(3);
    await importMemberXp(db(), STATION, [{ userId: nia, xp: 300, username: 'Nia' }], 'replace');
    expect((await member(nia)).level).toBe(10);

    const ask = async (name: string, userId: string) => {
      const response = await fetch(`${harness.sandbox.url}/_sandbox/commands`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ guild_id: STATION, channel_id: general, user_id: userId, name }),
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { response: { data?: { content?: string } } | null }).response?.data
        ?.content;
    };
    expect(await ask('rank', mo)).toBe(
      `**Rank #3**: <@${mo}>\nLevel 2 · 20 / 30 XP to level 3 · 80 XP in total`,
    );
    expect((await ask('leaderboard', mo))?.split('\n').slice(1)).toEqual([
      `1. <@${nia}>: level 10 · 300 XP`,
      `2. <@${ada}>: level 3 · 95 XP`,
      `3. <@${mo}>: level 2 · 80 XP`,
    ]);
  });

  it('a new curve moves every level and reward roles follow, announcing nothing; a rerun changes nothing', async () => {
    const ids = await rewards({ Bronze: 1, Gold: 5 });
    // Under the default curve: ada level 5 (1,150 XP), mo level 1 (250 XP).
    await giveXp(ada, totalXpForLevel(5));
    await giveXp(mo, 250);
    await run('leveling.sync-roles');
    expect(memberRoles(harness.sandbox, STATION, ada)).toEqual(
      expect.arrayContaining([ids.Bronze, ids.Gold]),
    );
    expect(memberRoles(harness.sandbox, STATION, mo)).not.toContain(ids.Gold);

    // A level-up to 5 not yet delivered (held by a writer): gone with the level.
    await db()
      .insert(pendingLevelUps)
      .values({
        guildId: STATION,
        userId: ada,
        level: 5,
        previousLevel: 4,
        claimedUntil: new Date(Date.now() + DAY_MS),
      });
    // A table: 1,000 XP a level. ada drops to level 1 (Gold goes), mo stays at 0 (Bronze goes).
    const table: LevelCurve = { kind: 'table', xp: [1000] };
    await setSettings({ levelCurve: table });
    const first = await run('leveling.recompute-levels');
    expect(await db().select().from(pendingLevelUps)).toEqual([]);
    expect(first.summary).toMatch(/2 members changed level/);
    expect((await member(ada)).level).toBe(1);
    expect((await member(mo)).level).toBe(0);
    expect(memberRoles(harness.sandbox, STATION, ada)).toContain(ids.Bronze);
    expect(memberRoles(harness.sandbox, STATION, ada)).not.toContain(ids.Gold);

    // A quadratic of 50 XP a level: mo (250 XP) reaches 5 and gets Gold; ada reaches 23.
    await setSettings({ levelCurve: { kind: 'quadratic', a: 0, b: 0, c: 50 } });
    await run('leveling.recompute-levels');
    expect((await member(mo)).level).toBe(5);
    expect((await member(ada)).level).toBe(23);
    expect(memberRoles(harness.sandbox, STATION, mo)).toEqual(expect.arrayContaining([ids.Bronze, ids.Gold]));
    expect(memberRoles(harness.sandbox, STATION, ada)).toContain(ids.Gold);
    expect(await db().select().from(pendingLevelUps)).toEqual([]);
    const levelUps = SANDBOX_IDS.channels.levelUps;
    expect(
      guildState(harness.sandbox, STATION).channels.find((c) => c.id === levelUps)?.messages ?? [],
    ).toEqual([]);

    const again = await run('leveling.recompute-levels');
    expect(again.summary).toMatch(/every level already follows the curve/);
  });

  it("decay takes the week's share from inactive members only, never below their level's floor, once a week, recorded in History", async () => {
    await setSettings({
      xpDecay: { percent_per_week: 10, after_inactive_days: 7, below_level_floor: false },
    });
    const floor5 = totalXpForLevel(5); // 1,150
    await giveXp(ada, 1300, { lastMessageAt: inactiveSince(30) }); // 10% → 1,170
    await giveXp(mo, 1160, { lastMessageAt: inactiveSince(30) }); // 10% → 1,044, kept at 1,150
    await giveXp(nia, 1300, { lastMessageAt: inactiveSince(2) }); // active
    await giveXp(rex, 1300, { lastMessageAt: null }); // earned XP yesterday (voice or chat)
    const yesterday = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
    await db().insert(memberDailyXp).values({ guildId: STATION, userId: rex, day: yesterday, xp: 5 });

    const first = await run('leveling.decay');
    expect(first.summary).toMatch(/Decayed 140 XP from 2 inactive members/);
    expect((await member(ada)).xp).toBe(1170);
    expect((await member(mo)).xp).toBe(floor5);
    expect((await member(mo)).level).toBe(5);
    expect((await member(nia)).xp).toBe(1300);
    expect((await member(rex)).xp).toBe(1300);
    expect(await decayEntries()).toHaveLength(1);
    expect((await decayEntries())[0]?.summary).toMatch(/140 XP from 2 inactive members/);
    expect((await decayEntries())[0]?.undoKind).toBeNull();

    // The same day again (or any day within the week): nothing more, nothing recorded.
    const second = await run('leveling.decay');
    expect(second.summary).toMatch(/No inactive member was due/);
    expect((await member(ada)).xp).toBe(1170);
    expect(await decayEntries()).toHaveLength(1);

    // A week later: ada decays again, down to her level's floor.
    await db()
      .update(memberXp)
      .set({ decayedAt: sql`now() - interval '7 days'` })
      .where(eq(memberXp.userId, ada));
    await run('leveling.decay');
    expect((await member(ada)).xp).toBe(floor5);
    expect(await decayEntries()).toHaveLength(2);
  });

  it('decay below the floor when allowed: the level drops (table curve) and the reward role goes', async () => {
    const table: LevelCurve = { kind: 'table', xp: [100] };
    await setSettings({
      levelCurve: table,
      xpDecay: { percent_per_week: 50, after_inactive_days: 3, below_level_floor: true },
    });
    const ids = await rewards({ Bronze: 1, Gold: 5 });
    await giveXp(ada, 550, { level: 5, lastMessageAt: inactiveSince(10) });
    await run('leveling.sync-roles');
    expect(memberRoles(harness.sandbox, STATION, ada)).toContain(ids.Gold);

    const outcome = await run('leveling.decay');
    expect(outcome.summary).toMatch(/1 member dropped a level/);
    const after = await member(ada);
    expect(after.xp).toBe(275);
    expect(after.level).toBe(2);
    expect(after.rewardsDueAt).toBeNull();
    expect(memberRoles(harness.sandbox, STATION, ada)).toContain(ids.Bronze);
    expect(memberRoles(harness.sandbox, STATION, ada)).not.toContain(ids.Gold);
  });

  it('keeps the daily decay scheduler in step with the settings: decay set adds it, decay off removes it', async () => {
    const scheduler = jobSchedulerIdFor('leveling.decay', STATION);
    const hasScheduler = async () =>
      (await jobs.queue.getJobSchedulers(0, -1)).some((found) => found.key === scheduler);
    await setSettings({
      xpDecay: { percent_per_week: 5, after_inactive_days: 14, below_level_floor: false },
    });
    await waitFor('the decay scheduler', hasScheduler);
    const [found] = (await jobs.queue.getJobSchedulers(0, -1)).filter((s) => s.key === scheduler);
    expect(found?.pattern).toBe('30 0 * * *');
    await setSettings({ xpDecay: null });
    await waitFor('the decay scheduler to go', async () => !(await hasScheduler()));
  });

  it('decay off, or leveling off: the job takes nothing', async () => {
    await setSettings({ xpDecay: null });
    await giveXp(ada, 1300, { lastMessageAt: inactiveSince(30) });
    expect((await run('leveling.decay')).summary).toMatch(/XP decay is off/);
    expect((await member(ada)).xp).toBe(1300);
    expect(await decayEntries()).toEqual([]);
  });
});
