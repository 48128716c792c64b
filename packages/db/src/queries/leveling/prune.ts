import { and, eq, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { memberDailyXp, memberXp } from '../../schema/leveling.ts';

/**
 * Pruning the XP of members who left: who has XP, leave marks cleared, XP deleted.
 */

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
