import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { memberXp } from '../../schema/leveling.ts';

/**
 * Members' levels as the reward-role sync reads them.
 */

/**
 * The level whose rewards a member holds: their level, or the one they kept when a season
 * ended with `keep_rewards` if that is higher (`member_xp.kept_level`). Every reward reader
 * uses it, so a level-up or Sync Roles after such a season leaves the kept roles alone.
 */
export const rewardLevel = sql<number>`greatest(${memberXp.level}, ${memberXp.keptLevel})`;

/** The reward level of every member (not marked as left) at `minLevel` or above, by user id. */
export async function loadMemberLevels(
  db: Db,
  guildId: string,
  minLevel: number,
): Promise<Map<string, number>> {
  const rows = await db
    .select({ userId: memberXp.userId, level: rewardLevel })
    .from(memberXp)
    .where(and(eq(memberXp.guildId, guildId), isNull(memberXp.leftAt), sql`${rewardLevel} >= ${minLevel}`));
  return new Map(rows.map((row) => [row.userId, row.level]));
}
