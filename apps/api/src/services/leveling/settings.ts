import {
  DEFAULT_LEVEL_UP_MESSAGE,
  type LevelCurve,
  type LevelingSettings,
  type PutLevelingBody,
  VOICE_MIN_MEMBERS_DEFAULT,
  VOICE_MIN_MEMBERS_MAX,
  VOICE_XP_PER_MINUTE_MAX,
  type XpDecay,
} from '@spacecadet/contract';
import {
  clampCooldown,
  clampInt,
  clampXpPerMessage,
  expectedMessageXp,
  normalizeMultiplier,
  sameCurve,
} from '@spacecadet/core';
import {
  DEFAULT_LEVELING_SETTINGS,
  deleteLevelingSettings,
  loadLevelingSettings,
  type StoredLevelingSettings,
  saveLevelingSettings,
} from '@spacecadet/db/queries/leveling';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';
import type { JobRequester } from '../jobs.ts';
import { settingsChangeSummary } from '../settings-summary.ts';
import { queueRecomputeLevels, queueSyncRoles } from './jobs.ts';
import { seasonScheduleChanges } from './seasons.ts';

/**
 * Leveling settings: their API shape, their writes (the PUT, the reset, an undo's write-back)
 * and the History summary of a change.
 */

export const LEVEL_UP_CHANNEL_MISSING_MESSAGE =
  'Pick an announcement channel first: level-up messages set to go to a channel are posted there.';

const MODE_LATER = "the next Sync Roles applies the reward mode to members' roles";

/** A blank level-up message means the default one (what a guild that never wrote its own says). */
function levelUpMessageToStore(message: string): string {
  return message.trim() === '' ? DEFAULT_LEVEL_UP_MESSAGE : message;
}

export function toSettings(stored: StoredLevelingSettings): LevelingSettings {
  return {
    enabled: stored.enabled,
    xp_multiplier: stored.xpMultiplier,
    announcement_channel: stored.announcementChannel,
    daily_overview_channel: stored.dailyOverviewChannel,
    xp_per_message: Math.round(expectedMessageXp(stored.xpMin, stored.xpMax)),
    message_cooldown_sec: stored.messageCooldownSec,
    no_xp_channels: stored.noXpChannels,
    no_xp_roles: stored.noXpRoles,
    level_up_message: stored.levelUpMessage,
    level_up_destination: stored.levelUpDestination,
    reward_mode: stored.rewardMode,
    leaderboard_visibility: stored.leaderboardVisibility,
    xp_min: stored.xpMin,
    xp_max: stored.xpMax,
    voice_xp_per_minute: stored.voiceXpPerMinute,
    voice_min_members: stored.voiceMinMembers,
    level_curve: stored.levelCurve,
    xp_decay: stored.xpDecay,
    rank_card_accent: stored.rankCardAccent,
    season_months: stored.seasonMonths,
    season_keep_rewards: stored.seasonKeepRewards,
  };
}

/**
 * The XP range a body asks for. An end sent with a new value wins and the other keeps its stored
 * value (a range whose ends cross is refused); otherwise a changed xp_per_message sets both ends
 * (min = max). So a client that sends back what GET answered with only xp_per_message edited
 * gets its edit. Clamped as the other numbers.
 */
function xpRangeChanges(
  body: PutLevelingBody,
  stored: StoredLevelingSettings,
): Partial<StoredLevelingSettings> {
  const min = body.xp_min === undefined ? stored.xpMin : clampXpPerMessage(body.xp_min);
  const max = body.xp_max === undefined ? stored.xpMax : clampXpPerMessage(body.xp_max);
  if (min !== stored.xpMin || max !== stored.xpMax) {
    if (min > max)
      throw new ApiError('invalid_input', XP_RANGE_MESSAGE, [{ path: 'xp_min', message: XP_RANGE_MESSAGE }]);
    return { xpMin: min, xpMax: max };
  }
  if (body.xp_per_message === undefined) return {};
  const xp = clampXpPerMessage(body.xp_per_message);
  if (xp === Math.round(expectedMessageXp(stored.xpMin, stored.xpMax))) return {};
  return { xpMin: xp, xpMax: xp };
}

export const XP_RANGE_MESSAGE = 'The least XP a message earns (xp_min) must be at most the most (xp_max)';

/**
 * The stored columns a PUT body changes. Out-of-range numbers are stored clamped (core
 * `leveling.ts`), and the answer shows what was stored: the dashboard compares it with what it
 * sent to say so.
 */
function settingsChanges(
  body: PutLevelingBody,
  stored: StoredLevelingSettings,
): Partial<StoredLevelingSettings> {
  return {
    ...xpRangeChanges(body, stored),
    ...(body.enabled === undefined ? {} : { enabled: body.enabled }),
    ...(body.xp_multiplier === undefined ? {} : { xpMultiplier: normalizeMultiplier(body.xp_multiplier) }),
    ...(body.announcement_channel === undefined ? {} : { announcementChannel: body.announcement_channel }),
    ...(body.daily_overview_channel === undefined
      ? {}
      : { dailyOverviewChannel: body.daily_overview_channel }),
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
    ...(body.voice_xp_per_minute === undefined
      ? {}
      : { voiceXpPerMinute: clampInt(body.voice_xp_per_minute, 0, VOICE_XP_PER_MINUTE_MAX, 0) }),
    ...(body.voice_min_members === undefined
      ? {}
      : {
          voiceMinMembers: clampInt(
            body.voice_min_members,
            1,
            VOICE_MIN_MEMBERS_MAX,
            VOICE_MIN_MEMBERS_DEFAULT,
          ),
        }),
    ...(body.level_curve === undefined ? {} : { levelCurve: body.level_curve }),
    ...(body.xp_decay === undefined ? {} : { xpDecay: body.xp_decay }),
    ...(body.rank_card_accent === undefined
      ? {}
      : { rankCardAccent: body.rank_card_accent === null ? null : body.rank_card_accent.toUpperCase() }),
    ...seasonScheduleChanges(body, stored, new Date()),
  };
}

