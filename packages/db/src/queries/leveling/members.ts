import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { memberXp } from '../../schema/leveling.ts';

/**
 * Members' levels as the reward-role sync reads them.
 */

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
