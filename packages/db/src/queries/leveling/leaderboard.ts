import type { LeaderboardPeriod } from '@spacecadet/contract';
import { periodStartDay } from '@spacecadet/core';
import { and, asc, count, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { memberXp } from '../../schema/leveling.ts';
import { levelingSeasons } from '../../schema/leveling-seasons.ts';

/**
 * The guild's ranking by XP: a leaderboard page for a period (all time, the season, this week,
 * this month) and one member's rank in the season's standings.
 */

/**
 * The members a guild ranks: those with XP who did not leave. A member an admin reset to 0 XP
 * keeps a row (its reward roles are still to be removed) but is not ranked.
 */
export function rankedIn(guildId: string) {
  return and(eq(memberXp.guildId, guildId), isNull(memberXp.leftAt), gt(memberXp.xp, 0));
}

export interface LeaderboardEntry {
  userId: string;
  username: string | null;
  avatar: string | null;
  /** The XP the board ranks by: the period's. */
  xp: number;
  /** The member's current XP (this season's), which makes their level. */
  levelXp: number;
  /** 1-based position by XP; ties are ordered by user id, the same way in every read. */
  rank: number;
}

type Page = { limit: number; offset: number };
type Board = { members: LeaderboardEntry[]; total: number };

/**
 * A page of the guild's members by the period's XP, highest first, without members who left;
 * `total` counts every member ranked in the period. `season` is the standings (current XP);
 * `all` adds every archived season's XP; `week` and `month` sum the daily rows since the
 * period's first UTC day. The API's leaderboards and `/leaderboard` read this.
 */
export async function loadPeriodLeaderboard(
  db: Db,
  guildId: string,
  period: LeaderboardPeriod,
  page: Page,
  now: Date = new Date(),
): Promise<Board> {
  const since = periodStartDay(period, now);
  if (since !== null) return loadDailyLeaderboard(db, guildId, since, page);
  if (period === 'all' && (await hasArchivedSeasons(db, guildId)))
    return loadAllTimeLeaderboard(db, guildId, page);
  return loadLeaderboard(db, guildId, page);
}

async function hasArchivedSeasons(db: Db, guildId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: levelingSeasons.id })
    .from(levelingSeasons)
    .where(eq(levelingSeasons.guildId, guildId))
    .limit(1);
  return row !== undefined;
}

interface BoardRow extends Record<string, unknown> {
  user_id: string;
  username: string | null;
  avatar: string | null;
  xp: string | number;
  level_xp: string | number;
  total: string | number;
}

function toBoard(rows: BoardRow[], page: Page): Board {
  return {
    members: rows.map((row, index) => ({
      userId: row.user_id,
      username: row.username,
      avatar: row.avatar,
      xp: Number(row.xp),
      levelXp: Number(row.level_xp),
      rank: page.offset + index + 1,
    })),
    total: Number(rows[0]?.total ?? 0),
  };
}

/** The XP earned since `since` (a UTC day), from the daily rows; members who left are not ranked. */
async function loadDailyLeaderboard(db: Db, guildId: string, since: string, page: Page): Promise<Board> {
  const result = await db.execute<BoardRow>(sql`
    WITH earned AS (
      SELECT d.user_id, sum(d.xp) AS xp
      FROM member_daily_xp d
      WHERE d.guild_id = ${guildId} AND d.day >= ${since}
      GROUP BY d.user_id
      HAVING sum(d.xp) > 0
    ), ranked AS (
      SELECT e.user_id, m.username, m.avatar, e.xp, m.xp AS level_xp
      FROM earned e
      JOIN member_xp m ON m.guild_id = ${guildId} AND m.user_id = e.user_id AND m.left_at IS NULL
    )
    SELECT r.*, count(*) OVER () AS total FROM ranked r
    ORDER BY r.xp DESC, r.user_id ASC
    LIMIT ${page.limit} OFFSET ${page.offset}`);
  return page.offset > 0 && result.rows.length === 0
    ? { members: [], total: await countDailyRanked(db, guildId, since) }
    : toBoard(result.rows, page);
}

