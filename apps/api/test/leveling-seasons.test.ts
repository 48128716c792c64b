import {
  jobIdFor,
  type MemberDataExport,
  routePath,
  routes,
  type Season,
  type SeasonList,
} from '@spacecadet/contract';
import { addMonths, levelForTotalXp } from '@spacecadet/core';
import { levelingSettings, memberXp } from '@spacecadet/db';
import { guildHistory, levelingSeasonMembers, levelingSeasons } from '@spacecadet/db/schema';
import { and, asc, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

let h: Harness;
let ada: string;
const station = GUILDS.station;
const seasonsPath = routePath(routes.endSeason, { guildId: station });
const applyJobId = jobIdFor('leveling.apply-rewards', station);

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
});
afterAll(async () => {
  await h?.close();
});

beforeEach(async () => {
  const db = h.database.db;
  await db.delete(levelingSeasons).where(eq(levelingSeasons.guildId, station));
  await db.delete(memberXp).where(eq(memberXp.guildId, station));
  await db.delete(levelingSettings).where(eq(levelingSettings.guildId, station));
  await h.app.services.queue.forShard(0).remove(applyJobId);
});

const id = (n: number) => `4${String(n).padStart(17, '0')}`;

/** Members 1..count with XP 100*n (member n has n hundred XP), their levels by the curve. */
async function seed(count: number) {
  const rows = Array.from({ length: count }, (_, i) => {
    const xp = 100 * (i + 1);
    return { guildId: station, userId: id(i + 1), xp, level: levelForTotalXp(xp), username: `m${i + 1}` };
  });
  await h.database.db.insert(memberXp).values(rows);
}

const end = (payload: object) =>
  h.app.inject({ method: 'POST', url: seasonsPath, headers: { authorization: ada }, payload });
const list = async () =>
  (
    await h.app.inject({ method: 'GET', url: seasonsPath, headers: { authorization: ada } })
  ).json<SeasonList>();

const xpRows = () =>
  h.database.db
    .select({ userId: memberXp.userId, xp: memberXp.xp, level: memberXp.level, due: memberXp.rewardsDueAt })
    .from(memberXp)
    .where(eq(memberXp.guildId, station))
    .orderBy(asc(memberXp.userId));

