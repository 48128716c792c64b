import {
  lastColorPickKey,
  type MemberDataErased,
  type MemberDataExport,
  routePath,
  routes,
  userGuildsCacheKey,
  xpBatchesKey,
  xpBatchKey,
  xpCooldownKey,
  xpPendingKey,
  xpSlotGroup,
} from '@spacecadet/contract';
import {
  guildConfigs,
  guildHistory,
  levelingBoosts,
  memberDailyXp,
  memberRolePicks,
  memberXp,
  pendingLevelUps,
  personalityAnswerEvents,
  personalityOptions,
  personalityQuestions,
  stickyRoles,
} from '@spacecadet/db';
import { MEMBER_DATA_TABLES } from '@spacecadet/db/queries/member-data';
import { type BufferedXp, writeXpBatches } from '@spacecadet/db/queries/member-xp';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

/**
 * A member's own data against real Postgres and Redis: the export holds exactly the signed-in
 * user's rows and keys, the erase removes them in every server and leaves everyone else's, History
 * keeps its entries without their name, the sessions end, and XP buffered or in flight in Redis
 * does not bring the rows back.
 */
let h: Harness;
const { station, orbit } = GUILDS;
const nia = USERS.nia;
const ada = USERS.ada;
const dataPath = routePath(routes.exportMemberData);

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function seed(): Promise<void> {
  const { db } = h.database;
  for (const userId of [ada, nia]) {
    for (const guildId of [station, orbit]) {
      await db
        .insert(memberXp)
        .values({ guildId, userId, xp: 500, level: 3, messageCount: 50, username: `name-${userId}` });
      await db.insert(memberDailyXp).values({ guildId, userId, day: '2026-11-27', xp: 40, messages: 4 });
      await db.insert(memberRolePicks).values({ guildId, userId, scope: 'color', targetKey: 'color:1' });
    }
    await db.insert(pendingLevelUps).values({ guildId: station, userId, level: 4 });
    await db.insert(levelingBoosts).values({ guildId: station, userId, multiplier: 2 });
    await db
      .insert(stickyRoles)
      .values({ guildId: station, userId, roleIds: ['300000000000000021'], leftAt: new Date('2026-11-20') });
  }
  // An answer each to a question of Sandbox Station (insights' events).
  const [question] = await db
    .insert(personalityQuestions)
    .values({ guildId: station, questionType: 'q1', title: 'Planet' })
    .returning();
  const [option] = await db
    .insert(personalityOptions)
    .values({ guildId: station, questionId: question?.id ?? 0, label: 'Mars' })
    .returning();
  for (const userId of [ada, nia]) {
    await db.insert(personalityAnswerEvents).values({
      guildId: station,
      userId,
      questionId: question?.id ?? 0,
      optionId: option?.id ?? 0,
      kind: 'picked',
      source: 'panel',
      at: new Date('2026-11-26'),
    });
  }
  await db.insert(guildConfigs).values({ guildId: orbit, data: {}, updatedBy: nia });
  await db.insert(guildHistory).values([
    {
      guildId: station,
      actorId: nia,
      actorName: 'Nia',
      actorAvatar: 'nia-avatar',
      area: 'leveling',
      action: 'leveling.settings',
      subject: 's',
      summary: 'by nia',
    },
    {
      guildId: station,
      actorId: ada,
      actorName: 'Ada',
      actorAvatar: 'ada-avatar',
      area: 'leveling',
      action: 'leveling.xp.set',
      subject: 's',
      summary: 'ada set nia',
      refs: { [nia]: { kind: 'member', name: 'Nia' } },
    },
    {
      guildId: orbit,
      actorId: ada,
      actorName: 'Ada',
      actorAvatar: 'ada-avatar',
      area: 'leveling',
      action: 'leveling.settings',
      subject: 's',
      summary: 'by ada',
    },
  ] as Array<typeof guildHistory.$inferInsert>);
  const { redis } = h.app.services;
  for (const userId of [ada, nia]) {
    await redis.set(xpCooldownKey(station, userId), '1700000000000', 'PX', 600_000);
    await redis.set(lastColorPickKey(station, userId), 'role-1');
    await redis.set(userGuildsCacheKey(userId), '[]', 'EX', 60);
    await redis.hset(xpPendingKey(orbit), `${userId}:x`, 15, `${userId}:m`, 1);
  }
}

const bearerOf = (token: string) => ({ authorization: token });

