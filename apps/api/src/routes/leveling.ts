import {
  type Boost,
  DEFAULT_LEVEL_UP_MESSAGE,
  type LevelingRole,
  type LevelingSettings,
  routes,
} from '@spacecadet/contract';
import {
  channelBoostUserId,
  clampCooldown,
  clampXpPerMessage,
  MAX_LEVEL_ROLES,
  normalizeMultiplier,
  roleBoostUserId,
} from '@spacecadet/core';
import {
  addLevelingBoost,
  addLevelingRole,
  DEFAULT_LEVELING_SETTINGS,
  deleteBoostsExpiredBefore,
  deleteLevelingBoost,
  deleteLevelingData,
  deleteLevelingRole,
  deleteLevelingSettings,
  enableLeveling,
  loadLevelingBoosts,
  loadLevelingRole,
  loadLevelingRoles,
  loadLevelingSettings,
  type StoredBoost,
  type StoredLevelingRole,
  type StoredLevelingSettings,
  saveLevelingSettings,
  updateLevelingRole,
} from '@spacecadet/db/queries/leveling';
import { countRewardHolders } from '@spacecadet/db/queries/xp-tools';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, notFound } from '../errors.ts';
import { DiscordError } from '../services/discord.ts';
import { enqueueGuildJob, followUpGuildJob, type JobRequester } from '../services/jobs.ts';
import { defineRoute } from './define.ts';

export const LEVEL_ROLE_CAP_MESSAGE = `A server can have at most ${MAX_LEVEL_ROLES} level roles. Delete one to add another.`;
export const levelTakenMessage = (level: number, roleName: string) =>
  `Level ${level} already has the reward role "${roleName}". Edit that role, or choose another level.`;
const levelTaken = (holder: StoredLevelingRole) =>
  new ApiError('conflict', levelTakenMessage(holder.levelRequired, holder.roleName));
export const EXPIRY_IN_PAST_MESSAGE =
  'The expiry is in the past: choose a later date and time, or leave it empty for a permanent boost.';
export const discordRoleNotDeletedMessage = (roleName: string, status: number) =>
  `Discord did not delete the role "${roleName}" (${status ? `Discord answered ${status}` : 'no answer'}). ` +
  'The reward role is kept; try again in a moment.';
export const discordRoleForbiddenMessage = (roleName: string) =>
  `Space Cadet may not delete the Discord role "${roleName}": give it Manage Roles and move its role ` +
  'above that one, or delete the role in Discord yourself, then delete the reward role again.';

export const LEVEL_UP_CHANNEL_MISSING_MESSAGE =
  'Pick an announcement channel first: level-up messages set to go to a channel are posted there.';

/** A blank level-up message means the default one (what a guild that never wrote its own says). */
function levelUpMessageToStore(message: string): string {
  return message.trim() === '' ? DEFAULT_LEVEL_UP_MESSAGE : message;
}

/**
 * Expired boosts stay listed (as expired) for a week, so an admin sees that one ran out; after
 * that they are deleted when the leveling state is read or a boost is added. Nothing else needs
 * them: the worker ignores expired boosts (core `activeBoostMultiplier`).
 */
export const EXPIRED_BOOST_KEEP_MS = 7 * 24 * 60 * 60 * 1000;

const expiredBoostCutoff = () => new Date(Date.now() - EXPIRED_BOOST_KEEP_MS);

/** A boost that would never apply is a mistake: refuse it rather than store it. */
function expiryOf(expiresAt: string | null): Date | null {
  if (expiresAt === null) return null;
  const at = new Date(expiresAt);
  if (at.getTime() <= Date.now()) throw new ApiError('invalid_input', EXPIRY_IN_PAST_MESSAGE);
  return at;
}

function toSettings(stored: StoredLevelingSettings): LevelingSettings {
  return {
    enabled: stored.enabled,
    xp_multiplier: stored.xpMultiplier,
    announcement_channel: stored.announcementChannel,
    daily_overview_channel: stored.dailyOverviewChannel,
    xp_per_message: stored.xpPerMessage,
    message_cooldown_sec: stored.messageCooldownSec,
    no_xp_channels: stored.noXpChannels,
    no_xp_roles: stored.noXpRoles,
    level_up_message: stored.levelUpMessage,
    level_up_destination: stored.levelUpDestination,
    reward_mode: stored.rewardMode,
    leaderboard_visibility: stored.leaderboardVisibility,
  };
}

function toRole(row: StoredLevelingRole, holders: ReadonlyMap<number, number>): LevelingRole {
  return {
    id: row.id,
    role_name: row.roleName,
    level_required: row.levelRequired,
    is_image_role: row.isImageRole,
    role_id: row.roleId,
    holders: holders.get(row.id) ?? 0,
  };
}

function toBoost(row: StoredBoost): Boost {
  return {
    id: row.id,
    multiplier: row.multiplier,
    user_id: row.userId,
    expires_at: row.expiresAt?.toISOString() ?? null,
  };
}

