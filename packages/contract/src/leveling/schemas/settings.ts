import { z } from 'zod';
import { ChannelId, Snowflake, snowflake } from '../../common.ts';
import { storableText } from '../../inputs.ts';
import { Boost } from './boosts.ts';
import { numberField, unknownKeys } from './fields.ts';
import {
  LevelCurve,
  RankCardAccent,
  SEASON_MONTHS_MAX,
  VOICE_MIN_MEMBERS_MAX,
  VOICE_XP_PER_MINUTE_MAX,
  XpDecay,
} from './numbers.ts';
import { LevelingRole } from './rewards.ts';

/**
 * Leveling settings: their limits and choices, the stored settings, the dashboard's whole
 * leveling state, and the body that changes them.
 */

/**
 * The most XP one message earns and the longest cooldown between counted messages. The API
 * stores a larger value as these (core's `clampXpPerMessage`, `clampCooldown`).
 */
export const XP_PER_MESSAGE_MAX = 1000;
export const MESSAGE_COOLDOWN_MAX_SEC = 600;

/** Where a level-up message goes: nowhere, the channel of the message, the member's DMs, the announcement channel. */
export const LEVEL_UP_DESTINATIONS = ['off', 'current', 'dm', 'channel'] as const;
export const LevelUpDestination = z.enum(LEVEL_UP_DESTINATIONS, {
  error: 'level_up_destination must be one of off, current, dm or channel',
});
export type LevelUpDestination = z.infer<typeof LevelUpDestination>;

/** stack: a member keeps every reward up to their level; highest: only the highest one reached. */
export const REWARD_MODES = ['stack', 'highest'] as const;
export const RewardMode = z.enum(REWARD_MODES, { error: 'reward_mode must be stack or highest' });
export type RewardMode = z.infer<typeof RewardMode>;

/** Who may open the public leaderboard page `/leaderboard/{guildId}`. */
export const LEADERBOARD_VISIBILITIES = ['off', 'members', 'anyone'] as const;
export const LeaderboardVisibility = z.enum(LEADERBOARD_VISIBILITIES, {
  error: 'leaderboard_visibility must be off, members or anyone',
});
export type LeaderboardVisibility = z.infer<typeof LeaderboardVisibility>;

/** The longest level-up message template (Discord's message length). */
export const LEVEL_UP_MESSAGE_MAX = 2000;
/** The placeholders a level-up message may hold (core `renderLevelUpMessage` fills them). */
export const LEVEL_UP_PLACEHOLDERS = ['{user}', '{username}', '{level}', '{server}', '{rewards}'] as const;
/** What a guild that never wrote its own says; renders as the announcement always did. */
export const DEFAULT_LEVEL_UP_MESSAGE = '🎉 {user} reached **level {level}**!';
/** The most no-XP channels and no-XP roles a guild lists (each). */
export const NO_XP_MAX = 50;

export const LevelingSettings = z
  .object({
    enabled: z.boolean(),
    xp_multiplier: z.number().min(0),
    announcement_channel: z.string().nullable(),
    daily_overview_channel: z.string().nullable(),
    xp_per_message: z.number().int().min(0).max(XP_PER_MESSAGE_MAX),
    message_cooldown_sec: z.number().int().min(0).max(MESSAGE_COOLDOWN_MAX_SEC),
    no_xp_channels: z.array(Snowflake),
    no_xp_roles: z.array(Snowflake),
    level_up_message: z.string().max(LEVEL_UP_MESSAGE_MAX),
    level_up_destination: LevelUpDestination,
    reward_mode: RewardMode,
    leaderboard_visibility: LeaderboardVisibility,
    /** Each counted message earns a random whole amount from xp_min to xp_max (xp_per_message: their mean, rounded). */
    xp_min: z.number().int().min(0).max(XP_PER_MESSAGE_MAX),
    xp_max: z.number().int().min(0).max(XP_PER_MESSAGE_MAX),
    /** XP for each full minute in voice (0: voice earns nothing). */
    voice_xp_per_minute: z.number().int().min(0).max(VOICE_XP_PER_MINUTE_MAX),
    /** Members (bots aside) a voice channel needs for anyone in it to earn. */
    voice_min_members: z.number().int().min(1).max(VOICE_MIN_MEMBERS_MAX),
    level_curve: LevelCurve,
    /** null: XP never decays. */
    xp_decay: XpDecay.nullable(),
    /** The rank card's accent color (null: the default); members may pick their own with /rank color. */
    rank_card_accent: z.string().nullable(),
    /** A season ends by itself every this many months (null: only when an admin ends it). */
    season_months: z.number().int().min(1).max(SEASON_MONTHS_MAX).nullable(),
    /** Whether members keep their reward roles when the schedule ends a season. */
    season_keep_rewards: z.boolean(),
  })
  .meta({ id: 'LevelingSettings' });
export type LevelingSettings = z.infer<typeof LevelingSettings>;

