import { and, asc, count, desc, eq, gt, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { levelingSettings, memberDailyXp, memberXp } from '../../schema/leveling.ts';
import { inShards, type ShardFilter } from '../shard-filter.ts';
import type { StoredLevelingSettings } from './settings.ts';

/**
 * The daily overview: which guilds get one, and one UTC day of a guild's activity.
 */

/** Guilds whose daily overview should be posted: leveling on and an overview channel set. */
export async function dailyOverviewGuilds(db: Db, shards?: ShardFilter): Promise<string[]> {
  const rows = await db
    .select({ guildId: levelingSettings.guildId })
    .from(levelingSettings)
    .where(
      and(
        eq(levelingSettings.enabled, true),
        isNotNull(levelingSettings.dailyOverviewChannel),
        inShards(levelingSettings.guildId, shards),
      ),
    );
  return rows.map((row) => row.guildId);
}

/** Whether these settings call for a daily overview (see `dailyOverviewGuilds`). */
export function wantsDailyOverview(settings: StoredLevelingSettings): boolean {
  return settings.enabled && settings.dailyOverviewChannel !== null;
}

export interface DailyOverviewEarner {
  userId: string;
  username: string | null;
  /** XP gained that day. */
  xp: number;
  /** The member's level now (0 when their XP row is gone). */
  level: number;
}

export interface StoredDailyOverview {
  day: string;
  top: DailyOverviewEarner[];
  /** Members with a row for that day (they sent a message that counted, or earned XP). */
  activeMembers: number;
  messages: number;
  levelUps: number;
  xp: number;
}

/** One UTC day (`YYYY-MM-DD`) of a guild's activity: totals and the `limit` top earners. */
export async function loadDailyOverview(
  db: Db,
  guildId: string,
  day: string,
  limit: number,
): Promise<StoredDailyOverview> {
  const ofDay = and(eq(memberDailyXp.guildId, guildId), eq(memberDailyXp.day, day));
  const [top, [totals]] = await Promise.all([
    db
      .select({
        userId: memberDailyXp.userId,
        username: memberXp.username,
        xp: memberDailyXp.xp,
        level: sql<number>`coalesce(${memberXp.level}, 0)`.mapWith(Number),
      })
      .from(memberDailyXp)
      .leftJoin(
        memberXp,
        and(eq(memberXp.guildId, memberDailyXp.guildId), eq(memberXp.userId, memberDailyXp.userId)),
      )
      .where(and(ofDay, gt(memberDailyXp.xp, 0)))
      .orderBy(desc(memberDailyXp.xp), asc(memberDailyXp.userId))
      .limit(limit),
    db
      .select({
        activeMembers: count(),
        messages: sql<number>`coalesce(sum(${memberDailyXp.messages}), 0)`.mapWith(Number),
        levelUps: sql<number>`coalesce(sum(${memberDailyXp.levelUps}), 0)`.mapWith(Number),
        xp: sql<number>`coalesce(sum(${memberDailyXp.xp}), 0)`.mapWith(Number),
      })
      .from(memberDailyXp)
      .where(ofDay),
  ]);
  return {
    day,
    top,
    activeMembers: totals?.activeMembers ?? 0,
    messages: totals?.messages ?? 0,
    levelUps: totals?.levelUps ?? 0,
    xp: totals?.xp ?? 0,
  };
}

/** Whether the guild has any day of chat recorded before `day` (a previous day to report). */
export async function hasDailyActivityBefore(db: Db, guildId: string, day: string): Promise<boolean> {
  const [row] = await db
    .select({ day: memberDailyXp.day })
    .from(memberDailyXp)
    .where(and(eq(memberDailyXp.guildId, guildId), lt(memberDailyXp.day, day)))
    .limit(1);
  return row !== undefined;
}
