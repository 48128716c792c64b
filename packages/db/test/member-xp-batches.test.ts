import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadLevelingBoostsOf, loadLevelingSettingsOf } from '../src/queries/leveling.ts';
import { type BufferedXp, writeXpBatches } from '../src/queries/member-xp.ts';
import {
  levelingBoosts,
  levelingSettings,
  memberDailyXp,
  memberXp,
  pendingLevelUps,
  xpFlushBatches,
} from '../src/schema.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing.ts';

/** Many guilds' XP batches written in one transaction, and many guilds' setups read at once. */
const GUILD_A = '300000000000000021';
const GUILD_B = '300000000000000022';
const GUILD_C = '300000000000000023';
const ADA = '400000000000000011';
const MO = '400000000000000012';
const DAY = '2026-11-26';
let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase('db_member_xp_batches');
});
afterAll(async () => {
  await testDb?.close();
});
beforeEach(async () => {
  await testDb.db.delete(memberXp);
  await testDb.db.delete(memberDailyXp);
  await testDb.db.delete(pendingLevelUps);
  await testDb.db.delete(xpFlushBatches);
});

const earned = (userId: string, xp: number, messages: number, username = `name ${xp}`): BufferedXp => ({
  userId,
  xp,
  messages,
  earned: messages,
  username,
  avatar: null,
  channelId: '500000000000000001',
});

const rows = () =>
  testDb.db
    .select({ guildId: memberXp.guildId, userId: memberXp.userId, xp: memberXp.xp, level: memberXp.level })
    .from(memberXp)
    .orderBy(asc(memberXp.guildId), asc(memberXp.userId));

describe('writeXpBatches', () => {
  it("writes several guilds' batches at once, a guild's two batches into one row each, level-ups with their guild", async () => {
    const written = await writeXpBatches(testDb.db, {
      day: DAY,
      levelUpLeaseMs: 60_000,
      batches: [
        { batchId: 'b-a1', guildId: GUILD_A, members: [earned(ADA, 60, 6), earned(MO, 10, 1)] },
        { batchId: 'b-b1', guildId: GUILD_B, members: [earned(ADA, 10, 1)] },
        // A batch taken over from a dead writer and the guild's fresh one, together.
        { batchId: 'b-a2', guildId: GUILD_A, members: [earned(ADA, 50, 5, 'latest')] },
        { batchId: 'b-c1', guildId: GUILD_C, members: [] },
      ],
    });
    expect(written.applied).toEqual(['b-a1', 'b-a2', 'b-b1']);
    expect(await rows()).toEqual([
      { guildId: GUILD_A, userId: ADA, xp: 110, level: 1 },
      { guildId: GUILD_A, userId: MO, xp: 10, level: 0 },
      { guildId: GUILD_B, userId: ADA, xp: 10, level: 0 },
    ]);
    expect(written.levelUps).toEqual([
      {
        guildId: GUILD_A,
        userId: ADA,
        username: 'latest',
        channelId: '500000000000000001',
        previousLevel: 0,
        level: 1,
        // Its pending row's time: with the rest it names this level-up (its announcement's nonce).
        recordedAt: (await testDb.db.select().from(pendingLevelUps))[0]?.createdAt,
      },
    ]);
    const daily = await testDb.db
      .select({
        guildId: memberDailyXp.guildId,
        messages: memberDailyXp.messages,
        levelUps: memberDailyXp.levelUps,
      })
      .from(memberDailyXp)
      .orderBy(asc(memberDailyXp.guildId), asc(memberDailyXp.userId));
    expect(daily).toEqual([
      { guildId: GUILD_A, messages: 11, levelUps: 1 },
      { guildId: GUILD_A, messages: 1, levelUps: 0 },
      { guildId: GUILD_B, messages: 1, levelUps: 0 },
    ]);
    expect(await testDb.db.select().from(pendingLevelUps)).toHaveLength(1);
  });

  it('applies a batch written before only once, still writing the new ones beside it', async () => {
    const first = { batchId: 'b-a1', guildId: GUILD_A, members: [earned(ADA, 10, 1)] };
    await writeXpBatches(testDb.db, { day: DAY, levelUpLeaseMs: 60_000, batches: [first] });
    const again = await writeXpBatches(testDb.db, {
      day: DAY,
      levelUpLeaseMs: 60_000,
      batches: [first, { batchId: 'b-b1', guildId: GUILD_B, members: [earned(MO, 20, 2)] }],
    });
    expect(again.applied).toEqual(['b-b1']);
    expect(await rows()).toEqual([
      { guildId: GUILD_A, userId: ADA, xp: 10, level: 0 },
      { guildId: GUILD_B, userId: MO, xp: 20, level: 0 },
    ]);
    const retried = await writeXpBatches(testDb.db, { day: DAY, levelUpLeaseMs: 60_000, batches: [first] });
    expect(retried).toEqual({ applied: [], levelUps: [] });
  });
});

describe("many guilds' leveling setups at once", () => {
  it('answers every guild asked, defaults for those never set up', async () => {
    await testDb.db.delete(levelingBoosts);
    await testDb.db.delete(levelingSettings);
    await testDb.db
      .insert(levelingSettings)
      .values({ guildId: GUILD_A, enabled: true, xpMin: 25, xpMax: 25 });
    await testDb.db.insert(levelingBoosts).values([
      { guildId: GUILD_B, multiplier: 2, userId: null, expiresAt: null },
      { guildId: GUILD_B, multiplier: 3, userId: ADA, expiresAt: null },
    ]);
    const settings = await loadLevelingSettingsOf(testDb.db, [GUILD_A, GUILD_B, GUILD_C]);
    expect([...settings.keys()]).toEqual([GUILD_A, GUILD_B, GUILD_C]);
    expect(settings.get(GUILD_A)).toMatchObject({ enabled: true, xpMin: 25, xpMax: 25 });
    expect(settings.get(GUILD_B)).toMatchObject({ enabled: false });
    const boosts = await loadLevelingBoostsOf(testDb.db, [GUILD_A, GUILD_B, GUILD_C]);
    expect(boosts.get(GUILD_A)).toEqual([]);
    expect(boosts.get(GUILD_B)?.map((boost) => [boost.multiplier, boost.userId])).toEqual([
      [2, null],
      [3, ADA],
    ]);
    expect(boosts.get(GUILD_C)).toEqual([]);
  });
});