describe('GET and DELETE /api/me/data', () => {
  it('exports exactly the signed-in user’s rows, then erases them and nobody else’s, and ends the session', async () => {
    await seed();
    const niaToken = await signIn(h, nia);
    const adaToken = await signIn(h, ada);

    const exported = await h.app.inject({ method: 'GET', url: dataPath, headers: bearerOf(niaToken) });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.headers['content-disposition']).toMatch(
      /^attachment; filename="spacecadet-my-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const data = exported.json<MemberDataExport>();
    const text = exported.body;
    expect(data.user_id).toBe(nia);
    expect(text).not.toContain(`name-${ada}`);
    expect(text).not.toContain('token');
    expect(data.sessions).toHaveLength(1);
    expect(data.servers.map((s) => s.guild_id)).toEqual([station, orbit].sort());
    const stationData = data.servers.find((s) => s.guild_id === station);
    expect(stationData?.xp?.xp).toBe(500);
    expect(stationData?.daily).toEqual([{ day: '2026-11-27', xp: 40, messages: 4, level_ups: 0 }]);
    expect(stationData?.picks.map((p) => p.target_key)).toEqual(['color:1']);
    expect(stationData?.pending_level_ups.map((p) => p.level)).toEqual([4]);
    expect(stationData?.boosts).toHaveLength(1);
    expect(stationData?.answers.map((a) => [a.kind, a.source, a.at])).toEqual([
      ['picked', 'panel', '2026-11-26T00:00:00.000Z'],
    ]);
    expect(stationData?.sticky_roles).toEqual([
      { role_ids: ['300000000000000021'], left_at: '2026-11-20T00:00:00.000Z' },
    ]);
    expect(data.servers.find((s) => s.guild_id === orbit)?.last_changed.map((c) => c.what)).toEqual([
      'config',
    ]);
    expect(data.history.map((e) => [e.summary, e.role])).toEqual([
      ['by nia', 'actor'],
      ['ada set nia', 'named'],
    ]);
    expect(data.redis.map((e) => e.key).sort()).toEqual(
      [
        lastColorPickKey(station, nia),
        userGuildsCacheKey(nia),
        xpCooldownKey(station, nia),
        xpPendingKey(orbit),
      ].sort(),
    );
    expect(data.redis.find((e) => e.key === xpPendingKey(orbit))?.value).toEqual({
      [`${nia}:x`]: '15',
      [`${nia}:m`]: '1',
    });

    const erased = await h.app.inject({ method: 'DELETE', url: dataPath, headers: bearerOf(niaToken) });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json<MemberDataErased>()).toEqual({
      xp_rows: 2,
      daily_rows: 2,
      picks: 2,
      level_ups: 1,
      boosts: 1,
      history_entries: 2,
      settings_rows: 1,
      redis_keys: 5,
      sessions_revoked: 1,
    });

    // The bearer is dead; Ada's session is not.
    const after = await h.app.inject({ method: 'GET', url: dataPath, headers: bearerOf(niaToken) });
    expect(after.statusCode).toBe(401);
    const { db } = h.database;
    for (const table of [
      memberXp,
      memberDailyXp,
      memberRolePicks,
      pendingLevelUps,
      levelingBoosts,
      stickyRoles,
      personalityAnswerEvents,
    ]) {
      expect(await db.select().from(table).where(eq(table.userId, nia))).toEqual([]);
      expect(await db.select().from(table).where(eq(table.userId, ada))).not.toEqual([]);
    }
    const history = await db.select().from(guildHistory).orderBy(guildHistory.id);
    expect(history.map((e) => [e.summary, e.actorId, e.actorName, e.actorAvatar])).toEqual([
      ['by nia', nia, '', null],
      ['ada set nia', ada, 'Ada', 'ada-avatar'],
      ['by ada', ada, 'Ada', 'ada-avatar'],
    ]);
    expect(history[1]?.refs).toEqual({ [nia]: { kind: 'member', name: '' } });
    const [config] = await db.select().from(guildConfigs).where(eq(guildConfigs.guildId, orbit));
    expect(config?.updatedBy).toBeNull();

    const { redis } = h.app.services;
    expect(
      await redis.exists(
        xpCooldownKey(station, nia),
        lastColorPickKey(station, nia),
        userGuildsCacheKey(nia),
      ),
    ).toBe(0);
    expect(
      await redis.exists(
        xpCooldownKey(station, ada),
        lastColorPickKey(station, ada),
        userGuildsCacheKey(ada),
      ),
    ).toBe(3);
    expect(await redis.hgetall(xpPendingKey(orbit))).toEqual({ [`${ada}:x`]: '15', [`${ada}:m`]: '1' });

    const adaData = await h.app.inject({ method: 'GET', url: dataPath, headers: bearerOf(adaToken) });
    expect(adaData.statusCode).toBe(200);
    expect(adaData.json<MemberDataExport>().history.map((e) => e.summary)).toEqual(['ada set nia', 'by ada']);
  });

  it('answers 401 without a session', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      expect((await h.app.inject({ method, url: dataPath })).statusCode).toBe(401);
    }
  });
});

