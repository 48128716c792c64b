import {
  type Boost,
  DEFAULT_LEVEL_UP_MESSAGE,
  type LevelingRole,
  type LevelingSettings,
  type PutLevelingBody,
  routes,
} from '@spacecadet/contract';
import {
  boostTarget,
  channelBoostUserId,
  clampCooldown,
  clampXpPerMessage,
  levelingResetDone,
  MAX_LEVEL_ROLES,
  normalizeMultiplier,
  roleBoostUserId,
} from '@spacecadet/core';
import {
  addLevelingBoost,
  addLevelingRole,
  DEFAULT_LEVELING_SETTINGS,
  deleteBoostsExpiredBefore,
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
import {
  loadLevelingSnapshot,
  type RewardRoleSnapshot,
  takeLevelingBoost,
} from '@spacecadet/db/queries/leveling-snapshots';
import { countRewardHolders } from '@spacecadet/db/queries/xp-tools';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, notFound } from '../errors.ts';
import type { HistoryNote } from '../history/recorder.ts';
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

export function toSettings(stored: StoredLevelingSettings): LevelingSettings {
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

const MODE_LATER = "the next Sync Roles applies the reward mode to members' roles";

/** After a stored change, Sync Roles brings the Discord roles and members' rewards in line. */
export function queueSyncRoles(
  app: FastifyInstance,
  guildId: string,
  requester: JobRequester,
  request: FastifyRequest,
  later: string,
): Promise<string | null> {
  return followUpGuildJob(app.services.queue, request.log, 'leveling.sync-roles', guildId, requester, later);
}

/**
 * Writes leveling settings (any subset) as `PUT …/leveling` does, clamped, and queues Sync Roles
 * when the reward mode changed. `restoring` (an undo writing back a state that was stored) skips
 * the check an admin's switch to channel announcements gets: that state was valid when kept.
 */
export async function writeLevelingSettings(
  app: FastifyInstance,
  guildId: string,
  body: PutLevelingBody,
  requester: JobRequester,
  request: FastifyRequest,
  options: { restoring?: boolean } = {},
): Promise<{ before: LevelingSettings; after: LevelingSettings; jobId: string | null }> {
  const { db } = app.services;
  const stored = await loadLevelingSettings(db, guildId);
  const announcementChannel =
    body.announcement_channel === undefined ? stored.announcementChannel : body.announcement_channel;
  // Refused when an admin switches level-ups to the channel without one. `channel` with no
  // channel is also the default (nothing is announced, as before destinations existed), so a
  // PUT that sends back the destination GET answered is not refused.
  const switchesToChannel =
    body.level_up_destination === 'channel' && stored.levelUpDestination !== 'channel';
  if (!options.restoring && switchesToChannel && announcementChannel === null) {
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
  const saved = await saveLevelingSettings(db, guildId, changes);
  // Members' reward roles follow the new mode: Sync Roles re-applies every member's rewards.
  const jobId =
    saved.rewardMode === stored.rewardMode
      ? null
      : await queueSyncRoles(app, guildId, requester, request, MODE_LATER);
  return { before: toSettings(stored), after: toSettings(saved), jobId };
}

/** How the History page names each setting. */
const SETTING_LABELS: Record<keyof LevelingSettings, string> = {
  enabled: 'leveling',
  xp_multiplier: 'XP multiplier',
  announcement_channel: 'announcement channel',
  daily_overview_channel: 'daily overview channel',
  xp_per_message: 'XP per message',
  message_cooldown_sec: 'cooldown',
  no_xp_channels: 'no-XP channels',
  no_xp_roles: 'no-XP roles',
  level_up_message: 'level-up message',
  level_up_destination: 'level-up messages',
  reward_mode: 'reward mode',
  leaderboard_visibility: 'leaderboard',
};

function settingValue(field: keyof LevelingSettings, value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (field === 'enabled') return value ? 'on' : 'off';
  if (field === 'message_cooldown_sec') return `${value} s`;
  if (field === 'xp_multiplier') return `×${value}`;
  if (field === 'announcement_channel' || field === 'daily_overview_channel') return `<#${value}>`;
  if (Array.isArray(value)) return value.length === 0 ? 'none' : `${value.length}`;
  return String(value);
}

/**
 * "Changed the leveling settings: XP per message 15 → 20, cooldown 60 s → 30 s" (the level-up
 * message, long, is only named). The label alone when nothing changed.
 */
export function settingsSummary(label: string, before: LevelingSettings, after: LevelingSettings): string {
  const parts: string[] = [];
  for (const field of Object.keys(SETTING_LABELS) as (keyof LevelingSettings)[]) {
    if (JSON.stringify(before[field]) === JSON.stringify(after[field])) continue;
    parts.push(
      field === 'level_up_message'
        ? 'level-up message edited'
        : `${SETTING_LABELS[field]} ${settingValue(field, before[field])} → ${settingValue(field, after[field])}`,
    );
  }
  return parts.length === 0 ? label : `${label}: ${parts.join(', ')}`;
}

export function toRoleState(row: StoredLevelingRole): LevelingRoleState {
  return {
    role_name: row.roleName,
    level_required: row.levelRequired,
    is_image_role: row.isImageRole,
    role_id: row.roleId,
  };
}

/** A reward role as its history entry keeps it (`leveling:role:<id>`): holders change by themselves. */
export type LevelingRoleState = Omit<LevelingRole, 'id' | 'holders'>;

/** A boost as its history entry keeps it (`leveling:boost:<id>`). */
export type BoostState = Omit<Boost, 'id'>;

export function toBoostState(row: StoredBoost): BoostState {
  const { id: _id, ...state } = toBoost(row);
  return state;
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

export const NO_LEVEL_ROLE_MESSAGE = 'No such level role';

/** Leveling settings, reward roles, boosts, and the leveling jobs. */
export function registerLevelingRoutes(app: FastifyInstance): void {
  const { db, queue, discord } = app.services;

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

  defineRoute(app, routes.putLeveling, async ({ params, body, requester, request, history }) => {
    const { before, after } = await writeLevelingSettings(app, params.guildId, body, requester, request);
    history.state(
      'leveling:settings',
      before,
      after,
      settingsSummary('Changed the leveling settings', before, after),
    );
    return after;
  });

  defineRoute(app, routes.syncLevelingRoles, async ({ params, requester, history }) => {
    history.describe({ subject: 'leveling:roles' });
    return { job_id: await enqueueGuildJob(queue, 'leveling.sync-roles', params.guildId, requester) };
  });
  defineRoute(app, routes.resendLevelingOverview, async ({ params, requester, history }) => {
    history.describe({ subject: 'leveling:overview' });
    return { job_id: await enqueueGuildJob(queue, 'leveling.resend-overview', params.guildId, requester) };
  });
  // The job keeps the XP rows it deletes in this entry (apps/worker `prune.ts`) before deleting.
  defineRoute(app, routes.pruneLeavers, async ({ params, requester, history }) => {
    history.snapshotByJob('leveling:xp');
    return { job_id: await enqueueGuildJob(queue, 'leveling.prune-leavers', params.guildId, requester) };
  });

  // Every setting goes back to its default, the new ones too (no-XP lists, level-up message and
  // destination, reward mode, leaderboard visibility), and leveling is off.
  defineRoute(app, routes.resetLevelingConfig, async ({ params, requester, request, history }) => {
    const stored = await loadLevelingSettings(db, params.guildId);
    await deleteLevelingSettings(db, params.guildId);
    if (stored.rewardMode !== DEFAULT_LEVELING_SETTINGS.rewardMode)
      await queueSyncRoles(app, params.guildId, requester, request, MODE_LATER);
    const after = toSettings(DEFAULT_LEVELING_SETTINGS);
    const before = toSettings(stored);
    history.state(
      'leveling:settings',
      before,
      after,
      settingsSummary('Reset the leveling settings', before, after),
    );
    return after;
  });

  // "This deletes users, roles, and boosts": the rows, then (best effort) the Discord roles the
  // reward roles created. A Discord role that cannot be deleted is logged and left for the admin.
  // All of it is kept in the entry first: its undo puts the rows back (restore-leveling.ts).
  defineRoute(app, routes.resetLevelingAll, async ({ params, request, history }) => {
    const guildId = params.guildId;
    const snapshot = await loadLevelingSnapshot(db, guildId);
    const deletedRoles = await deleteLevelingData(db, guildId);
    history.snapshot(
      'leveling',
      { ...snapshot },
      levelingResetDone(snapshot.members.length, snapshot.roles.length, snapshot.boosts.length),
    );
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

  defineRoute(app, routes.createLevelingRole, async ({ params, body, history }) => {
    const guildId = params.guildId;
    const added = await addLevelingRole(db, guildId, {
      roleName: body.role_name,
      levelRequired: body.level_required,
      isImageRole: body.is_image_role,
    });
    if (added.outcome === 'full') throw new ApiError('conflict', LEVEL_ROLE_CAP_MESSAGE);
    if (added.outcome === 'levelTaken') throw levelTaken(added.holder);
    await enableLeveling(db, guildId);
    history.state(
      `leveling:role:${added.role.id}`,
      null,
      toRoleState(added.role),
      `Added the reward role "${added.role.roleName}" (level ${added.role.levelRequired})`,
    );
    return toRole(added.role, await rewardHolders(guildId));
  });

  defineRoute(app, routes.updateLevelingRole, async ({ params, body, requester, request, history }) => {
    const { guildId, roleId } = params;
    const changes = {
      ...(body.role_name === undefined ? {} : { roleName: body.role_name }),
      ...(body.level_required === undefined ? {} : { levelRequired: body.level_required }),
      ...(body.is_image_role === undefined ? {} : { isImageRole: body.is_image_role }),
    };
    const { before, after } = await changeRewardRole(app, guildId, roleId, changes, requester, request);
    history.state(
      `leveling:role:${roleId}`,
      toRoleState(before),
      toRoleState(after),
      roleSummary(before, after),
    );
    return toRole(after, await rewardHolders(guildId));
  });

  // A created role's Discord role goes first; if Discord refuses, the reward row is kept and the
  // answer says why, so nothing is lost half-way (a retry finds the role gone and finishes).
  defineRoute(app, routes.deleteLevelingRole, async ({ params, history }) => {
    const row = await loadLevelingRole(db, params.guildId, params.roleId);
    if (!row) throw notFound(NO_LEVEL_ROLE_MESSAGE);
    await removeRewardRole(app, params.guildId, row);
    const role: RewardRoleSnapshot = {
      id: row.id,
      roleName: row.roleName,
      levelRequired: row.levelRequired,
      isImageRole: row.isImageRole,
    };
    history.snapshot(
      `leveling:role:${row.id}`,
      { role },
      `Deleted the reward role "${row.roleName}" (level ${row.levelRequired})`,
    );
  });

  /** A server-wide, member or role boost: one row either way, its `user_id` says whose. */
  async function createBoost(
    guildId: string,
    userId: string | null,
    boost: { multiplier: number; expires_at: string | null },
    history: HistoryNote,
  ): Promise<Boost> {
    const expiresAt = expiryOf(boost.expires_at);
    await deleteBoostsExpiredBefore(db, guildId, expiredBoostCutoff());
    const row = await addLevelingBoost(db, guildId, { multiplier: boost.multiplier, userId, expiresAt });
    await enableLeveling(db, guildId);
    history.state(`leveling:boost:${row.id}`, null, toBoostState(row), `Added a ${boostSummary(row)}`);
    return toBoost(row);
  }

  defineRoute(app, routes.createBoost, ({ params, body, history }) =>
    createBoost(params.guildId, body.user_id, body, history),
  );

  defineRoute(app, routes.createRoleBoost, ({ params, body, history }) =>
    createBoost(params.guildId, roleBoostUserId(body.role_id), body, history),
  );

  defineRoute(app, routes.createChannelBoost, ({ params, body, history }) =>
    createBoost(params.guildId, channelBoostUserId(body.channel_id), body, history),
  );

  defineRoute(app, routes.deleteBoost, async ({ params, history }) => {
    const deleted = await takeLevelingBoost(db, params.guildId, params.boostId);
    if (!deleted) throw notFound('No such boost');
    history.state(
      `leveling:boost:${deleted.id}`,
      toBoostState(deleted),
      null,
      `Deleted a ${boostSummary(deleted)}`,
    );
  });
}

/** 'reward role "Veteran": level 10 → 12, name "Vet" → "Veteran"'. */
function roleSummary(before: StoredLevelingRole, after: StoredLevelingRole): string {
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

/** "×2 boost for <@&123> until 2026-12-01 10:00 UTC". */
export function boostSummary(boost: Pick<StoredBoost, 'multiplier' | 'userId' | 'expiresAt'>): string {
  const target = boostTarget(boost.userId);
  const whom =
    target.kind === 'server'
      ? 'server-wide'
      : target.kind === 'role'
        ? `for <@&${target.roleId}>`
        : target.kind === 'channel'
          ? `in <#${target.channelId}>`
          : `for <@${target.userId}>`;
  const until = boost.expiresAt
    ? ` until ${boost.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`
    : '';
  return `×${boost.multiplier} boost ${whom}${until}`;
}
