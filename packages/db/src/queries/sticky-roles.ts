import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { stickyRoles } from '../schema/sticky-roles.ts';
import { inShards, type ShardFilter } from './shard-filter.ts';

/** Stores the roles a member held when they left (replacing an earlier leave's). */
export async function saveStickyRoles(
  db: Db,
  guildId: string,
  userId: string,
  roleIds: readonly string[],
  leftAt: Date,
): Promise<void> {
  await db
    .insert(stickyRoles)
    .values({ guildId, userId, roleIds: [...roleIds], leftAt })
    .onConflictDoUpdate({
      target: [stickyRoles.guildId, stickyRoles.userId],
      set: { roleIds: [...roleIds], leftAt },
      // A leave replayed late (an older one) never overwrites a newer record.
      setWhere: sql`${stickyRoles.leftAt} <= excluded.left_at`,
    });
}

/** The member's stored roles, or null. */
export async function stickyRolesOf(
  db: Db,
  guildId: string,
  userId: string,
): Promise<{ roleIds: string[]; leftAt: Date } | null> {
  const [row] = await db
    .select({ roleIds: stickyRoles.roleIds, leftAt: stickyRoles.leftAt })
    .from(stickyRoles)
    .where(and(eq(stickyRoles.guildId, guildId), eq(stickyRoles.userId, userId)));
  return row ?? null;
}

/** Forgets the record of one leave (after it was given back), not a newer one. */
export async function deleteStickyRoles(
  db: Db,
  guildId: string,
  userId: string,
  leftAt: Date,
): Promise<void> {
  await db
    .delete(stickyRoles)
    .where(
      and(eq(stickyRoles.guildId, guildId), eq(stickyRoles.userId, userId), eq(stickyRoles.leftAt, leftAt)),
    );
}

/** Deletes the guild's records of leaves before `before`; returns how many. */
export async function purgeStickyRoles(db: Db, guildId: string, before: Date): Promise<number> {
  const result = await db
    .delete(stickyRoles)
    .where(and(eq(stickyRoles.guildId, guildId), lt(stickyRoles.leftAt, before)));
  return result.rowCount ?? 0;
}

/** Guilds that hold any record (the daily purge's schedule). */
export async function guildsWithStickyRoles(db: Db, shards?: ShardFilter): Promise<string[]> {
  const rows = await db
    .selectDistinct({ guildId: stickyRoles.guildId })
    .from(stickyRoles)
    .where(inShards(stickyRoles.guildId, shards));
  return rows.map((row) => row.guildId);
}
