import { type Leaderboard, routePath, routes } from '@spacecadet/contract';
import { utcDay } from '@spacecadet/core';
import { levelingSettings, memberDailyXp, memberXp } from '@spacecadet/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

let h: Harness;
const auth = { ada: '', nia: '' };
const url = (guildId: string, query = '') =>
  `${routePath(routes.getLeaderboard, { guildId })}${query === '' ? '' : `?${query}`}`;
const get = (query = '', authorization = auth.ada, guildId: string = GUILDS.station) =>
  h.app.inject({ method: 'GET', url: url(guildId, query), headers: { authorization } });

/** `n`-th seeded member id: 5 to 20 digits, distinct from the sandbox's users. */
const userId = (n: number) => `9000000000000${String(n).padStart(5, '0')}`;

beforeAll(async () => {
  h = await startHarness();
  auth.ada = await signIn(h, USERS.ada);
  auth.nia = await signIn(h, USERS.nia);
  await h.database.db.insert(memberXp).values([
    { guildId: GUILDS.station, userId: userId(3), xp: 100, username: 'tie-b', avatar: null },
    { guildId: GUILDS.station, userId: userId(2), xp: 100, username: 'tie-a', avatar: 'abc123' },
    { guildId: GUILDS.station, userId: userId(1), xp: 255, username: 'top', avatar: 'f00d' },
    { guildId: GUILDS.station, userId: userId(4), xp: 99, username: null, avatar: null },
    // Left the server: not ranked, not counted.
    { guildId: GUILDS.station, userId: userId(5), xp: 9_999, username: 'gone', leftAt: new Date() },
    // Another guild's member never shows up here.
    { guildId: GUILDS.orbit, userId: userId(6), xp: 50_000, username: 'orbiter' },
  ]);
});
afterAll(async () => {
  await h?.close();
});