describe('ending a season', () => {
  it('archives every member with XP, names the top 10, and starts XP and levels at 0', async () => {
    await seed(12);
    await h.database.db.insert(memberXp).values({ guildId: station, userId: id(99), xp: 0, level: 0 });
    const response = await end({ name: 'Spring', keep_rewards: false });
    expect(response.statusCode, response.body).toBe(201);
    const season = response.json<Season>();
    expect(season).toMatchObject({ name: 'Spring', members: 12, keep_rewards: false, automatic: false });
    expect(season.started_at).toBeNull();
    expect(season.top.map((standing) => standing.user_id)).toEqual(
      Array.from({ length: 10 }, (_, i) => id(12 - i)),
    );
    expect(season.top[0]).toMatchObject({ username: 'm12', xp: 1200, level: levelForTotalXp(1200), rank: 1 });
    const rows = await xpRows();
    expect(rows.every((row) => row.xp === 0 && row.level === 0)).toBe(true);
    // keep_rewards false: the archived members' rewards are due, Apply Rewards takes the roles.
    expect(rows.filter((row) => row.due !== null).map((row) => row.userId)).toEqual(
      Array.from({ length: 12 }, (_, i) => id(i + 1)),
    );
    expect(await h.app.services.queue.forShard(0).getJobState(applyJobId)).not.toBe('unknown');
    const archived = await h.database.db
      .select()
      .from(levelingSeasonMembers)
      .where(eq(levelingSeasonMembers.seasonId, season.id));
    expect(archived).toHaveLength(12);
    const [settings] = await h.database.db
      .select({ startedAt: levelingSettings.seasonStartedAt })
      .from(levelingSettings)
      .where(eq(levelingSettings.guildId, station));
    expect(settings?.startedAt?.toISOString()).toBe(season.ended_at);
    const [entry] = await h.database.db
      .select()
      .from(guildHistory)
      .where(and(eq(guildHistory.guildId, station), eq(guildHistory.action, 'leveling.season_end')))
      .orderBy(desc(guildHistory.id))
      .limit(1);
    expect(entry?.snapshot).toEqual({ season_id: season.id });
  });

  it('keep_rewards leaves the reward roles: no rewards are due', async () => {
    await seed(3);
    const response = await end({ name: 'Kept', keep_rewards: true });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<Season>().keep_rewards).toBe(true);
    expect((await xpRows()).every((row) => row.due === null && row.xp === 0)).toBe(true);
  });

  it('refuses a blank name with a 400', async () => {
    const response = await end({ name: '   ' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('Name the season');
  });
});

describe('the hall of fame', () => {
  it('lists seasons newest first, with the next scheduled end', async () => {
    await seed(2);
    expect((await end({ name: 'One' })).statusCode).toBe(201);
    await h.database.db.update(memberXp).set({ xp: 50 }).where(eq(memberXp.guildId, station));
    expect((await end({ name: 'Two', keep_rewards: true })).statusCode).toBe(201);
    let seasons = await list();
    expect(seasons.seasons.map((season) => season.name)).toEqual(['Two', 'One']);
    expect(seasons.seasons[0]?.started_at).toBe(seasons.seasons[1]?.ended_at);
    expect(seasons.current_started_at).toBe(seasons.seasons[0]?.ended_at);
    expect(seasons.next_end_at).toBeNull();
    await h.database.db
      .update(levelingSettings)
      .set({ seasonMonths: 3 })
      .where(eq(levelingSettings.guildId, station));
    seasons = await list();
    const started = new Date(seasons.current_started_at ?? '');
    expect(seasons.next_end_at).toBe(addMonths(started, 3).toISOString());
  });
});

describe('the season schedule', () => {
  const put = (payload: object) =>
    h.app.inject({
      method: 'PUT',
      url: routePath(routes.putLeveling, { guildId: station }),
      headers: { authorization: ada },
      payload,
    });

  it('counts from when it is turned on when no season has ended, and keeps the rewards choice', async () => {
    const before = Date.now();
    const response = await put({ season_months: 2, season_keep_rewards: false });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ season_months: 2, season_keep_rewards: false });
    const seasons = await list();
    const started = new Date(seasons.current_started_at ?? '');
    expect(started.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(seasons.next_end_at).toBe(addMonths(started, 2).toISOString());
  });

  it('counts from the last end while that is recent, from now when the season would end at once', async () => {
    await seed(1);
    expect((await end({ name: 'One' })).statusCode).toBe(201);
    const ended = (await list()).current_started_at;
    expect((await put({ season_months: 1 })).statusCode).toBe(200);
    expect((await list()).current_started_at).toBe(ended);

    // The last end was 5 months ago: a 3-month schedule counts from now, not from then.
    const longAgo = addMonths(new Date(), -5);
    await h.database.db
      .update(levelingSettings)
      .set({ seasonStartedAt: longAgo, seasonMonths: null })
      .where(eq(levelingSettings.guildId, station));
    expect((await put({ season_months: 3 })).statusCode).toBe(200);
    const seasons = await list();
    expect(new Date(seasons.next_end_at ?? '').getTime()).toBeGreaterThan(Date.now());
  });

  it('refuses a season_keep_rewards that is not true or false', async () => {
    const response = await put({ season_keep_rewards: 'yes' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('season_keep_rewards must be true or false');
  });
});

describe('undoing a season end', () => {
  it('gives every archived member their XP back plus what they earned since, levels by the curve', async () => {
    await seed(3);
    const season = (await end({ name: 'Undone', keep_rewards: true })).json<Season>();
    await h.database.db
      .update(memberXp)
      .set({ xp: 40 })
      .where(and(eq(memberXp.guildId, station), eq(memberXp.userId, id(2))));
    const [entry] = await h.database.db
      .select()
      .from(guildHistory)
      .where(and(eq(guildHistory.guildId, station), eq(guildHistory.action, 'leveling.season_end')))
      .orderBy(desc(guildHistory.id))
      .limit(1);
    const undone = await h.app.inject({
      method: 'POST',
      url: routePath(routes.undoHistory, { guildId: station, entryId: entry?.id ?? 0 }),
      headers: { authorization: ada },
      payload: { confirm: true },
    });
    expect(undone.statusCode, undone.body).toBeLessThan(300);
    const rows = await xpRows();
    expect(rows.map((row) => [row.userId, row.xp, row.level])).toEqual([
      [id(1), 100, levelForTotalXp(100)],
      [id(2), 240, levelForTotalXp(240)],
      [id(3), 300, levelForTotalXp(300)],
    ]);
    expect(rows.every((row) => row.due !== null)).toBe(true);
    const left = await h.database.db.select().from(levelingSeasons).where(eq(levelingSeasons.id, season.id));
    expect(left).toEqual([]);
    expect((await list()).current_started_at).toBeNull();
  });
});

describe("a member's data erase", () => {
  it('deletes their archived XP and drops their name from a top 10, keeping the rank', async () => {
    const nia = USERS.nia;
    await seed(2);
    await h.database.db
      .insert(memberXp)
      .values({ guildId: station, userId: nia, xp: 5000, level: 9, username: 'nia' });
    const season = (await end({ name: 'Erased', keep_rewards: true })).json<Season>();
    const token = await signIn(h, nia);
    // Their export first: the archived standing, and the level whose rewards they kept.
    const exported = await h.app.inject({
      method: 'GET',
      url: routePath(routes.exportMemberData),
      headers: { authorization: token },
    });
    expect(exported.statusCode, exported.body).toBe(200);
    const server = exported.json<MemberDataExport>().servers.find((s) => s.guild_id === station);
    expect(server?.seasons).toEqual([{ season: 'Erased', ended_at: season.ended_at, xp: 5000, level: 9 }]);
    expect(server?.xp).toMatchObject({ xp: 0, level: 0, kept_level: 9 });
    const erased = await h.app.inject({
      method: 'DELETE',
      url: routePath(routes.eraseMemberData),
      headers: { authorization: token },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    const archived = await h.database.db
      .select({ userId: levelingSeasonMembers.userId })
      .from(levelingSeasonMembers)
      .where(eq(levelingSeasonMembers.seasonId, season.id));
    expect(archived.map((row) => row.userId).sort()).toEqual([id(1), id(2)]);
    const [row] = await h.database.db.select().from(levelingSeasons).where(eq(levelingSeasons.id, season.id));
    expect(row?.top[0]).toMatchObject({ user_id: nia, username: null, avatar: null, rank: 1 });
    expect(row?.top[1]).toMatchObject({ user_id: id(2), username: 'm2', rank: 2 });
  });
});