describe('XP in flight at the erase', () => {
  const member = (userId: string, xp: number): BufferedXp => ({
    userId,
    xp,
    messages: 1,
    username: 'x',
    avatar: null,
  });
  const write = (batchId: string, members: BufferedXp[]) =>
    writeXpBatches(h.database.db, {
      batches: [{ batchId, guildId: station, members }],
      day: '2026-11-28',
      levelUpLeaseMs: 1000,
    });
  const xpOf = async (userId: string) =>
    (
      await h.database.db
        .select()
        .from(memberXp)
        .where(sql`${memberXp.guildId} = ${station} and ${memberXp.userId} = ${userId}`)
    )[0]?.xp ?? null;

  it('a batch read before the erase and written after it does not bring the member back; new XP does', async () => {
    const rex = USERS.rex;
    const { redis } = h.app.services;
    // Buffered, then taken out under a batch id as the worker's take script does, and read.
    await redis.hset(xpPendingKey(station), `${rex}:x`, 20, `${rex}:m`, 1, `${ada}:x`, 5, `${ada}:m`, 1);
    const batchId = `${station}.in-flight`;
    await redis.rename(xpPendingKey(station), xpBatchKey(batchId));
    await redis.zadd(xpBatchesKey(xpSlotGroup(station)), Date.now(), batchId);
    // Also still buffered and not taken: dropped from the hash by the erase.
    await redis.hset(xpPendingKey(station), `${rex}:x`, 7, `${rex}:m`, 1);
    await write(`${station}.earlier`, [member(rex, 100)]);
    const adaBefore = await xpOf(ada);

    const token = await signIn(h, rex);
    const erased = await h.app.inject({ method: 'DELETE', url: dataPath, headers: bearerOf(token) });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json<MemberDataErased>().xp_rows).toBe(1);
    expect(await redis.hgetall(xpBatchKey(batchId))).toEqual({ [`${ada}:x`]: '5', [`${ada}:m`]: '1' });
    expect(await redis.hgetall(xpPendingKey(station))).toEqual({});

    // The writer had read the batch before the erase: it writes Rex's XP with Ada's.
    const written = await write(batchId, [member(rex, 20), member(ada, 5)]);
    expect(written.applied).toEqual([batchId]);
    expect(await xpOf(rex)).toBeNull();
    expect(await xpOf(ada)).toBe((adaBefore ?? 0) + 5);

    // Chatting afterwards is new data.
    await write(`${station}.later`, [member(rex, 9)]);
    expect(await xpOf(rex)).toBe(9);
  });

  it('a batch write racing the erase never leaves the erased XP behind', async () => {
    const mo = USERS.mo;
    const { redis } = h.app.services;
    for (let round = 0; round < 8; round++) {
      const batchId = `${station}.race-${round}`;
      await redis.zadd(xpBatchesKey(xpSlotGroup(station)), Date.now(), batchId);
      await redis.hset(xpBatchKey(batchId), `${mo}:x`, 3, `${mo}:m`, 1);
      const token = await signIn(h, mo);
      const [, erased] = await Promise.all([
        write(batchId, [member(mo, 3)]),
        h.app.inject({ method: 'DELETE', url: dataPath, headers: bearerOf(token) }),
      ]);
      expect(erased.statusCode, erased.body).toBe(200);
      expect(await xpOf(mo)).toBeNull();
    }
  });
});

describe('house rule: every user column is exported and erased, or has its reason', () => {
  it('lists every column of the schema that names a user or member', async () => {
    const columns = await h.database.db.execute<{ table_name: string; column_name: string }>(sql`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public'
        and (column_name ~ '(user|member|actor|owner)(_id)?$' or column_name ~ '_by$')
      order by 1, 2`);
    const found = columns.rows.map((row) => `${row.table_name}.${row.column_name}`);
    expect(found.length).toBeGreaterThan(5);
    expect(found.filter((column) => !(column in MEMBER_DATA_TABLES))).toEqual([]);
    expect(Object.keys(MEMBER_DATA_TABLES).filter((column) => !found.includes(column))).toEqual([]);
  });
});
