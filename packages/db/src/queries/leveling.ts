import {
  MESSAGE_COOLDOWN_DEFAULT_SEC,
  XP_MULTIPLIER_DEFAULT,
  XP_PER_MESSAGE_DEFAULT,
} from '@spacecadet/core';
import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import {
  type LevelingSettingsRow,
  levelingBoosts,
  levelingRoles,
  levelingSettings,
  memberDailyXp,
  memberXp,
} from '../schema/leveling.ts';

/**
 * Leveling reads both the API and the worker make: the settings the dashboard shows are the
 * ones XP is earned with.
 */

export interface StoredLevelingSettings {
  enabled: boolean;
  xpMultiplier: number;
  announcementChannel: string | null;
  dailyOverviewChannel: string | null;
  xpPerMessage: number;
  messageCooldownSec: number;
}

/** What a guild that never saved its leveling settings has (core's defaults, leveling off). */
export const DEFAULT_LEVELING_SETTINGS: Readonly<StoredLevelingSettings> = Object.freeze({
  enabled: false,
  xpMultiplier: XP_MULTIPLIER_DEFAULT,
  announcementChannel: null,
  dailyOverviewChannel: null,
  xpPerMessage: XP_PER_MESSAGE_DEFAULT,
  messageCooldownSec: MESSAGE_COOLDOWN_DEFAULT_SEC,
});

export function storedLevelingSettings(row: LevelingSettingsRow | undefined): StoredLevelingSettings {
  if (!row) return { ...DEFAULT_LEVELING_SETTINGS };
  return {
    enabled: row.enabled,
    xpMultiplier: row.xpMultiplier,
    announcementChannel: row.announcementChannel,
    dailyOverviewChannel: row.dailyOverviewChannel,
    xpPerMessage: row.xpPerMessage,
    messageCooldownSec: row.messageCooldownSec,
  };
}

export async function loadLevelingSettings(db: Db, guildId: string): Promise<StoredLevelingSettings> {
  const [row] = await db
    .select()
    .from(levelingSettings)
    .where(eq(levelingSettings.guildId, guildId))
    .limit(1);
  return storedLevelingSettings(row);
}

export interface LeaderboardEntry {
  userId: string;
  username: string | null;
  avatar: string | null;
  xp: number;
  /** 1-based position by XP; ties are ordered by user id, the same way in every read. */
  rank: number;
}

/**
 * A page of the guild's members by XP, highest first, without members who left; `total` counts
 * every ranked member. The API's leaderboard and the `/leaderboard` command read this.
 */
export async function loadLeaderboard(
  db: Db,
  guildId: string,
  page: { limit: number; offset: number },
): Promise<{ members: LeaderboardEntry[]; total: number }> {
  const ranked = and(eq(memberXp.guildId, guildId), isNull(memberXp.leftAt));
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
    members: rows.map((row, index) => ({ ...row, rank: page.offset + index + 1 })),
    total: counted?.n ?? 0,
  };
}

/** One member's XP and rank in the guild, or null when they have none (or left). */
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
  if (!row || row.leftAt !== null) return null;
  const [ahead] = await db
    .select({ n: count() })
    .from(memberXp)
    .where(
      and(
        eq(memberXp.guildId, guildId),
        isNull(memberXp.leftAt),
        or(gt(memberXp.xp, row.xp), and(eq(memberXp.xp, row.xp), lt(memberXp.userId, row.userId))),
      ),
    );
  const { leftAt: _left, ...entry } = row;
  return { ...entry, rank: (ahead?.n ?? 0) + 1 };
}

export interface StoredBoost {
  multiplier: number;
  /** null = server-wide, `-role:<id>` = a role's boost, else one member's (core's `boostTarget`). */
  userId: string | null;
  expiresAt: Date | null;
}

/** The guild's boosts, expired ones included (core's `activeBoostMultiplier` skips those). */
export async function loadLevelingBoosts(db: Db, guildId: string): Promise<StoredBoost[]> {
  return db
    .select({
      multiplier: levelingBoosts.multiplier,
      userId: levelingBoosts.userId,
      expiresAt: levelingBoosts.expiresAt,
    })
    .from(levelingBoosts)
    .where(eq(levelingBoosts.guildId, guildId));
}

/** The Postgres channel migration 0006's triggers announce a guild's leveling setup changes on. */
export const LEVELING_SETUP_CHANNEL = 'leveling_setup_changed';

