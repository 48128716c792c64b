import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadPeriodLeaderboard } from '../src/queries/leveling.ts';
import { levelingSeasonMembers, levelingSeasons, memberDailyXp, memberXp } from '../src/schema.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing.ts';

/** Boards for a period: this week and month from the daily rows, the season, and all time. */
const GUILD = '300000000000000031';
const OTHER = '300000000000000032';
const ADA = '400000000000000011';
const MO = '400000000000000012';
const KAI = '400000000000000013';
const LEFT = '400000000000000014';
// A Sunday: its week began on Monday 2026-11-23; its month on 2026-11-01.
const NOW = new Date('2026-11-29T18:00:00Z');
const PAGE = { limit: 10, offset: 0 };
let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase('db_leaderboard_periods');
});
afterAll(async () => {
  await testDb?.close();
});
beforeEach(async () => {
  await testDb.db.delete(memberXp);
  await testDb.db.delete(memberDailyXp);
  await testDb.db.delete(levelingSeasons);
  await testDb.db.insert(memberXp).values([
    { guildId: GUILD, userId: ADA, xp: 500, username: 'ada' },
    { guildId: GUILD, userId: MO, xp: 300, username: 'mo' },
    { guildId: GUILD, userId: KAI, xp: 0, username: 'kai' },
    { guildId: GUILD, userId: LEFT, xp: 900, username: 'gone', leftAt: new Date('2026-11-28T00:00:00Z') },
    { guildId: OTHER, userId: ADA, xp: 10_000 },
  ]);
  await testDb.db.insert(memberDailyXp).values([
    { guildId: GUILD, userId: ADA, day: '2026-11-22', xp: 400 }, // Sunday: last week, this month
    { guildId: GUILD, userId: ADA, day: '2026-11-23', xp: 40 }, // Monday: this week
    { guildId: GUILD, userId: MO, day: '2026-11-29', xp: 70 },
    { guildId: GUILD, userId: MO, day: '2026-10-31', xp: 200 }, // last month
    { guildId: GUILD, userId: KAI, day: '2026-11-24', xp: 0 },
    { guildId: GUILD, userId: LEFT, day: '2026-11-25', xp: 900 },
    { guildId: OTHER, userId: ADA, day: '2026-11-25', xp: 5_000 },
  ]);
});

const ranks = (board: Awaited<ReturnType<typeof loadPeriodLeaderboard>>) =>
  board.members.map(({ userId, xp, levelXp, rank }) => ({ userId, xp, levelXp, rank }));

describe('leaderboard periods', () => {
  it('ranks this week by the XP earned since Monday (UTC), members who left and 0 XP aside', async () => {
    const board = await loadPeriodLeaderboard(testDb.db, GUILD, 'week', PAGE, NOW);
    expect(ranks(board)).toEqual([
      { userId: MO, xp: 70, levelXp: 300, rank: 1 },
      { userId: ADA, xp: 40, levelXp: 500, rank: 2 },
    ]);
    expect(board.total).toBe(2);
  });

  it('ranks this month from its 1st, and pages keep the total', async () => {
    const board = await loadPeriodLeaderboard(testDb.db, GUILD, 'month', PAGE, NOW);
    expect(ranks(board)).toEqual([
      { userId: ADA, xp: 440, levelXp: 500, rank: 1 },
      { userId: MO, xp: 70, levelXp: 300, rank: 2 },
    ]);
    const second = await loadPeriodLeaderboard(testDb.db, GUILD, 'month', { limit: 1, offset: 1 }, NOW);
    expect(ranks(second)).toEqual([{ userId: MO, xp: 70, levelXp: 300, rank: 2 }]);
    expect(second.total).toBe(2);
    const past = await loadPeriodLeaderboard(testDb.db, GUILD, 'month', { limit: 5, offset: 5 }, NOW);
    expect(past).toEqual({ members: [], total: 2 });
  });

  it('ranks the season by current XP, and all time with every archived season', async () => {
    const season = await loadPeriodLeaderboard(testDb.db, GUILD, 'season', PAGE, NOW);
    expect(ranks(season).map((m) => [m.userId, m.xp])).toEqual([
      [ADA, 500],
      [MO, 300],
    ]);
    // No season ended yet: all time is the season.
    expect(await loadPeriodLeaderboard(testDb.db, GUILD, 'all', PAGE, NOW)).toEqual(season);

    const [ended] = await testDb.db
      .insert(levelingSeasons)
      .values({ guildId: GUILD, name: 'Autumn', members: 2 })
      .returning();
    await testDb.db.insert(levelingSeasonMembers).values([
      { seasonId: ended?.id ?? 0, guildId: GUILD, userId: MO, xp: 1_000, level: 5 },
      { seasonId: ended?.id ?? 0, guildId: GUILD, userId: KAI, xp: 50, level: 0 },
    ]);
    const all = await loadPeriodLeaderboard(testDb.db, GUILD, 'all', PAGE, NOW);
    expect(ranks(all)).toEqual([
      { userId: MO, xp: 1_300, levelXp: 300, rank: 1 },
      { userId: ADA, xp: 500, levelXp: 500, rank: 2 },
      { userId: KAI, xp: 50, levelXp: 0, rank: 3 },
    ]);
    expect(all.total).toBe(3);
    const beyond = await loadPeriodLeaderboard(testDb.db, GUILD, 'all', { limit: 10, offset: 10 }, NOW);
    expect(beyond).toEqual({ members: [], total: 3 });
  });
});
