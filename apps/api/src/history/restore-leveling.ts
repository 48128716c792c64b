import { type LevelingSettings, routes } from '@spacecadet/contract';
import { boostTarget } from '@spacecadet/core';
import { loadLevelingRole, loadLevelingSettings } from '@spacecadet/db/queries/leveling';
import { undoSeasonEnd } from '@spacecadet/db/queries/leveling/seasons';
import {
  type LevelingSnapshot,
  loadLevelingBoost,
  loadMemberXpValue,
  type RewardRoleSnapshot,
  restoreLevelingBoost,
  restoreLevelingSnapshot,
  restoreRewardRole,
  restoreXpRows,
  takeLevelingBoost,
  type XpRowsSnapshot,
} from '@spacecadet/db/queries/leveling-snapshots';
import { changeMemberXp } from '@spacecadet/db/queries/xp-tools';
import type { HistoryRow } from '@spacecadet/db/schema';
import { guildJobPending } from '@spacecadet/queue/guild-jobs';
import { ApiError } from '../errors.ts';
import { type BoostState, toBoostState } from '../services/leveling/boosts.ts';
import { queueApplyRewards, queueSyncRoles } from '../services/leveling/jobs.ts';
import {
  changeRewardRole,
  type LevelingRoleState,
  removeRewardRole,
  toRoleState,
} from '../services/leveling/rewards.ts';
import { refuseWhileXpJobRuns } from '../services/leveling/seasons.ts';
import { toSettings, writeLevelingSettings } from '../services/leveling/settings.ts';
import type { AreaRestorers, UndoContext, UndoOutcome } from './restorers.ts';
import { checkAsRoute } from './route-checks.ts';

/**
 * The member, role or channel a boost applies to must still be the server's, as the route that
 * adds such a boost checks it (400 naming the field otherwise).
 */
async function checkBoostTarget(context: UndoContext, userId: string | null): Promise<void> {
  const target = boostTarget(userId);
  if (target.kind === 'user') await checkAsRoute(context, routes.createBoost, { user_id: target.userId });
  if (target.kind === 'role') await checkAsRoute(context, routes.createRoleBoost, { role_id: target.roleId });
  if (target.kind === 'channel')
    await checkAsRoute(context, routes.createChannelBoost, { channel_id: target.channelId });
}

export const rewardLevelTakenMessage = (level: number) =>
  `Level ${level} has another reward role now: delete or move it, then undo again.`;
export const boostExpiredMessage = (expiresAt: string) =>
  `This boost expired at ${expiresAt}: an expired boost cannot come back. Add a new boost instead.`;
export const PRUNE_RUNNING_MESSAGE =
  'Prune leavers is running: undo once it is done, so it does not delete the XP this undo puts back.';
export const SNAPSHOT_UNREADABLE_MESSAGE =
  'What this change removed was not kept whole, so it cannot be undone.';

const SYNC_LATER = 'the next Sync Roles gives the reward roles back';
export const SYNC_ROLES_NOT_QUEUED =
  'Sync Roles could not be queued: press Sync Roles on the Leveling page to give the reward roles back.';
export const SEASON_GONE_MESSAGE = 'This season is no longer stored, so its end cannot be undone.';
export const laterSeasonMessage = (later: string) =>
  `The season "${later}" ended after this one: undo its end first.`;
export const REWARDS_NOT_QUEUED =
  "The job that updates the member's reward roles could not be queued: press Sync Roles on the Leveling page.";

function numericId(id: string | null): number {
  const value = Number(id);
  if (!Number.isSafeInteger(value)) throw new ApiError('conflict', SNAPSHOT_UNREADABLE_MESSAGE);
  return value;
}

/**
 * The rows are back; Sync Roles brings Discord in line. A queue that is down does not undo the
 * restore (nothing is lost): the undo's entry tells the admin to run Sync Roles.
 */
async function syncRoles(context: UndoContext): Promise<UndoOutcome> {
  const jobId = await queueSyncRoles(
    context.app,
    context.guildId,
    context.requester,
    context.request,
    SYNC_LATER,
  );
  return jobId === null ? { jobId, catchUp: SYNC_ROLES_NOT_QUEUED } : { jobId };
}

function snapshotOf<T>(entry: HistoryRow, key: keyof T & string): T {
  const snapshot = entry.snapshot as Partial<T> | null;
  if (!snapshot || snapshot[key as keyof T] === undefined)
    throw new ApiError('conflict', SNAPSHOT_UNREADABLE_MESSAGE);
  return snapshot as T;
}

/**
 * XP rows put back while Prune leavers runs could be deleted by it without being kept (it keeps
 * what it deletes before its deletes start): refused until it is done. A queue that cannot be
 * asked runs no job either; the undo goes on.
 */
async function refuseWhilePruning(context: UndoContext): Promise<void> {
  let running = false;
  try {
    running = await guildJobPending(context.app.services.queue, 'leveling.prune-leavers', context.guildId);
  } catch (error) {
    context.request.log.warn(
      { err: error, guildId: context.guildId },
      'prune job state not read before an undo',
    );
  }
  if (running) throw new ApiError('conflict', PRUNE_RUNNING_MESSAGE);
}

/** Puts a reward role back, pending: Sync Roles makes its Discord role and gives it again. */
async function putRewardRoleBack(context: UndoContext, role: RewardRoleSnapshot): Promise<UndoOutcome> {
  if (!(await restoreRewardRole(context.app.services.db, context.guildId, role)))
    throw new ApiError('conflict', rewardLevelTakenMessage(role.levelRequired));
  return syncRoles(context);
}

