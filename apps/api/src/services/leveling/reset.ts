import type { Db } from '@spacecadet/db';
import { deleteLevelingData, type StoredLevelingRole } from '@spacecadet/db/queries/leveling';
import { type LevelingSnapshot, loadLevelingSnapshot } from '@spacecadet/db/queries/leveling-snapshots';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { DiscordError } from '../discord.ts';

/**
 * Reset Leveling ("This deletes users, roles, and boosts"): the rows, kept whole first for the
 * undo (history `restore-leveling.ts`), then (best effort) the Discord roles the reward roles
 * created.
 */

/** Keeps every leveling row of the guild, then deletes them; answers both. */
export async function deleteLevelingRows(
  db: Db,
  guildId: string,
): Promise<{ snapshot: LevelingSnapshot; deletedRoles: StoredLevelingRole[] }> {
  const snapshot = await loadLevelingSnapshot(db, guildId);
  const deletedRoles = await deleteLevelingData(db, guildId);
  return { snapshot, deletedRoles };
}

/**
 * Deletes the Discord roles the deleted reward roles created. A Discord role that cannot be
 * deleted is logged and left for the admin.
 */
export async function deleteRewardDiscordRoles(
  app: FastifyInstance,
  guildId: string,
  roles: readonly StoredLevelingRole[],
  log: FastifyBaseLogger,
): Promise<void> {
  for (const role of roles) {
    if (role.roleId === null) continue;
    try {
      await app.services.discord.deleteGuildRole(guildId, role.roleId);
    } catch (error) {
      log.warn(
        { err: error, guildId, roleId: role.roleId },
        'reset-all: Discord role of a reward role not deleted',
      );
      // No answer from Discord: the next calls would only wait as long; stop here.
      if (error instanceof DiscordError && error.status === 0) break;
    }
  }
}
