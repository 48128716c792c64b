import {
  DEFAULT_LEVEL_CURVE,
  DEFAULT_LEVEL_UP_MESSAGE,
  type LeaderboardVisibility,
  type LevelingRole,
  type LevelingSettings,
  type LevelUpDestination,
  MESSAGE_COOLDOWN_MAX_SEC,
  type RewardMode,
  VOICE_MIN_MEMBERS_DEFAULT,
  XP_PER_MESSAGE_MAX,
} from '@spacecadet/contract';
import {
  clampCooldown,
  clampXpPerMessage,
  MAX_LEVEL_ROLES,
  MESSAGE_COOLDOWN_DEFAULT_SEC,
  normalizeMultiplier,
  XP_MULTIPLIER_DEFAULT,
  XP_PER_MESSAGE_DEFAULT,
} from '@spacecadet/core';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../lib/api.ts';
import { queryKeys } from '../shared/queries.ts';
import { type NumbersForm, numbersToForm } from './numbers-model.ts';

export const LEVELING_CONFIRM = {
  resetConfig:
    'Reset only Leveling config (channels, toggles, multipliers)? Users/roles/boosts are kept. This also turns leveling off.',
  resetAll: 'Reset ALL leveling data for this guild? This deletes users, roles, and boosts.',
  prune: 'Prune users that left the server from leaderboard/storage?',
} as const;

export const LEVELING_FAILURES = {
  loadSettings: 'Failed to load leveling settings',
  save: 'Failed to save',
  loadRoles: 'Failed to load roles',
  addRole: 'Failed to add role',
  updateRole: 'Failed to update role',
  deleteRole: 'Failed to delete role',
  loadBoosts: 'Failed to load boosts',
  addBoost: 'Failed to add boost',
  addRoleBoost: 'Failed to add role boost',
  deleteBoost: 'Failed to delete boost',
  // The maintenance buttons report how they went.
  syncRoles: 'Failed to start Sync Roles',
  resendOverview: 'Failed to start Resend Overview',
  resetConfig: 'Failed to reset the leveling settings',
  resetAll: 'Failed to reset leveling',
} as const;

export const LEVELING_DONE = {
  resetConfig: 'Leveling settings reset to defaults',
  resetAll: 'All leveling data deleted',
} as const;

export function useLeveling(guildId: string) {
  return useQuery({
    queryKey: queryKeys.leveling(guildId),
    queryFn: () => apiCall('getLeveling', { params: { guildId } }),
  });
}

/**
 * What the settings form edits: the numbers as typed, the channels as ids ('' for none); the
 * XP range, curve, decay and seasons as `numbers-model.ts` types them.
 */
export interface SettingsForm extends NumbersForm {
  xp_multiplier: string;
  announcement_channel: string;
  daily_overview_channel: string;
  message_cooldown_sec: string;
  no_xp_channels: string[];
  no_xp_roles: string[];
  level_up_message: string;
  level_up_destination: LevelUpDestination;
  reward_mode: RewardMode;
  leaderboard_visibility: LeaderboardVisibility;
  voice_xp_per_minute: string;
  voice_min_members: string;
}

export function toForm(settings: LevelingSettings): SettingsForm {
  return {
    xp_multiplier: String(settings.xp_multiplier),
    announcement_channel: settings.announcement_channel ?? '',
    daily_overview_channel: settings.daily_overview_channel ?? '',
    message_cooldown_sec: String(settings.message_cooldown_sec),
    no_xp_channels: [...settings.no_xp_channels],
    no_xp_roles: [...settings.no_xp_roles],
    level_up_message: settings.level_up_message,
    level_up_destination: settings.level_up_destination,
    reward_mode: settings.reward_mode,
    leaderboard_visibility: settings.leaderboard_visibility,
    voice_xp_per_minute: String(settings.voice_xp_per_minute),
    voice_min_members: String(settings.voice_min_members),
    ...numbersToForm(settings),
  };
}