/** Undo of leveling changes (see `restorers.ts`). */
export const levelingRestorers: AreaRestorers = {
  state: {
    'leveling:settings': {
      async read(context) {
        return toSettings(await loadLevelingSettings(context.app.services.db, context.guildId));
      },
      async restore(context, _id, state) {
        // A channel or role of the settings deleted since: a 400 naming it, as the PUT answers.
        await checkAsRoute(context, routes.putLeveling, state);
        const { jobId } = await writeLevelingSettings(
          context.app,
          context.guildId,
          state as LevelingSettings,
          context.requester,
          context.request,
          { restoring: true },
        );
        return { jobId };
      },
    },
    'leveling:role': {
      async read(context, id) {
        const row = await loadLevelingRole(context.app.services.db, context.guildId, numericId(id));
        return row ? toRoleState(row) : null;
      },
      async restore(context, id, state) {
        const roleId = numericId(id);
        const row = await loadLevelingRole(context.app.services.db, context.guildId, roleId);
        if (state === null) {
          if (row) await removeRewardRole(context.app, context.guildId, row);
          return {};
        }
        const role = state as LevelingRoleState;
        if (!row) {
          return putRewardRoleBack(context, {
            id: roleId,
            roleName: role.role_name,
            levelRequired: role.level_required,
            isImageRole: role.is_image_role,
          });
        }
        const { jobId } = await changeRewardRole(
          context.app,
          context.guildId,
          roleId,
          { roleName: role.role_name, levelRequired: role.level_required, isImageRole: role.is_image_role },
          context.requester,
          context.request,
        );
        return { jobId };
      },
    },
    'leveling:boost': {
      async read(context, id) {
        const row = await loadLevelingBoost(context.app.services.db, context.guildId, numericId(id));
        return row ? toBoostState(row) : null;
      },
      async restore(context, id, state) {
        const { db } = context.app.services;
        const boostId = numericId(id);
        if (state === null) {
          await takeLevelingBoost(db, context.guildId, boostId);
          return {};
        }
        const boost = state as BoostState;
        if (boost.expires_at !== null && new Date(boost.expires_at).getTime() <= Date.now())
          throw new ApiError('conflict', boostExpiredMessage(boost.expires_at));
        await checkBoostTarget(context, boost.user_id);
        await restoreLevelingBoost(db, context.guildId, {
          id: boostId,
          multiplier: boost.multiplier,
          userId: boost.user_id,
          expiresAt: boost.expires_at === null ? null : new Date(boost.expires_at),
        });
        return {};
      },
    },
    'leveling:xp': {
      async read(context, userId) {
        return { xp: await loadMemberXpValue(context.app.services.db, context.guildId, userId ?? '') };
      },
      async restore(context, userId, state) {
        if (userId === null) throw new ApiError('conflict', SNAPSHOT_UNREADABLE_MESSAGE);
        const xp = (state as { xp: number } | null)?.xp ?? 0;
        await changeMemberXp(context.app.services.db, context.guildId, userId, { set: xp });
        const jobId = await queueApplyRewards(
          context.app,
          context.guildId,
          context.requester,
          context.request,
        );
        return jobId === null ? { jobId, catchUp: REWARDS_NOT_QUEUED } : { jobId };
      },
    },
  },
  snapshot: {
    // Every row back as it was (a member who has earned more XP since keeps the larger), the
    // reward roles pending: Sync Roles makes their Discord roles again and gives them to the
    // members whose level earns them.
    'leveling.reset_all': {
      async restore(context, entry) {
        const snapshot = snapshotOf<LevelingSnapshot>(entry, 'members');
        await refuseWhilePruning(context);
        await restoreLevelingSnapshot(context.app.services.db, context.guildId, snapshot);
        return syncRoles(context);
      },
    },
    'leveling.role_delete': {
      async restore(context, entry) {
        const { role } = snapshotOf<{ role: RewardRoleSnapshot }>(entry, 'role');
        return putRewardRoleBack(context, role);
      },
    },
    // The leavers' rows back; one who has XP again (came back) keeps the larger of the two.
    // Sync Roles then brings everyone's reward roles in line with their level.
    'leveling.prune': {
      async restore(context, entry) {
        const snapshot = snapshotOf<XpRowsSnapshot>(entry, 'members');
        await refuseWhilePruning(context);
        await restoreXpRows(context.app.services.db, context.guildId, snapshot, 'keepLarger');
        return syncRoles(context);
      },
    },
    // Every archived member gets their XP back plus what they earned since, the season's
    // archive is deleted and the current season began when it did; rewards follow the levels.
    'leveling.season_end': {
      async restore(context, entry) {
        const { season_id } = snapshotOf<{ season_id: number }>(entry, 'season_id');
        await refuseWhileXpJobRuns(context.app, context.guildId, context.request, 'undo');
        const undone = await undoSeasonEnd(
          context.app.services.db,
          context.guildId,
          numericId(String(season_id)),
        );
        if (undone.outcome === 'missing') throw new ApiError('conflict', SEASON_GONE_MESSAGE);
        if (undone.outcome === 'notLatest') throw new ApiError('conflict', laterSeasonMessage(undone.latest));
        const jobId = await queueApplyRewards(
          context.app,
          context.guildId,
          context.requester,
          context.request,
        );
        return jobId === null ? { jobId, catchUp: REWARDS_NOT_QUEUED } : { jobId };
      },
    },
    // The rows back as they were before the import (rows it created are deleted).
    'leveling.import': {
      async restore(context, entry) {
        const snapshot = snapshotOf<XpRowsSnapshot>(entry, 'members');
        await refuseWhilePruning(context);
        await restoreXpRows(context.app.services.db, context.guildId, snapshot, 'overwrite');
        return syncRoles(context);
      },
    },
  },
};