describe('GET /api/guilds/:guildId/leveling/leaderboard', () => {
  it('ranks members by XP (ties by id), with level and progress, leavers and other guilds left out', async () => {
    const response = await get();
    expect(response.statusCode, response.body).toBe(200);
    const board = response.json<Leaderboard>();
    expect(board.total).toBe(4);
    expect(board.members).toEqual([
      {
        user_id: userId(1),
        username: 'top',
        avatar: 'f00d',
        xp: 255,
        level_xp: 255,
        level: 2,
        rank: 1,
        xp_into_level: 0,
        xp_for_next: 220,
      },
      {
        user_id: userId(2),
        username: 'tie-a',
        avatar: 'abc123',
        xp: 100,
        level_xp: 100,
        level: 1,
        rank: 2,
        xp_into_level: 0,
        xp_for_next: 155,
      },
      {
        user_id: userId(3),
        username: 'tie-b',
        avatar: null,
        xp: 100,
        level_xp: 100,
        level: 1,
        rank: 3,
        xp_into_level: 0,
        xp_for_next: 155,
      },
      {
        user_id: userId(4),
        username: null,
        avatar: null,
        xp: 99,
        level_xp: 99,
        level: 0,
        rank: 4,
        xp_into_level: 99,
        xp_for_next: 100,
      },
    ]);
  });

  it('pages with limit and offset, ranks counting from the offset', async () => {
    const page = (await get('limit=2&offset=1')).json<Leaderboard>();
    expect(page.total).toBe(4);
    expect(page.members.map((m) => [m.rank, m.user_id])).toEqual([
      [2, userId(2)],
      [3, userId(3)],
    ]);
    const past = (await get('offset=10')).json<Leaderboard>();
    expect(past).toEqual({ period: 'all', members: [], total: 4 });
  });

  it("ranks this week's XP from the daily rows, with each member's current level, and refuses an unknown period", async () => {
    const today = utcDay(new Date());
    await h.database.db.insert(memberDailyXp).values([
      { guildId: GUILDS.station, userId: userId(4), day: today, xp: 60 },
      { guildId: GUILDS.station, userId: userId(1), day: today, xp: 20 },
      { guildId: GUILDS.station, userId: userId(5), day: today, xp: 500 }, // left: not ranked
    ]);
    try {
      const week = (await get('period=week')).json<Leaderboard>();
      expect(week.period).toBe('week');
      expect(week.total).toBe(2);
      // xp is the week's; level_xp the current XP that makes the level (what Set XP replaces).
      expect(week.members.map((m) => [m.rank, m.user_id, m.xp, m.level, m.level_xp])).toEqual([
        [1, userId(4), 60, 0, 99],
        [2, userId(1), 20, 2, 255],
      ]);
      const bad = await get('period=year');
      expect(bad.statusCode).toBe(400);
      expect(bad.json<{ message: string }>().message).toContain(
        'period must be one of all, season, week or month',
      );
    } finally {
      await h.database.db.delete(memberDailyXp).where(eq(memberDailyXp.guildId, GUILDS.station));
    }
  });

  it('defaults to 25 a page and takes up to 100', async () => {
    await h.database.db.insert(memberXp).values(
      Array.from({ length: 120 }, (_, i) => ({
        guildId: GUILDS.station,
        userId: userId(100 + i),
        xp: 10 + i,
        username: `member-${i}`,
      })),
    );
    const first = (await get()).json<Leaderboard>();
    expect(first.total).toBe(124);
    expect(first.members).toHaveLength(25);
    expect(first.members.map((m) => m.rank)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect((await get('limit=100')).json<Leaderboard>().members).toHaveLength(100);
    const last = (await get('limit=100&offset=100')).json<Leaderboard>();
    expect(last.members).toHaveLength(24);
    expect(last.members.at(-1)?.rank).toBe(124);
  });

  it.each([
    ['limit=0', 'limit must be a whole number from 1 to 100'],
    ['limit=101', 'limit must be a whole number from 1 to 100'],
    ['limit=abc', 'limit must be a whole number from 1 to 100'],
    ['limit=2.5', 'limit must be a whole number from 1 to 100'],
    ['limit=', 'limit must be a whole number from 1 to 100'],
    ['offset=-1', 'offset must be a whole number from 0 to 2147483647'],
    ['offset=1e3', 'offset must be a whole number from 0 to 2147483647'],
    ['offset=99999999999', 'offset must be a whole number from 0 to 2147483647'],
  ])('refuses %s with a 400 that says why', async (query, message) => {
    const response = await get(query);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_input', message });
  });

  it("gives levels and progress under the server's curve, in the board and the export", async () => {
    await h.database.db
      .insert(levelingSettings)
      .values({ guildId: GUILDS.station, levelCurve: { kind: 'table', xp: [40, 60] } });
    try {
      const board = (await get('limit=100')).json<Leaderboard>();
      const of = (n: number) => board.members.find((member) => member.user_id === userId(n));
      // 255 XP: 40 + 60 reach level 2, then 60 a level: level 4 at 220, 35 into it.
      expect(of(1)).toMatchObject({ xp: 255, level: 4, xp_into_level: 35, xp_for_next: 60 });
      expect(of(2)).toMatchObject({ xp: 100, level: 2, xp_into_level: 0, xp_for_next: 60 });
      const csv = await h.app.inject({
        method: 'GET',
        url: routePath(routes.exportXp, { guildId: GUILDS.station }),
        headers: { authorization: auth.ada },
      });
      expect(csv.statusCode, csv.body).toBe(200);
      expect(csv.body.split('\r\n')).toContain(`${userId(2)},tie-a,100,2,${of(2)?.rank}`);
    } finally {
      await h.database.db.delete(levelingSettings).where(eq(levelingSettings.guildId, GUILDS.station));
    }
  });

  it('is for the guild admins only', async () => {
    const anonymous = await h.app.inject({ method: 'GET', url: url(GUILDS.station) });
    expect(anonymous.statusCode).toBe(401);
    // Nia is a plain member of Station.
    const nia = await get('', auth.nia);
    expect(nia.statusCode).toBe(403);
    expect(nia.json().error).toBe('forbidden');
    // Ada manages Station, not Orbit: Orbit's board is refused, not leaked.
    const orbit = await get('', auth.ada, GUILDS.orbit);
    expect(orbit.statusCode).toBe(403);
    expect(orbit.body).not.toContain('orbiter');
  });

  it('is in the OpenAPI document with its query', async () => {
    const docs = await h.app.inject({ url: '/api/docs/json' });
    expect(docs.statusCode, docs.body.slice(0, 2000)).toBe(200);
    const document = docs.json<{
      paths: Record<string, { get?: { parameters?: Array<{ name: string; in: string }> } }>;
    }>();
    const operation = document.paths['/api/guilds/{guildId}/leveling/leaderboard']?.get;
    expect(operation).toBeDefined();
    expect(operation?.parameters?.filter((p) => p.in === 'query').map((p) => p.name)).toEqual([
      'limit',
      'offset',
      'period',
    ]);
  });
});