/** The voice numbers as sent: what was typed (the API clamps it), or the default for an empty box. */
export function submittedVoiceNumbers(form: Pick<SettingsForm, 'voice_xp_per_minute' | 'voice_min_members'>) {
  return {
    voice_xp_per_minute: typedNumber(form.voice_xp_per_minute) ?? 0,
    voice_min_members: typedNumber(form.voice_min_members) ?? VOICE_MIN_MEMBERS_DEFAULT,
  };
}

export const DESTINATION_OPTIONS: ReadonlyArray<{ value: LevelUpDestination; label: string }> = [
  { value: 'off', label: 'Off (no message)' },
  { value: 'current', label: 'The channel the member wrote in' },
  { value: 'dm', label: "The member's DMs" },
  { value: 'channel', label: 'The announcement channel' },
];

export const REWARD_MODE_TEXT: Readonly<Record<RewardMode, { label: string; detail: string }>> = {
  stack: {
    label: 'Stack',
    detail: 'A member keeps every reward role up to their level.',
  },
  highest: {
    label: 'Highest only',
    detail:
      'A member holds only the reward role of the highest level reached; the lower ones are taken away.',
  },
};

export const VISIBILITY_TEXT: Readonly<Record<LeaderboardVisibility, { label: string; detail: string }>> = {
  off: { label: 'Off', detail: 'There is no public leaderboard page.' },
  members: { label: 'Members', detail: 'Members of this server see it once signed in with Discord.' },
  anyone: { label: 'Anyone', detail: 'Anyone with the link sees it, signed in or not.' },
};

/** The address of the server's public leaderboard page. */
export function publicLeaderboardPath(guildId: string): string {
  return `/leaderboard/${guildId}`;
}

/** The settings a reset leaves (the API's defaults). */
export const DEFAULT_SETTINGS: LevelingSettings = {
  enabled: false,
  xp_multiplier: XP_MULTIPLIER_DEFAULT,
  announcement_channel: null,
  daily_overview_channel: null,
  xp_per_message: XP_PER_MESSAGE_DEFAULT,
  message_cooldown_sec: MESSAGE_COOLDOWN_DEFAULT_SEC,
  no_xp_channels: [],
  no_xp_roles: [],
  level_up_message: DEFAULT_LEVEL_UP_MESSAGE,
  level_up_destination: 'channel',
  reward_mode: 'stack',
  leaderboard_visibility: 'off',
  xp_min: XP_PER_MESSAGE_DEFAULT,
  xp_max: XP_PER_MESSAGE_DEFAULT,
  voice_xp_per_minute: 0,
  voice_min_members: VOICE_MIN_MEMBERS_DEFAULT,
  level_curve: DEFAULT_LEVEL_CURVE,
  xp_decay: null,
  rank_card_accent: null,
  season_months: null,
  season_keep_rewards: true,
};

export type NumberSetting = 'xp_multiplier' | 'xp_min' | 'xp_max' | 'message_cooldown_sec';

