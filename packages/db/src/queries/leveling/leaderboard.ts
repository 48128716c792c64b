import { and, asc, count, desc, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { memberXp } from '../../schema/leveling.ts';

/**
 * The guild's ranking by XP: a leaderboard page and one member's rank.
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
    members: rows.map((row, index) => ({ ...row, rank: page.offset + index + 1 })),
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
  return { ...entry, rank: (ahead?.n ?? 0) + 1 };
}