export const LevelingState = z
  .object({
    leveling: LevelingSettings,
    roles: z.array(LevelingRole),
    boosts: z.array(Boost),
    /** Whether the server has its own rank card background (`…/leveling/rank-card/background`). */
    rank_card_background: z.boolean(),
  })
  .meta({ id: 'Leveling' });
export type LevelingState = z.infer<typeof LevelingState>;

const NullableChannel = ChannelId.nullable();

const SETTINGS_NOT_OBJECT = 'The leveling settings must be a JSON object of the fields to change';

export const PutLevelingBody = z
  .strictObject(
    {
      enabled: z.boolean({ error: 'enabled must be true or false' }).optional(),
      // Clamped rather than refused, as admins expect of these fields: the API stores the clamped value
      // (packages/core leveling.ts) and answers it, so the dashboard can say what was stored.
      xp_multiplier: numberField('xp_multiplier must be a number')
        .max(100, 'XP multiplier must be at most 100')
        .optional()
        .meta({ description: 'Below 0 is stored as 0 (XP off)' }),
      announcement_channel: NullableChannel.optional(),
      daily_overview_channel: NullableChannel.optional(),
      xp_per_message: numberField('xp_per_message must be a number')
        .optional()
        .meta({
          description: `Sets xp_min and xp_max both (rounded, clamped to 0..${XP_PER_MESSAGE_MAX}) when it differs from the stored range's rounded mean; a body that changes xp_min or xp_max sets the range instead`,
        }),
      message_cooldown_sec: numberField('message_cooldown_sec must be a number of seconds')
        .optional()
        .meta({ description: `Rounded and stored clamped to 0..${MESSAGE_COOLDOWN_MAX_SEC}` }),
      no_xp_channels: z
        .array(snowflake('no_xp_channels must hold channel ids'), {
          error: 'no_xp_channels must be a list of channel ids',
        })
        .max(NO_XP_MAX, `At most ${NO_XP_MAX} no-XP channels`)
        .optional()
        .meta({ description: 'Messages there earn no XP and start no cooldown' }),
      no_xp_roles: z
        .array(snowflake('no_xp_roles must hold role ids'), {
          error: 'no_xp_roles must be a list of role ids',
        })
        .max(NO_XP_MAX, `At most ${NO_XP_MAX} no-XP roles`)
        .optional()
        .meta({ description: 'Members holding one earn no XP' }),
      level_up_message: storableText({ error: 'level_up_message must be text' })
        .max(LEVEL_UP_MESSAGE_MAX, `The level-up message is at most ${LEVEL_UP_MESSAGE_MAX} characters`)
        .optional()
        .meta({
          description: `Placeholders: ${LEVEL_UP_PLACEHOLDERS.join(', ')}. Blank: the default message`,
        }),
      level_up_destination: LevelUpDestination.optional().meta({
        description: '`channel` needs an announcement channel (400 without one)',
      }),
      reward_mode: RewardMode.optional(),
      leaderboard_visibility: LeaderboardVisibility.optional(),
      xp_min: numberField('xp_min must be a number')
        .optional()
        .meta({ description: `Rounded and stored clamped to 0..${XP_PER_MESSAGE_MAX}; at most xp_max` }),
      xp_max: numberField('xp_max must be a number')
        .optional()
        .meta({ description: `Rounded and stored clamped to 0..${XP_PER_MESSAGE_MAX}; at least xp_min` }),
      voice_xp_per_minute: numberField('voice_xp_per_minute must be a number')
        .optional()
        .meta({
          description: `Rounded and stored clamped to 0..${VOICE_XP_PER_MINUTE_MAX}; 0 turns voice XP off`,
        }),
      voice_min_members: numberField('voice_min_members must be a number')
        .optional()
        .meta({ description: `Rounded and stored clamped to 1..${VOICE_MIN_MEMBERS_MAX}` }),
      level_curve: LevelCurve.optional().meta({
        description: "Recomputes every member's level; reward roles follow (a job)",
      }),
      xp_decay: XpDecay.nullable().optional(),
      rank_card_accent: RankCardAccent.nullable().optional(),
      season_months: z
        .number({
          error: `season_months must be null or a whole number of months from 1 to ${SEASON_MONTHS_MAX}`,
        })
        .int(`season_months must be null or a whole number of months from 1 to ${SEASON_MONTHS_MAX}`)
        .min(1, `season_months must be null or a whole number of months from 1 to ${SEASON_MONTHS_MAX}`)
        .max(
          SEASON_MONTHS_MAX,
          `season_months must be null or a whole number of months from 1 to ${SEASON_MONTHS_MAX}`,
        )
        .nullable()
        .optional(),
      season_keep_rewards: z.boolean({ error: 'season_keep_rewards must be true or false' }).optional(),
    },
    { error: unknownKeys(SETTINGS_NOT_OBJECT) },
  )
  .meta({ id: 'PutLevelingBody' });
export type PutLevelingBody = z.infer<typeof PutLevelingBody>;
