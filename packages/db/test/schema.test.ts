import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PERSONALITY_SETUP_CHANNEL,
  seedPersonalityCatalog,
  watchPersonalitySetups,
} from '../src/queries/personality-roles.ts';
import {
  colorGroups,
  colorShades,
  colors,
  guildConfigs,
  levelingSettings,
  memberXp,
  personalityConfigs,
  personalityOptions,
  personalityQuestions,
  sessions,
  signIns,
} from '../src/schema.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing.ts';

const GUILD = '300000000000000001';
const OTHER_GUILD = '300000000000000003';
let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase('db_schema');
});
afterAll(async () => {
  await testDb?.close();
});

/** Postgres error code of a rejected query (drizzle wraps the pg error in `cause`). */
async function pgErrorCode(query: PromiseLike<unknown>): Promise<string | undefined> {
  try {
    await query;
  } catch (error) {
    const err = error as { code?: string; cause?: { code?: string } };
    return err.code ?? err.cause?.code;
  }
  return undefined;
}

async function seedColor(guildId: string, groupName: string, colorName: string) {
  const { db } = testDb;
  const [group] = await db
    .insert(colorGroups)
    .values({ guildId, name: groupName })
    .onConflictDoUpdate({ target: [colorGroups.guildId, colorGroups.name], set: { name: groupName } })
    .returning();
  if (!group) throw new Error('group not inserted');
  const [color] = await db
    .insert(colors)
    .values({ groupId: group.id, guildId, name: colorName, hexCode: '#E53935' })
    .returning();
  if (!color) throw new Error('color not inserted');
  await db.insert(colorShades).values([
    { colorId: color.id, guildId, name: `Light ${colorName}`, hexCode: '#FF6F61', position: 0 },
    { colorId: color.id, guildId, name: `Dark ${colorName}`, hexCode: '#8B0000', position: 1 },
  ]);
  return { group, color };
}

describe('cascade deletes', () => {
  it('deleting a color group deletes its colours and their shades', async () => {
    const { db } = testDb;
    const { group } = await seedColor(GUILD, 'Rainbow', 'Red');
    await seedColor(OTHER_GUILD, 'Rainbow', 'Red');
    await db.delete(colorGroups).where(eq(colorGroups.id, group.id));

    expect(await db.select().from(colors).where(eq(colors.guildId, GUILD))).toEqual([]);
    expect(await db.select().from(colorShades).where(eq(colorShades.guildId, GUILD))).toEqual([]);
    // The other guild's palette is untouched.
    expect(await db.select().from(colorShades).where(eq(colorShades.guildId, OTHER_GUILD))).toHaveLength(2);
  });

  it('deleting a personality question deletes its options', async () => {
    const { db } = testDb;
    const [question] = await db
      .insert(personalityQuestions)
      .values({ guildId: GUILD, questionType: 'zodiac', title: 'Zodiac Sign' })
      .returning();
    if (!question) throw new Error('question not inserted');
    await db.insert(personalityOptions).values([
      { questionId: question.id, guildId: GUILD, label: 'Aries', emoji: '♈', position: 0 },
      { questionId: question.id, guildId: GUILD, label: 'Taurus', emoji: '♉', position: 1 },
    ]);
    await db.delete(personalityQuestions).where(eq(personalityQuestions.id, question.id));
    expect(await db.select().from(personalityOptions).where(eq(personalityOptions.guildId, GUILD))).toEqual(
      [],
    );
  });
});