async function countDailyRanked(db: Db, guildId: string, since: string): Promise<number> {
  const result = await db.execute<{ n: string }>(sql`
    SELECT count(*) AS n FROM (
      SELECT d.user_id FROM member_daily_xp d
      JOIN member_xp m ON m.guild_id = d.guild_id AND m.user_id = d.user_id AND m.left_at IS NULL
      WHERE d.guild_id = ${guildId} AND d.day >= ${since}
      GROUP BY d.user_id HAVING sum(d.xp) > 0
    ) ranked`);
  return Number(result.rows[0]?.n ?? 0);
}

/** Every XP a member earned: this season's and each archived season's. */
async function loadAllTimeLeaderboard(db: Db, guildId: string, page: Page): Promise<Board> {
  const ranked = sql`
    WITH archived AS (
      SELECT user_id, sum(xp) AS xp FROM leveling_season_members
      WHERE guild_id = ${guildId} GROUP BY user_id
    )
    SELECT m.user_id, m.username, m.avatar, m.xp + coalesce(a.xp, 0) AS xp, m.xp AS level_xp
    FROM member_xp m LEFT JOIN archived a ON a.user_id = m.user_id
    WHERE m.guild_id = ${guildId} AND m.left_at IS NULL AND m.xp + coalesce(a.xp, 0) > 0`;
  const result = await db.execute<BoardRow>(sql`
    SELECT r.*, count(*) OVER () AS total FROM (${ranked}) r
    ORDER BY r.xp DESC, r.user_id ASC
    LIMIT ${page.limit} OFFSET ${page.offset}`);
  if (page.offset === 0 || result.rows.length > 0) return toBoard(result.rows, page);
  const counted = await db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM (${ranked}) r`);
  return { members: [], total: Number(counted.rows[0]?.n ?? 0) };
}

/** The season's standings (current XP, which makes the level): a page and every ranked member. */
export async function loadLeaderboard(
  db: Db,
  guildId: string,
  page: { limit: number; offset: number },
): Promise<{ members: LeaderboardEntry[]; total: number }> {
  const ranked = rankedIn(guildId);
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        userId: memberXp.userId,
        username: memberXp.username,
        avatar: memberXp.avatar,
        xp: memberXp.xp,
      })
      .from(memberXp)
      .where(ranked)
      .orderBy(desc(memberXp.xp), asc(memberXp.userId))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(memberXp).where(ranked),
  ]);
  return {
    members: rows.map((row, index) => ({ ...row, levelXp: row.xp, rank: page.offset + index + 1 })),
    total: counted?.n ?? 0,
  };
}

/** One member's XP and rank in the guild, or null when they have none (or left, or were reset to 0). */
export async function loadMemberRank(
  db: Db,
  guildId: string,
  userId: string,
): Promise<LeaderboardEntry | null> {
  const [row] = await db
    .select({
      userId: memberXp.userId,
      username: memberXp.username,
      avatar: memberXp.avatar,
      xp: memberXp.xp,
      leftAt: memberXp.leftAt,
    })
    .from(memberXp)
    .where(and(eq(memberXp.guildId, guildId), eq(memberXp.userId, userId)))
    .limit(1);
  if (!row || row.leftAt !== null || row.xp <= 0) return null;
  const [ahead] = await db
    .select({ n: count() })
    .from(memberXp)
    .where(
      and(
        rankedIn(guildId),
        or(gt(memberXp.xp, row.xp), and(eq(memberXp.xp, row.xp), lt(memberXp.userId, row.userId))),
      ),
    );
  const { leftAt: _left, ...entry } = row;
  return { ...entry, levelXp: entry.xp, rank: (ahead?.n ?? 0) + 1 };
}
