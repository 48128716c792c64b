import { and, eq } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { memberXp } from '../../schema/leveling.ts';
import { type RankCardBackgroundRow, rankCardBackgrounds } from '../../schema/leveling-seasons.ts';

/** A server's own rank card background and a member's own card accent. */

export async function hasRankCardBackground(db: Db, guildId: string): Promise<boolean> {
  return (await rankCardBackgroundStamp(db, guildId)) !== null;
}

/** When the server's background was last set (a cache key), or null when it has none. */
export async function rankCardBackgroundStamp(db: Db, guildId: string): Promise<Date | null> {
  const [row] = await db
    .select({ updatedAt: rankCardBackgrounds.updatedAt })
    .from(rankCardBackgrounds)
    .where(eq(rankCardBackgrounds.guildId, guildId))
    .limit(1);
  return row?.updatedAt ?? null;
}

export async function loadRankCardBackground(db: Db, guildId: string): Promise<RankCardBackgroundRow | null> {
  const [row] = await db
    .select()
    .from(rankCardBackgrounds)
    .where(eq(rankCardBackgrounds.guildId, guildId))
    .limit(1);
  return row ?? null;
}

/** Sets (replaces) the server's background; the image as base64. */
export async function saveRankCardBackground(
  db: Db,
  background: { guildId: string; contentType: string; image: string; width: number; height: number },
): Promise<void> {
  const values = { ...background, updatedAt: new Date() };
  await db
    .insert(rankCardBackgrounds)
    .values(values)
    .onConflictDoUpdate({ target: rankCardBackgrounds.guildId, set: values });
}

/** Removes the server's background; whether there was one. */
export async function deleteRankCardBackground(db: Db, guildId: string): Promise<boolean> {
  const rows = await db
    .delete(rankCardBackgrounds)
    .where(eq(rankCardBackgrounds.guildId, guildId))
    .returning({ guildId: rankCardBackgrounds.guildId });
  return rows.length > 0;
}

/** The member's own card accent (null: the server's), or undefined when they have no XP row. */
export async function memberCardAccent(
  db: Db,
  guildId: string,
  userId: string,
): Promise<string | null | undefined> {
  const [row] = await db
    .select({ cardAccent: memberXp.cardAccent })
    .from(memberXp)
    .where(and(eq(memberXp.guildId, guildId), eq(memberXp.userId, userId)))
    .limit(1);
  return row ? row.cardAccent : undefined;
}

/** Sets the member's own card accent (null: back to the server's); false when they have no XP row. */
export async function setMemberCardAccent(
  db: Db,
  guildId: string,
  userId: string,
  accent: string | null,
): Promise<boolean> {
  const rows = await db
    .update(memberXp)
    .set({ cardAccent: accent })
    .where(and(eq(memberXp.guildId, guildId), eq(memberXp.userId, userId)))
    .returning({ userId: memberXp.userId });
  return rows.length > 0;
}