describe('unique constraints', () => {
  it('colour names are unique per guild but reusable across guilds', async () => {
    const { db } = testDb;
    const { group } = await seedColor(GUILD, 'Unique', 'Blue');
    expect(
      await pgErrorCode(
        db.insert(colors).values({ groupId: group.id, guildId: GUILD, name: 'Blue', hexCode: '#1E88E5' }),
      ),
    ).toBe('23505');
    await expect(seedColor('300000000000000099', 'Unique', 'Blue')).resolves.toBeDefined();
  });

  it('group names are unique per guild', async () => {
    const { db } = testDb;
    await db.insert(colorGroups).values({ guildId: GUILD, name: 'Naturals' });
    expect(await pgErrorCode(db.insert(colorGroups).values({ guildId: GUILD, name: 'Naturals' }))).toBe(
      '23505',
    );
  });

  it('one question per type per guild', async () => {
    const { db } = testDb;
    await db.insert(personalityQuestions).values({ guildId: GUILD, questionType: 'mbti', title: 'MBTI' });
    expect(
      await pgErrorCode(
        db.insert(personalityQuestions).values({ guildId: GUILD, questionType: 'mbti', title: 'MBTI again' }),
      ),
    ).toBe('23505');
  });

  it('session token hashes are unique', async () => {
    const { db } = testDb;
    const [signIn] = await db
      .insert(signIns)
      .values({
        userId: '200000000000000001',
        username: 'ada',
        discordAccessTokenEnc: 'enc',
        discordTokenExpiresAt: new Date(Date.now() + 3600_000),
        expiresAt: new Date(Date.now() + 30 * 86400_000),
      })
      .returning();
    const session = {
      tokenHash: 'a'.repeat(64),
      signInId: signIn?.id ?? '',
      userId: '200000000000000001',
      username: 'ada',
      expiresAt: new Date(Date.now() + 7 * 86400_000),
    };
    const [row] = await db.insert(sessions).values(session).returning();
    expect(row?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(row?.revokedAt).toBeNull();
    expect(await pgErrorCode(db.insert(sessions).values(session))).toBe('23505');
  });

  it('member XP has one row per guild member', async () => {
    const { db } = testDb;
    await db.insert(memberXp).values({ guildId: GUILD, userId: '200000000000000001', xp: 10 });
    expect(
      await pgErrorCode(db.insert(memberXp).values({ guildId: GUILD, userId: '200000000000000001', xp: 5 })),
    ).toBe('23505');
  });
});

describe('column types and defaults', () => {
  it('guild config data defaults to an empty object', async () => {
    const { db } = testDb;
    const [row] = await db.insert(guildConfigs).values({ guildId: GUILD }).returning();
    expect(row?.data).toEqual({});
    expect(row?.updatedAt).toBeInstanceOf(Date);
  });

  it('leveling settings default to off, multiplier 1, 10 XP per message, 30 s cooldown', async () => {
    const { db } = testDb;
    const [row] = await db.insert(levelingSettings).values({ guildId: GUILD }).returning();
    expect(row).toMatchObject({
      enabled: false,
      xpMultiplier: 1,
      announcementChannel: null,
      dailyOverviewChannel: null,
      xpMin: 10,
      xpMax: 10,
      messageCooldownSec: 30,
    });
  });

  it('member XP is bigint in SQL and a number in JS, and upserts add up', async () => {
    const { db } = testDb;
    const big = 2 ** 40;
    const key = { guildId: OTHER_GUILD, userId: '200000000000000004' };
    for (const xp of [big, 15]) {
      await db
        .insert(memberXp)
        .values({ ...key, xp, messageCount: 1 })
        .onConflictDoUpdate({
          target: [memberXp.guildId, memberXp.userId],
          set: { xp: sql`${memberXp.xp} + excluded.xp`, messageCount: sql`${memberXp.messageCount} + 1` },
        });
    }
    const [row] = await db.select().from(memberXp).where(eq(memberXp.userId, key.userId));
    expect(row?.xp).toBe(big + 15);
    expect(row?.messageCount).toBe(2);
  });
});

describe('personality setup changes', () => {
  const guild = '300000000000000777';

  it('are announced for the guild on every change to the config, its questions or their options, once per commit', async () => {
    const { db } = testDb;
    const heard: string[] = [];
    let markerHeard = false;
    // Other tests' guilds are left out: only this guild's notices count.
    const watch = watchPersonalitySetups(testDb.url, {
      changed: (id) => {
        if (id === guild) heard.push(id);
        if (id === 'marker') markerHeard = true;
      },
      lost: () => {},
    });
    try {
      const until = async (what: string, count: number) => {
        const deadline = Date.now() + 5_000;
        while (heard.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        expect(heard, `${what}: ${JSON.stringify(heard)}`).toEqual(Array(count).fill(guild));
      };
      while (!watch.live) await new Promise((r) => setTimeout(r, 10));
      const steps: Array<[string, () => PromiseLike<unknown>]> = [
        ['init', () => db.insert(personalityConfigs).values({ guildId: guild, configured: true })],
        ['seed (one notice for 91 rows)', () => db.transaction((tx) => seedPersonalityCatalog(tx, guild))],
        [
          'toggle a question',
          () =>
            db
              .update(personalityQuestions)
              .set({ isEnabled: false })
              .where(eq(personalityQuestions.questionType, 'mbti')),
        ],
        [
          'record a role',
          () =>
            db
              .update(personalityOptions)
              .set({ roleId: '300000000000000999' })
              .where(eq(personalityOptions.label, 'Aries')),
        ],
        [
          'change the channel',
          () => db.update(personalityConfigs).set({ assignChannelId: '300000000000000012' }),
        ],
        [
          'remove an option',
          () => db.delete(personalityOptions).where(eq(personalityOptions.label, 'Taurus')),
        ],
      ];
      for (const [index, [what, change]] of steps.entries()) {
        await change();
        await until(what, index + 1);
      }
      await db.select().from(personalityQuestions).where(eq(personalityQuestions.guildId, guild));
      // Notices arrive in commit order: once one sent after the read is heard, a notice of the
      // read would have been too.
      await db.execute(sql`select pg_notify(${PERSONALITY_SETUP_CHANNEL}, 'marker')`);
      const deadline = Date.now() + 5_000;
      while (!markerHeard && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(markerHeard).toBe(true);
      expect(heard, 'a read').toHaveLength(steps.length);
    } finally {
      await watch.close();
    }
  });
});
