import type { LevelingRole } from '@spacecadet/contract';
import { MAX_LEVEL_ROLES } from '@spacecadet/core';
import type { Db } from '@spacecadet/db';
import {
  addLevelingRole,
  deleteLevelingRole,
  enableLeveling,
  loadLevelingRoles,
  loadLevelingSettings,
  type StoredLevelingRole,
  updateLevelingRole,
} from '@spacecadet/db/queries/leveling';
import type { RewardRoleSnapshot } from '@spacecadet/db/queries/leveling-snapshots';
import { countRewardHolders } from '@spacecadet/db/queries/xp-tools';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, notFound } from '../../errors.ts';
import { DiscordError } from '../discord.ts';
import type { JobRequester } from '../jobs.ts';
import { queueSyncRoles } from './jobs.ts';

/**
 * Reward roles (the level roles): their API and History shapes, their writes (add, change,
 * delete with the Discord role it created), the members each one is given to, and the
 * History summaries of a change.
 */

export const NO_LEVEL_ROLE_MESSAGE = 'No such level role';
export const LEVEL_ROLE_CAP_MESSAGE = `A server can have at most ${MAX_LEVEL_ROLES} level roles. Delete one to add another.`;
export const levelTakenMessage = (level: number, roleName: string) =>
  `Level ${level} already has the reward role "${roleName}". Edit that role, or choose another level.`;
const levelTaken = (holder: StoredLevelingRole) =>
  new ApiError('conflict', levelTakenMessage(holder.levelRequired, holder.roleName));
export const discordRoleNotDeletedMessage = (roleName: string, status: number) =>
  `Discord did not delete the role "${roleName}" (${status ? `Discord answered ${status}` : 'no answer'}). ` +
  'The reward role is kept; try again in a moment.';
export const discordRoleForbiddenMessage = (roleName: string) =>
  `Space Cadet may not delete the Discord role "${roleName}": give it Manage Roles and move its role ` +
  'above that one, or delete the role in Discord yourself, then delete the reward role again.';

/** A reward role as its history entry keeps it (`leveling:role:<id>`): holders change by themselves. */
export type LevelingRoleState = Omit<LevelingRole, 'id' | 'holders'>;

export function toRole(row: StoredLevelingRole, holders: ReadonlyMap<number, number>): LevelingRole {
  return {
    id: row.id,
    role_name: row.roleName,
    level_required: row.levelRequired,
    is_image_role: row.isImageRole,
    role_id: row.roleId,
    holders: holders.get(row.id) ?? 0,
  };
}

export function toRoleState(row: StoredLevelingRole): LevelingRoleState {
  return {
    role_name: row.roleName,
    level_required: row.levelRequired,
    is_image_role: row.isImageRole,
    role_id: row.roleId,
  };
}

/** What a deleted reward role's history entry keeps, for its undo. */
export function toRewardRoleSnapshot(row: StoredLevelingRole): RewardRoleSnapshot {
  return {
    id: row.id,
    roleName: row.roleName,
    levelRequired: row.levelRequired,
    isImageRole: row.isImageRole,
  };
}

/** Members each reward role of the guild is given to, under the guild's reward mode. */
export async function rewardHolders(db: Db, guildId: string): Promise<Map<number, number>> {
  const [settings, roles] = await Promise.all([
    loadLevelingSettings(db, guildId),
    loadLevelingRoles(db, guildId),
  ]);
  return countRewardHolders(db, guildId, roles, settings.rewardMode);
}

/** Adds a reward role (pending: Sync Roles creates its Discord role) and turns leveling on. */
export async function addRewardRole(
  db: Db,
  guildId: string,
  role: Pick<StoredLevelingRole, 'roleName' | 'levelRequired' | 'isImageRole'>,
): Promise<StoredLevelingRole> {
  const added = await addLevelingRole(db, guildId, role);
  if (added.outcome === 'full') throw new ApiError('conflict', LEVEL_ROLE_CAP_MESSAGE);
  if (added.outcome === 'levelTaken') throw levelTaken(added.holder);
  await enableLeveling(db, guildId);
  return added.role;
}

/**
 * Deletes the Discord role a reward role created. Gone already counts as done; any other
 * failure keeps the reward row (the caller has not deleted it yet) and answers why.
 */
async function deleteDiscordRole(
  app: FastifyInstance,
  guildId: string,
  row: StoredLevelingRole,
  roleId: string,
): Promise<void> {
  try {
    await app.services.discord.deleteGuildRole(guildId, roleId);
  } catch (error) {
    if (!(error instanceof DiscordError)) throw error;
    if (error.status === 403) throw new ApiError('conflict', discordRoleForbiddenMessage(row.roleName));
    const failure = new ApiError(
      'service_unavailable',
      discordRoleNotDeletedMessage(row.roleName, error.status),
    );
    failure.cause = error;
    throw failure;
  }
}

/**
 * Deletes a reward role as `DELETE …/leveling/roles/{id}` does: a created role's Discord role
 * goes first; if Discord refuses, the reward row is kept and the error says why.
 */
export async function removeRewardRole(
  app: FastifyInstance,
  guildId: string,
  row: StoredLevelingRole,
): Promise<void> {
  if (row.roleId !== null) await deleteDiscordRole(app, guildId, row, row.roleId);
  await deleteLevelingRole(app.services.db, guildId, row.id);
}

/** Changes a reward role as `PATCH` does; Sync Roles follows when a created role changed. */
export async function changeRewardRole(
  app: FastifyInstance,
  guildId: string,
  roleId: number,
  changes: Partial<Pick<StoredLevelingRole, 'roleName' | 'levelRequired' | 'isImageRole'>>,
  requester: JobRequester,
  request: FastifyRequest,
): Promise<{ before: StoredLevelingRole; after: StoredLevelingRole; jobId: string | null }> {
  const updated = await updateLevelingRole(app.services.db, guildId, roleId, changes);
  if (updated.outcome === 'missing') throw notFound(NO_LEVEL_ROLE_MESSAGE);
  if (updated.outcome === 'levelTaken') throw levelTaken(updated.holder);
  const { before, after } = updated;
  // A created role whose name, level or image flag changed: Sync Roles renames the Discord role
  // and re-applies the rewards. A pending role is created with the new values anyway.
  const changed =
    before.roleName !== after.roleName ||
    before.levelRequired !== after.levelRequired ||
    before.isImageRole !== after.isImageRole;
  const jobId =
    after.roleId !== null && changed
      ? await queueSyncRoles(app, guildId, requester, request, 'the next Sync Roles applies it')
      : null;
  return { before, after, jobId };
}

/** 'reward role "Veteran": level 10 → 12, name "Vet" → "Veteran"'. */
export function roleSummary(before: StoredLevelingRole, after: StoredLevelingRole): string {
  const parts = [
    before.roleName === after.roleName ? '' : `name "${before.roleName}" → "${after.roleName}"`,
    before.levelRequired === after.levelRequired
      ? ''
      : `level ${before.levelRequired} → ${after.levelRequired}`,
    before.isImageRole === after.isImageRole
      ? ''
      : `image role ${before.isImageRole ? 'on' : 'off'} → ${after.isImageRole ? 'on' : 'off'}`,
  ].filter(Boolean);
  const name = `Edited the reward role "${after.roleName}"`;
  return parts.length === 0 ? name : `${name}: ${parts.join(', ')}`;
}
