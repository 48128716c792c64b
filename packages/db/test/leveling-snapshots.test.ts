import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { restoreXpRows, type XpRowsSnapshot } from '../src/queries/leveling-snapshots.ts';
import { memberDailyXp, memberXp } from '../src/schema.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing.ts';

/** How an undo puts kept XP rows back over the rows members have at undo time. */
const GUILD = '300000000000000011';
const BACK = '400000000000000001';
const AHEAD = '400000000000000002';
const GONE = '400000000000000003';
let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase('db_leveling_snapshots');
});
afterAll(async () => {
  await testDb?.close();
});
beforeEach(async () => {
  await testDb.db.delete(memberXp);
  await testDb.db.delete(memberDailyXp);
});

const kept = (userId: string, xp: number, level: number) => ({
  userId,
  xp,
  level,
  messageCount: 40,
  lastMessageAt: '2026-11-20T10:00:00.000Z',
  username: 'old name',
  avatar: null,
  leftAt: '2026-11-21T10:00:00.000Z',
});

/** What Prune leavers kept: three leavers, each with a day of XP. */
const snapshot: XpRowsSnapshot = {
  members: [kept(BACK, 1000, 5), kept(AHEAD, 1000, 5), kept(GONE, 300, 2)],
  daily: [
    { userId: BACK, day: '2026-11-20', xp: 50, messages: 5, levelUps: 1 },
    { userId: AHEAD, day: '2026-11-20', xp: 50, messages: 5, levelUps: 0 },
    { userId: GONE, day: '2026-11-20', xp: 30, messages: 3, levelUps: 0 },
  ],
};

/** Two of them came back and have rows again: BACK with less XP than kept, AHEAD with more. */
async function seedReturned() {
  await testDb.db.insert(memberXp).values([
    { guildId: GUILD, userId: BACK, xp: 200, level: 1, messageCount: 10, username: 'new name' },
    { guildId: GUILD, userId: AHEAD, xp: 3000, level: 8, messageCount: 90, username: 'ahead' },
  ]);
  await testDb.db.insert(memberDailyXp).values([
    { guildId: GUILD, userId: BACK, day: '2026-11-20', xp: 20, messages: 9, levelUps: 0 },
    { guildId: GUILD, userId: BACK, day: '2026-11-27', xp: 70, messages: 7, levelUps: 0 },
  ]);
}

const rows = () =>
  testDb.db
    .select({
      userId: memberXp.userId,
      xp: memberXp.xp,
      level: memberXp.level,
      messageCount: memberXp.messageCount,
      username: memberXp.username,
      left: memberXp.leftAt,
    })
    .from(memberXp)
    .where(eq(memberXp.guildId, GUILD))
    .orderBy(asc(memberXp.userId));

const days = (userId: string) =>
  testDb.db
    .select({ day: memberDailyXp.day, xp: memberDailyXp.xp, messages: memberDailyXp.messages })
    .from(memberDailyXp)
    .where(and(eq(memberDailyXp.guildId, GUILD), eq(memberDailyXp.userId, userId)))
    .orderBy(asc(memberDailyXp.day));

describe('restoreXpRows', () => {
  it('keepLarger: a member with XP again keeps the larger XP, their current row, and merged days', async () => {
    await seedReturned();
    await restoreXpRows(testDb.db, GUILD, snapshot, 'keepLarger');
    expect(await rows()).toEqual([
      // Back with less: the kept XP and level return; who they are and that they are here stay.
      { userId: BACK, xp: 1000, level: 5, messageCount: 40, username: 'new name', left: null },
      // Ahead: never lowered.
      { userId: AHEAD, xp: 3000, level: 8, messageCount: 90, username: 'ahead', left: null },
      // Still gone: the kept row as it was.
      {
        userId: GONE,
        xp: 300,
        level: 2,
        messageCount: 40,
        username: 'old name',
        left: new Date('2026-11-21T10:00:00.000Z'),
      },
    ]);
    expect(await days(BACK)).toEqual([
      { day: '2026-11-20', xp: 50, messages: 9 },
      { day: '2026-11-27', xp: 70, messages: 7 },
    ]);
    expect(await days(GONE)).toEqual([{ day: '2026-11-20', xp: 30, messages: 3 }]);

    // Run twice (a retried request): the same rows.
    const once = await rows();
    await restoreXpRows(testDb.db, GUILD, snapshot, 'keepLarger');
    expect(await rows()).toEqual(once);
  });

  it('overwrite: the kept rows win (an import undone), members listed absent lose theirs', async () => {
    await seedReturned();
    await restoreXpRows(testDb.db, GUILD, { ...snapshot, absent: [BACK] }, 'overwrite');
    const byUser = new Map((await rows()).map((row) => [row.userId, row]));
    expect(byUser.get(AHEAD)).toMatchObject({ xp: 1000, level: 5, username: 'old name' });
    expect(byUser.has(BACK)).toBe(false);
    expect(await days(BACK)).toEqual([]);
  });
});