/**
 * Writes leveling settings (any subset) as `PUT …/leveling` does, clamped, and queues Sync Roles
 * when the reward mode changed and Recompute Levels when the level curve did (its id answered
 * when both were queued). `restoring` (an undo writing back a state that was stored) skips
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
  const saved = await saveLevelingSettings(db, guildId, settingsChanges(body, stored));
  // Members' reward roles follow the new mode: Sync Roles re-applies every member's rewards.
  const syncJobId =
    saved.rewardMode === stored.rewardMode
      ? null
      : await queueSyncRoles(app, guildId, requester, request, MODE_LATER);
  // A new curve moves levels (an undo writing the old curve back moves them again): the job
  // recomputes every member's level and brings reward roles in line, announcing nothing.
  const curveJobId = sameCurve(saved.levelCurve, stored.levelCurve)
    ? null
    : await queueRecomputeLevels(app, guildId, requester, request);
  const jobId = curveJobId ?? syncJobId;
  return { before: toSettings(stored), after: toSettings(saved), jobId };
}

/**
 * Every setting goes back to its default, the new ones too (no-XP lists, level-up message and
 * destination, reward mode, leaderboard visibility), and leveling is off. Sync Roles follows
 * when the reward mode was not the default.
 */
export async function resetLevelingSettings(
  app: FastifyInstance,
  guildId: string,
  requester: JobRequester,
  request: FastifyRequest,
): Promise<{ before: LevelingSettings; after: LevelingSettings }> {
  const { db } = app.services;
  const stored = await loadLevelingSettings(db, guildId);
  await deleteLevelingSettings(db, guildId);
  if (stored.rewardMode !== DEFAULT_LEVELING_SETTINGS.rewardMode)
    await queueSyncRoles(app, guildId, requester, request, MODE_LATER);
  if (!sameCurve(stored.levelCurve, DEFAULT_LEVELING_SETTINGS.levelCurve))
    await queueRecomputeLevels(app, guildId, requester, request);
  const after = toSettings(DEFAULT_LEVELING_SETTINGS);
  const before = toSettings(stored);
  return { before, after };
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
  xp_min: 'least XP per message',
  xp_max: 'most XP per message',
  voice_xp_per_minute: 'voice XP per minute',
  voice_min_members: 'members needed in voice',
  level_curve: 'level curve',
  xp_decay: 'XP decay',
  rank_card_accent: 'rank card accent',
  season_months: 'season schedule',
  season_keep_rewards: 'rewards kept by scheduled season ends',
};

/** A curve as the History page says it: `5·L² + 50·L + 100`, or the table's length. */
function curveValue(curve: LevelCurve): string {
  if (curve.kind === 'table') return `a table of ${curve.xp.length} level${curve.xp.length === 1 ? '' : 's'}`;
  return `${curve.a}·L² + ${curve.b}·L + ${curve.c}`;
}

function settingValue(field: keyof LevelingSettings, value: unknown): string {
  if (field === 'xp_decay') {
    if (value === null || value === undefined) return 'off';
    const decay = value as XpDecay;
    return `${decay.percent_per_week}% a week after ${decay.after_inactive_days} days${decay.below_level_floor ? ', below the level floor' : ''}`;
  }
  if (field === 'level_curve' && value) return curveValue(value as LevelCurve);
  if (value === null || value === undefined) return 'none';
  if (field === 'enabled') return value ? 'on' : 'off';
  if (field === 'message_cooldown_sec') return `${value} s`;
  if (field === 'xp_multiplier') return `×${value}`;
  if (field === 'announcement_channel' || field === 'daily_overview_channel') return `<#${value}>`;
  if (Array.isArray(value)) return value.length === 0 ? 'none' : `${value.length}`;
  return String(value);
}

/**
 * The XP range once: as XP per message while both sides earn a fixed amount (min = max), else
 * as its ends (XP per message, their middle, left out).
 */
function rangeShown(settings: LevelingSettings, other: LevelingSettings): LevelingSettings {
  const fixed = settings.xp_min === settings.xp_max && other.xp_min === other.xp_max;
  return fixed ? { ...settings, xp_min: 0, xp_max: 0 } : { ...settings, xp_per_message: 0 };
}

/**
 * "Changed the leveling settings: XP per message 15 → 20, cooldown 60 s → 30 s" (the level-up
 * message, long, is only named). The label alone when nothing changed.
 */
export function settingsSummary(label: string, before: LevelingSettings, after: LevelingSettings): string {
  return settingsChangeSummary(label, rangeShown(before, after), rangeShown(after, before), {
    labels: SETTING_LABELS,
    edited: new Set(['level_up_message']),
    value: settingValue,
  });
}
