import { and, asc, eq, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { levelingBoosts } from '../../schema/leveling.ts';

/**
 * A guild's XP boosts (timed multipliers): read, added, deleted and expired.
 */

export interface StoredBoost {
  id: number;
  multiplier: number;
  /** null = server-wide, `-role:<id>` = a role's boost, else one member's (core's `boostTarget`). */
  userId: string | null;
  expiresAt: Date | null;
}

const storedBoostColumns = {
  id: levelingBoosts.id,
  multiplier: levelingBoosts.multiplier,
  userId: levelingBoosts.userId,
  expiresAt: levelingBoosts.expiresAt,
};

/**
 * The guild's boosts, oldest first, expired ones included (core's `activeBoostMultiplier` skips
 * those).
 */
export async function loadLevelingBoosts(db: Db, guildId: string): Promise<StoredBoost[]> {
  return db
    .select(storedBoostColumns)
    .from(levelingBoosts)
    .where(eq(levelingBoosts.guildId, guildId))
    .orderBy(asc(levelingBoosts.id));
}

/** Many guilds' boosts in one query, each guild's oldest first (every guild asked has an entry). */
export async function loadLevelingBoostsOf(
  db: Db,
  guildIds: readonly string[],
): Promise<Map<string, StoredBoost[]>> {
  const boosts = new Map(guildIds.map((guildId): [string, StoredBoost[]] => [guildId, []]));
  if (guildIds.length === 0) return boosts;
  const rows = await db
    .select({ guildId: levelingBoosts.guildId, ...storedBoostColumns })
    .from(levelingBoosts)
    .where(inArray(levelingBoosts.guildId, [...guildIds]))
    .orderBy(asc(levelingBoosts.id));
  for (const { guildId, ...boost } of rows) boosts.get(guildId)?.push(boost);
  return boosts;
}

export async function addLevelingBoost(
  db: Db,
  guildId: string,
  boost: Omit<StoredBoost, 'id'>,
): Promise<StoredBoost> {
  const [row] = await db
    .insert(levelingBoosts)
    .values({ guildId, ...boost })
    .returning(storedBoostColumns);
  if (!row) throw new Error('Boost insert returned no row');
  return row;
}

/** Deletes one boost of the guild; false when it has no such boost. */
export async function deleteLevelingBoost(db: Db, guildId: string, id: number): Promise<boolean> {
  const deleted = await db
    .delete(levelingBoosts)
    .where(and(eq(levelingBoosts.id, id), eq(levelingBoosts.guildId, guildId)))
    .returning({ id: levelingBoosts.id });
  return deleted.length > 0;
}

/** Deletes the guild's boosts that expired before `cutoff`. */
export async function deleteBoostsExpiredBefore(db: Db, guildId: string, cutoff: Date): Promise<void> {
  await db
    .delete(levelingBoosts)
    .where(and(eq(levelingBoosts.guildId, guildId), lt(levelingBoosts.expiresAt, cutoff)));
}