/** A typed number, or null when the box holds no number. */
function typedNumber(text: string): number | null {
  if (text.trim() === '') return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/**
 * The number sent for a field: what the admin typed (the API clamps it, and the form then says
 * what was stored), or the field's fallback (core's clamp of the text) when the box holds no number.
 */
export function submittedNumber(key: NumberSetting, text: string): number {
  const n = typedNumber(text);
  if (n !== null) return n;
  if (key === 'xp_multiplier') return normalizeMultiplier(text);
  return key === 'message_cooldown_sec' ? clampCooldown(text) : clampXpPerMessage(text);
}

const LIMITS: Record<NumberSetting, { max: number | null; unit: string; whole: boolean }> = {
  xp_multiplier: { max: null, unit: '', whole: false },
  xp_min: { max: XP_PER_MESSAGE_MAX, unit: ' XP', whole: true },
  xp_max: { max: XP_PER_MESSAGE_MAX, unit: ' XP', whole: true },
  message_cooldown_sec: { max: MESSAGE_COOLDOWN_MAX_SEC, unit: ' seconds', whole: true },
};

/**
 * Why the stored value differs from the submitted one (the API clamped it), or null when it
 * was stored as sent.
 */
export function clampNote(key: NumberSetting, submitted: number, stored: number): string | null {
  if (submitted === stored) return null;
  const { max, unit, whole } = LIMITS[key];
  if (key === 'xp_multiplier' && submitted < 0) {
    return `Stored as ${stored}: the multiplier cannot be negative — XP is off while it is 0.`;
  }
  if (max !== null && submitted > max) return `Stored as ${stored}${unit}, the maximum.`;
  if (submitted < 0) return `Stored as ${stored}${unit}, the minimum.`;
  if (whole && !Number.isInteger(submitted)) return `Stored as ${stored}${unit}: it is a whole number.`;
  return `Stored as ${stored}${unit}.`;
}

export function clampNotes(
  submitted: Record<NumberSetting, number>,
  stored: LevelingSettings,
): Partial<Record<NumberSetting, string>> {
  const notes: Partial<Record<NumberSetting, string>> = {};
  for (const key of ['xp_multiplier', 'xp_min', 'xp_max', 'message_cooldown_sec'] as const) {
    const note = clampNote(key, submitted[key], stored[key]);
    if (note !== null) notes[key] = note;
  }
  return notes;
}

export const roleCapHint = `This server has ${MAX_LEVEL_ROLES} level roles, the most it can have. Delete one to add another.`;

/** The reward role already at the level typed in the add form, if any (one role per level). */
export function roleAtLevel(roles: readonly LevelingRole[], level: number): LevelingRole | undefined {
  return roles.find((role) => role.level_required === level);
}

export const levelTakenHint = (role: LevelingRole) =>
  `Level ${role.level_required} already has the reward role "${role.role_name}". Choose another level.`;

/** The first level above `from` with no reward role: what the add form offers next. */
export function nextFreeLevel(roles: readonly Pick<LevelingRole, 'level_required'>[], from: number): number {
  const taken = new Set(roles.map((role) => role.level_required));
  let level = from + 1;
  while (taken.has(level)) level += 1;
  return level;
}

/**
 * What the boost form says when the multiplier it sent is not what was typed (core's
 * `normalizeBoostMultiplier` turns a negative or non-number into ×1), or null when it is.
 */
export function boostStoredNote(typed: string, stored: number): string | null {
  const text = typed.trim();
  if (text === '') return null;
  const n = Number(text);
  if (Number.isFinite(n) && n === stored) return null;
  if (Number.isFinite(n) && n < 0) {
    return `Stored as ×${stored}: a multiplier cannot be negative, so this boost changes nothing. Remove it, or add one of 0 to stop XP.`;
  }
  return `Stored as ×${stored}: "${text}" is not a multiplier.`;
}

/**
 * What the reward role form says when the level it sent is not what was typed (core's
 * `normalizeLevelRequired` floors it at 0 and drops fractions), or null when it is.
 */
export function levelStoredNote(typed: string, stored: number): string | null {
  const text = typed.trim();
  const n = Number(text);
  if (text !== '' && Number.isFinite(n) && n === stored) return null;
  if (Number.isFinite(n) && n < 0) return `Stored at level ${stored}: a level cannot be negative.`;
  if (Number.isFinite(n) && text !== '') return `Stored at level ${stored}: levels are whole numbers.`;
  return `Stored at level ${stored}: "${text}" is not a level.`;
}

/** The confirmation before deleting a reward role: who holds it, and that they lose it. */
export function deleteRoleConfirm(role: Pick<LevelingRole, 'role_name' | 'holders'>): string {
  const who =
    role.holders === 0
      ? `No member holds ${role.role_name} yet.`
      : `${role.holders.toLocaleString('en-US')} ${role.holders === 1 ? 'member holds' : 'members hold'} ${role.role_name}; ${role.holders === 1 ? 'they lose' : 'they lose'} it.`;
  return `Delete the reward role "${role.role_name}"? ${who}`;
}
