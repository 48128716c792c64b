import { levelForTotalXp } from '@spacecadet/core';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeMemberXp, importMemberXp } from '../src/queries/xp-tools.ts';
import { memberXp } from '../src/schema.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing.ts';

const GUILD = '300000000000000031';
const id = (n: number) => `4${String(n).padStart(17, '0')}`;
let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase('db_xp_import');
});
afterAll(async () => {
  await testDb?.close();
});

describe('importMemberXp', () => {
  it('adds 100,000 rows in one go, half of them new, and keeps what it overwrote for the undo', async () => {
    // Every even member has 5 XP and a name already.
    await testDb.db.execute(sql`
      insert into member_xp (guild_id, user_id, xp, level, username)
      select ${GUILD}, '4' || lpad(n::text, 17, '0'), 5, 0, 'stored'
      from generate_series(2, 100000, 2) as n`);
    const rows = Array.from({ length: 100_000 }, (_, index) => ({
      userId: id(index + 1),
      xp: 7,
      username: index % 4 === 0 ? `server ${index + 1}` : null,
    }));
    const { imported, previous } = await importMemberXp(testDb.db, GUILD, rows, 'add');
    expect(imported).toBe(100_000);
    expect(previous.members).toHaveLength(50_000);
    expect(previous.members.every((member) => member.xp === 5 && member.username === 'stored')).toBe(true);
    expect(previous.absent).toHaveLength(50_000);
    expect(previous.absent?.includes(id(1))).toBe(true);

    const stored = async (userId: string) =>
      (
        await testDb.db
          .select()
          .from(memberXp)
          .where(and(eq(memberXp.guildId, GUILD), eq(memberXp.userId, userId)))
      )[0];
    expect(await stored(id(1))).toMatchObject({ xp: 7, level: levelForTotalXp(7), username: 'server 1' });
    expect(await stored(id(2))).toMatchObject({ xp: 12, username: 'stored' });
    expect((await stored(id(99_999)))?.rewardsDueAt).not.toBeNull();
  }, 120_000);
});

describe('changeMemberXp', () => {
  it('adds, whatever adds beside it, for a member without a row (as /xp add at once with an import)', async () => {
    const member = id(200_001);
    await Promise.all([
      ...Array.from({ length: 8 }, () => changeMemberXp(testDb.db, GUILD, member, { add: 25 })),
      importMemberXp(testDb.db, GUILD, [{ userId: member, xp: 100, username: null }], 'add'),
    ]);
    const [row] = await testDb.db
      .select({ xp: memberXp.xp, level: memberXp.level })
      .from(memberXp)
      .where(and(eq(memberXp.guildId, GUILD), eq(memberXp.userId, member)));
    expect(row).toEqual({ xp: 300, level: levelForTotalXp(300) });
  });
});