/** Leveling settings, reward roles, boosts, and the leveling jobs. */
export function registerLevelingRoutes(app: FastifyInstance): void {
  const { db, queue, discord } = app.services;

  /**
   * Deletes the Discord role a reward role created. Gone already counts as done; any other
   * failure keeps the reward row (the caller has not deleted it yet) and answers why.
   */
  async function deleteDiscordRole(guildId: string, row: StoredLevelingRole, roleId: string): Promise<void> {
    try {
      await discord.deleteGuildRole(guildId, roleId);
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

  function syncRewardsAfterModeChange(
    guildId: string,
    requester: JobRequester,
    request: FastifyRequest,
  ): Promise<void> {
    return followUpGuildJob(
      queue,
      request.log,
      'leveling.sync-roles',
      guildId,
      requester,
      "the next Sync Roles applies the reward mode to members' roles",
    );
  }

  /** Members each reward role of the guild is given to, under the guild's reward mode. */
  async function rewardHolders(guildId: string): Promise<Map<number, number>> {
    const [settings, roles] = await Promise.all([
      loadLevelingSettings(db, guildId),
      loadLevelingRoles(db, guildId),
    ]);
    return countRewardHolders(db, guildId, roles, settings.rewardMode);
  }

  defineRoute(app, routes.getLeveling, async ({ params }) => {
    await deleteBoostsExpiredBefore(db, params.guildId, expiredBoostCutoff());
    const [settings, roles, boosts] = await Promise.all([
      loadLevelingSettings(db, params.guildId),
      loadLevelingRoles(db, params.guildId),
      loadLevelingBoosts(db, params.guildId),
    ]);
    const holders = await countRewardHolders(db, params.guildId, roles, settings.rewardMode);
    return {
      leveling: toSettings(settings),
      roles: roles.map((role) => toRole(role, holders)),
      boosts: boosts.map(toBoost),
    };
  });

  defineRoute(app, routes.putLeveling, async ({ params, body, requester, request }) => {
    const stored = await loadLevelingSettings(db, params.guildId);
    const announcementChannel =
      body.announcement_channel === undefined ? stored.announcementChannel : body.announcement_channel;
    if (body.level_up_destination === 'channel' && announcementChannel === null) {
      throw new ApiError('invalid_input', LEVEL_UP_CHANNEL_MISSING_MESSAGE, [
        { path: 'level_up_destination', message: LEVEL_UP_CHANNEL_MISSING_MESSAGE },
      ]);
    }
    // Out-of-range numbers are stored clamped (core `leveling.ts`), and the answer shows what was
    // stored: the dashboard compares it with what it sent to say so.
    const changes: Partial<StoredLevelingSettings> = {
      ...(body.enabled === undefined ? {} : { enabled: body.enabled }),
      ...(body.xp_multiplier === undefined ? {} : { xpMultiplier: normalizeMultiplier(body.xp_multiplier) }),
      ...(body.announcement_channel === undefined ? {} : { announcementChannel: body.announcement_channel }),
      ...(body.daily_overview_channel === undefined
        ? {}
        : { dailyOverviewChannel: body.daily_overview_channel }),
      ...(body.xp_per_message === undefined ? {} : { xpPerMessage: clampXpPerMessage(body.xp_per_message) }),
      ...(body.message_cooldown_sec === undefined
        ? {}
        : { messageCooldownSec: clampCooldown(body.message_cooldown_sec) }),
      ...(body.no_xp_channels === undefined ? {} : { noXpChannels: [...new Set(body.no_xp_channels)] }),
      ...(body.no_xp_roles === undefined ? {} : { noXpRoles: [...new Set(body.no_xp_roles)] }),
      ...(body.level_up_message === undefined
        ? {}
        : { levelUpMessage: levelUpMessageToStore(body.level_up_message) }),
      ...(body.level_up_destination === undefined ? {} : { levelUpDestination: body.level_up_destination }),
      ...(body.reward_mode === undefined ? {} : { rewardMode: body.reward_mode }),
      ...(body.leaderboard_visibility === undefined
        ? {}
        : { leaderboardVisibility: body.leaderboard_visibility }),
    };
    const saved = await saveLevelingSettings(db, params.guildId, changes);
    // Members' reward roles follow the new mode: Sync Roles re-applies every member's rewards.
    if (saved.rewardMode !== stored.rewardMode)
      await syncRewardsAfterModeChange(params.guildId, requester, request);
    return toSettings(saved);
  });

  defineRoute(app, routes.syncLevelingRoles, async ({ params, requester }) => ({
    job_id: await enqueueGuildJob(queue, 'leveling.sync-roles', params.guildId, requester),
  }));
  defineRoute(app, routes.resendLevelingOverview, async ({ params, requester }) => ({
    job_id: await enqueueGuildJob(queue, 'leveling.resend-overview', params.guildId, requester),
  }));
  defineRoute(app, routes.pruneLeavers, async ({ params, requester }) => ({
    job_id: await enqueueGuildJob(queue, 'leveling.prune-leavers', params.guildId, requester),
  }));

  // Every setting goes back to its default, the new ones too (no-XP lists, level-up message and
  // destination, reward mode, leaderboard visibility), and leveling is off.
  defineRoute(app, routes.resetLevelingConfig, async ({ params, requester, request }) => {
    const stored = await loadLevelingSettings(db, params.guildId);
    await deleteLevelingSettings(db, params.guildId);
    if (stored.rewardMode !== DEFAULT_LEVELING_SETTINGS.rewardMode)
      await syncRewardsAfterModeChange(params.guildId, requester, request);
    return toSettings(DEFAULT_LEVELING_SETTINGS);
  });

  // "This deletes users, roles, and boosts": the rows, then (best effort) the Discord roles the
  // reward roles created. A Discord role that cannot be deleted is logged and left for the admin.
  defineRoute(app, routes.resetLevelingAll, async ({ params, request }) => {
    const guildId = params.guildId;
    const deletedRoles = await deleteLevelingData(db, guildId);
    for (const role of deletedRoles) {
      if (role.roleId === null) continue;
      try {
        await discord.deleteGuildRole(guildId, role.roleId);
      } catch (error) {
        request.log.warn(
          { err: error, guildId, roleId: role.roleId },
          'reset-all: Discord role of a reward role not deleted',
        );
        // No answer from Discord: the next calls would only wait as long; stop here.
        if (error instanceof DiscordError && error.status === 0) break;
      }
    }
  });

  defineRoute(app, routes.createLevelingRole, async ({ params, body }) => {
    const guildId = params.guildId;
    const added = await addLevelingRole(db, guildId, {
      roleName: body.role_name,
      levelRequired: body.level_required,
      isImageRole: body.is_image_role,
    });
    if (added.outcome === 'full') throw new ApiError('conflict', LEVEL_ROLE_CAP_MESSAGE);
    if (added.outcome === 'levelTaken') throw levelTaken(added.holder);
    await enableLeveling(db, guildId);
    return toRole(added.role, await rewardHolders(guildId));
  });

  defineRoute(app, routes.updateLevelingRole, async ({ params, body, requester, request }) => {
    const { guildId, roleId } = params;
    const changes = {
      ...(body.role_name === undefined ? {} : { roleName: body.role_name }),
      ...(body.level_required === undefined ? {} : { levelRequired: body.level_required }),
      ...(body.is_image_role === undefined ? {} : { isImageRole: body.is_image_role }),
    };
    const updated = await updateLevelingRole(db, guildId, roleId, changes);
    if (updated.outcome === 'missing') throw notFound('No such level role');
    if (updated.outcome === 'levelTaken') throw levelTaken(updated.holder);
    const { before, after } = updated;
    // A created role whose name, level or image flag changed: Sync Roles renames the Discord role
    // and re-applies the rewards. A pending role is created with the new values anyway.
    const changed =
      before.roleName !== after.roleName ||
      before.levelRequired !== after.levelRequired ||
      before.isImageRole !== after.isImageRole;
    if (after.roleId !== null && changed)
      await followUpGuildJob(
        queue,
        request.log,
        'leveling.sync-roles',
        guildId,
        requester,
        'the next Sync Roles applies it',
      );
    return toRole(after, await rewardHolders(guildId));
  });

  // A created role's Discord role goes first; if Discord refuses, the reward row is kept and the
  // answer says why, so nothing is lost half-way (a retry finds the role gone and finishes).
  defineRoute(app, routes.deleteLevelingRole, async ({ params }) => {
    const row = await loadLevelingRole(db, params.guildId, params.roleId);
    if (!row) throw notFound('No such level role');
    if (row.roleId !== null) await deleteDiscordRole(params.guildId, row, row.roleId);
    await deleteLevelingRole(db, params.guildId, params.roleId);
  });

  /** A server-wide, member or role boost: one row either way, its `user_id` says whose. */
  async function createBoost(
    guildId: string,
    userId: string | null,
    boost: { multiplier: number; expires_at: string | null },
  ): Promise<Boost> {
    const expiresAt = expiryOf(boost.expires_at);
    await deleteBoostsExpiredBefore(db, guildId, expiredBoostCutoff());
    const row = await addLevelingBoost(db, guildId, { multiplier: boost.multiplier, userId, expiresAt });
    await enableLeveling(db, guildId);
    return toBoost(row);
  }

  defineRoute(app, routes.createBoost, ({ params, body }) => createBoost(params.guildId, body.user_id, body));

  defineRoute(app, routes.createRoleBoost, ({ params, body }) =>
    createBoost(params.guildId, roleBoostUserId(body.role_id), body),
  );

  defineRoute(app, routes.createChannelBoost, ({ params, body }) =>
    createBoost(params.guildId, channelBoostUserId(body.channel_id), body),
  );

  defineRoute(app, routes.deleteBoost, async ({ params }) => {
    if (!(await deleteLevelingBoost(db, params.guildId, params.boostId))) throw notFound('No such boost');
  });
}
