import { MAX_LEVEL_ROLES } from '@spacecadet/core';
import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import {
  levelingBoosts,
  levelingRoles,
  levelingSettings,
  memberDailyXp,
  memberXp,
} from '../../schema/leveling.ts';

/**
 * A guild's level reward roles: read, added, updated, deleted (one guild's writes at a time),
 * their Discord role ids recorded, and all the guild's leveling data deleted at once.
 */

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

const storedRoleColumns = {
  id: levelingRoles.id,
  roleName: levelingRoles.roleName,
  levelRequired: levelingRoles.levelRequired,
  isImageRole: levelingRoles.isImageRole,
  roleId: levelingRoles.roleId,
};

/** The guild's reward roles, lowest level first (then oldest first). */
export async function loadLevelingRoles(db: Db, guildId: string): Promise<StoredLevelingRole[]> {
  return db
    .select(storedRoleColumns)
    .from(levelingRoles)
    .where(eq(levelingRoles.guildId, guildId))
    .orderBy(asc(levelingRoles.levelRequired), asc(levelingRoles.id));
}

/** One reward role of the guild, or null. */
export async function loadLevelingRole(
  db: Db,
  guildId: string,
  id: number,
): Promise<StoredLevelingRole | null> {
  const [row] = await db.select(storedRoleColumns).from(levelingRoles).where(ofGuildRole(guildId, id));
  return row ?? null;
}

function ofGuildRole(guildId: string, id: number) {
  return and(eq(levelingRoles.id, id), eq(levelingRoles.guildId, guildId));
}

/** The reward role of the guild at this level, other than `except`, if any. */
async function roleAtLevel(
  tx: Pick<Db, 'select'>,
  guildId: string,
  level: number,
  except?: number,
): Promise<StoredLevelingRole | undefined> {
  const [row] = await tx
    .select(storedRoleColumns)
    .from(levelingRoles)
    .where(
      and(
        eq(levelingRoles.guildId, guildId),
        eq(levelingRoles.levelRequired, level),
        except === undefined ? undefined : ne(levelingRoles.id, except),
      ),
    )
    .limit(1);
  return row;
}

export type NewLevelingRole = Pick<StoredLevelingRole, 'roleName' | 'levelRequired' | 'isImageRole'>;

/**
 * Adds a pending reward role, unless the guild has `MAX_LEVEL_ROLES` already (`full`) or one at
 * this level (`levelTaken`, with that role).
 */
export async function addLevelingRole(
  db: Db,
  guildId: string,
  role: NewLevelingRole,
): Promise<
  | { outcome: 'added'; role: StoredLevelingRole }
  | { outcome: 'full' }
  | { outcome: 'levelTaken'; holder: StoredLevelingRole }
> {
  return db.transaction(async (tx) => {
    await lockGuildRoles(tx, guildId);
    const [existing] = await tx
      .select({ n: count() })
      .from(levelingRoles)
      .where(eq(levelingRoles.guildId, guildId));
    if ((existing?.n ?? 0) >= MAX_LEVEL_ROLES) return { outcome: 'full' };
    const holder = await roleAtLevel(tx, guildId, role.levelRequired);
    if (holder) return { outcome: 'levelTaken', holder };
    const [row] = await tx
      .insert(levelingRoles)
      .values({ guildId, ...role })
      .returning(storedRoleColumns);
    if (!row) throw new Error('Level role insert returned no row');
    return { outcome: 'added', role: row };
  });
}

/**
 * Changes a reward role, unless it is gone (`missing`) or another role holds the new level
 * (`levelTaken`, with that role). `before` and `after` let the caller see what changed.
 */
export async function updateLevelingRole(
  db: Db,
  guildId: string,
  id: number,
  changes: Partial<NewLevelingRole>,
): Promise<
  | { outcome: 'updated'; before: StoredLevelingRole; after: StoredLevelingRole }
  | { outcome: 'missing' }
  | { outcome: 'levelTaken'; holder: StoredLevelingRole }
> {
  return db.transaction(async (tx) => {
    await lockGuildRoles(tx, guildId);
    const [current] = await tx.select(storedRoleColumns).from(levelingRoles).where(ofGuildRole(guildId, id));
    if (!current) return { outcome: 'missing' };
    if (changes.levelRequired !== undefined && changes.levelRequired !== current.levelRequired) {
      const holder = await roleAtLevel(tx, guildId, changes.levelRequired, id);
      if (holder) return { outcome: 'levelTaken', holder };
    }
    if (Object.keys(changes).length === 0) return { outcome: 'updated', before: current, after: current };
    const [updated] = await tx
      .update(levelingRoles)
      .set(changes)
      .where(ofGuildRole(guildId, id))
      .returning(storedRoleColumns);
    if (!updated) return { outcome: 'missing' };
    return { outcome: 'updated', before: current, after: updated };
  });
}

export async function deleteLevelingRole(db: Db, guildId: string, id: number): Promise<void> {
  await db.delete(levelingRoles).where(ofGuildRole(guildId, id));
}

/** One guild's reward-role writes at a time, so the cap and the one-role-per-level rule hold. */
async function lockGuildRoles(tx: Pick<Db, 'execute'>, guildId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`leveling_roles:${guildId}`}))`);
}

/**
 * Deletes all of a guild's leveling data in one transaction: settings, reward roles, boosts and
 * members' XP. Returns the reward roles deleted, whose Discord roles the caller may delete.
 */
export async function deleteLevelingData(db: Db, guildId: string): Promise<StoredLevelingRole[]> {
  return db.transaction(async (tx) => {
    await lockGuildRoles(tx, guildId);
    await tx.delete(levelingSettings).where(eq(levelingSettings.guildId, guildId));
    const roles = await tx
      .delete(levelingRoles)
      .where(eq(levelingRoles.guildId, guildId))
      .returning(storedRoleColumns);
    await tx.delete(levelingBoosts).where(eq(levelingBoosts.guildId, guildId));
    await tx.delete(memberXp).where(eq(memberXp.guildId, guildId));
    await tx.delete(memberDailyXp).where(eq(memberDailyXp.guildId, guildId));
    return roles;
  });
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
    .where(ofGuildRole(guildId, id))
    .returning({ id: levelingRoles.id });
  return rows.length > 0;
}