/** A level reward role as the worker syncs and grants it; `roleId` null = pending. */
export interface StoredLevelingRole {
  id: number;
  roleName: string;
  levelRequired: number;
  isImageRole: boolean;
  roleId: string | null;
}

/** The guild's reward roles, lowest level first (then oldest first). */
export async function loadLevelingRoles(db: Db, guildId: string): Promise<StoredLevelingRole[]> {
  return db
    .select({
      id: levelingRoles.id,
      roleName: levelingRoles.roleName,
      levelRequired: levelingRoles.levelRequired,
      isImageRole: levelingRoles.isImageRole,
      roleId: levelingRoles.roleId,
    })
    .from(levelingRoles)
    .where(eq(levelingRoles.guildId, guildId))
    .orderBy(asc(levelingRoles.levelRequired), asc(levelingRoles.id));
}

/** Records the Discord role made for a reward role; false when the reward role is gone. */
export async function setLevelingRoleId(
  db: Db,
  guildId: string,
  id: number,
  roleId: string | null,
): Promise<boolean> {
  const rows = await db
    .update(levelingRoles)
    .set({ roleId })
    .where(and(eq(levelingRoles.id, id), eq(levelingRoles.guildId, guildId)))
    .returning({ id: levelingRoles.id });
  return rows.length > 0;
}

/** Level of every member (not marked as left) at `minLevel` or above, by user id. */
export async function loadMemberLevels(
  db: Db,
  guildId: string,
  minLevel: number,
): Promise<Map<string, number>> {
  const rows = await db
    .select({ userId: memberXp.userId, level: memberXp.level })
    .from(memberXp)
    .where(
      and(eq(memberXp.guildId, guildId), isNull(memberXp.leftAt), sql`${memberXp.level} >= ${minLevel}`),
    );
  return new Map(rows.map((row) => [row.userId, row.level]));
}

/** Guilds whose daily overview should be posted: leveling on and an overview channel set. */
export async function dailyOverviewGuilds(db: Db): Promise<string[]> {
  const rows = await db
    .select({ guildId: levelingSettings.guildId })
    .from(levelingSettings)
    .where(and(eq(levelingSettings.enabled, true), isNotNull(levelingSettings.dailyOverviewChannel)));
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

/** Every member with XP in the guild and when they were seen leaving (null = not seen). */
export async function loadXpMembers(
  db: Db,
  guildId: string,
): Promise<Array<{ userId: string; leftAt: Date | null }>> {
  return db
    .select({ userId: memberXp.userId, leftAt: memberXp.leftAt })
    .from(memberXp)
    .where(eq(memberXp.guildId, guildId));
}

/** Clears the leave mark of members found in the guild again (marked before `before`). */
export async function unmarkLeft(
  db: Db,
  guildId: string,
  userIds: readonly string[],
  before: Date,
): Promise<number> {
  if (userIds.length === 0) return 0;
  const rows = await db
    .update(memberXp)
    .set({ leftAt: null })
    .where(
      and(eq(memberXp.guildId, guildId), inArray(memberXp.userId, [...userIds]), lt(memberXp.leftAt, before)),
    )
    .returning({ userId: memberXp.userId });
  return rows.length;
}

/**
 * Deletes the XP (running and daily) of members who left. `onlyIfMarkedBefore` deletes a row
 * only while it still carries a leave mark older than that time, so a member whose return was
 * recorded meanwhile keeps their XP. Returns the user ids whose XP was deleted.
 */
export async function deleteMemberXp(
  db: Db,
  guildId: string,
  userIds: readonly string[],
  onlyIfMarkedBefore?: Date,
): Promise<string[]> {
  if (userIds.length === 0) return [];
  return db.transaction(async (tx) => {
    const deleted = await tx
      .delete(memberXp)
      .where(
        and(
          eq(memberXp.guildId, guildId),
          inArray(memberXp.userId, [...userIds]),
          onlyIfMarkedBefore ? lt(memberXp.leftAt, onlyIfMarkedBefore) : undefined,
        ),
      )
      .returning({ userId: memberXp.userId });
    const ids = deleted.map((row) => row.userId);
    if (ids.length > 0) {
      await tx
        .delete(memberDailyXp)
        .where(and(eq(memberDailyXp.guildId, guildId), inArray(memberDailyXp.userId, ids)));
    }
    return ids;
  });
}
