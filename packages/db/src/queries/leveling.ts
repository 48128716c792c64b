import {
  MESSAGE_COOLDOWN_DEFAULT_SEC,
  XP_MULTIPLIER_DEFAULT,
  XP_PER_MESSAGE_DEFAULT,
} from '@spacecadet/core';
import { and, asc, count, desc, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { type LevelingSettingsRow, levelingSettings, memberXp } from '../schema/leveling.ts';

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
