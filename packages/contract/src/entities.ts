import { z } from 'zod';
import { Snowflake } from './id-schemas.ts';

const Timestamp = z.string().meta({ description: 'ISO 8601 timestamp' });

export const SessionUser = z
  .object({
    id: Snowflake,
    username: z.string(),
    discriminator: z.string(),
    avatar: z.string().nullable(),
  })
  .meta({ id: 'SessionUser' });
export type SessionUser = z.infer<typeof SessionUser>;

export const SessionTokens = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().positive(),
  })
  .meta({ id: 'SessionTokens' });
export type SessionTokens = z.infer<typeof SessionTokens>;

export const Guild = z
  .object({ id: Snowflake, name: z.string(), icon: z.string().nullable(), owner: z.boolean().optional() })
  .meta({ id: 'Guild' });
export type Guild = z.infer<typeof Guild>;

export const ColorRolesMode = z.enum(['basic', 'shades']);
export type ColorRolesMode = z.infer<typeof ColorRolesMode>;

/** Free JSON object; `color_roles_mode` is the one key the product reads. */
export const GuildConfigData = z
  .object({
    color_roles_mode: z
      .enum(ColorRolesMode.options, {
        error: `color_roles_mode must be ${ColorRolesMode.options.join(' or ')}`,
      })
      .optional(),
  })
  .catchall(z.unknown())
  .meta({ id: 'GuildConfigData' });
export type GuildConfigData = z.infer<typeof GuildConfigData>;

export const GuildConfig = z
  .object({ data: GuildConfigData, updated_by: z.string().nullable(), updated_at: Timestamp.nullable() })
  .meta({ id: 'GuildConfig' });
export type GuildConfig = z.infer<typeof GuildConfig>;

export const WriteReceipt = z
  .object({ updated_by: z.string().nullable(), updated_at: Timestamp.nullable() })
  .meta({ id: 'WriteReceipt' });
export type WriteReceipt = z.infer<typeof WriteReceipt>;

export const ReactionRoleEntry = z.object({
  emoji: z.string(),
  role_id: z.string(),
  label: z.string().max(80).optional(),
  description: z.string().max(100).optional(),
});
export type ReactionRoleEntry = z.infer<typeof ReactionRoleEntry>;

export const ReactionRolesState = z
  .object({
    color_roles: z.array(ReactionRoleEntry),
    personality_roles: z.array(ReactionRoleEntry),
    updated_at: Timestamp.nullable(),
    updated_by: z.string().nullable(),
  })
  .meta({ id: 'ReactionRoles' });
export type ReactionRolesState = z.infer<typeof ReactionRolesState>;

export const Shade = z.object({
  shade_id: z.number().int(),
  shade_name: z.string(),
  hex_code: z.string(),
  /** The shade's role once generated in shades mode; null before. */
  role_id: z.string().nullable().optional(),
});
export type Shade = z.infer<typeof Shade>;
export const Color = z.object({
  role_id: z.string().nullable(),
  color_name: z.string(),
  hex_code: z.string(),
  shades: z.array(Shade),
});
export type Color = z.infer<typeof Color>;
export const ColorGroup = z.object({
  group_id: z.number().int(),
  group_name: z.string(),
  is_expanded: z.boolean(),
  colors: z.array(Color),
});
export type ColorGroup = z.infer<typeof ColorGroup>;

export const ColorRolesState = z
  .object({
    groups: z.array(ColorGroup),
    channel_id: z.string().nullable(),
    mode: ColorRolesMode,
    message_id: z.string().nullable().optional(),
    /** Sentences for the admin, e.g. a role the bot cannot give because it sits at or above the bot's highest role. */
    warnings: z.array(z.string()).optional(),
  })
  .meta({ id: 'ColorRoles' });
export type ColorRolesState = z.infer<typeof ColorRolesState>;

/** The bot's server-wide permissions integer (decimal string); core's `missingBotPermissions` reads it. */
export const BotPermissions = z
  .object({ permissions: z.string().regex(/^\d{1,20}$/) })
  .meta({ id: 'BotPermissions' });
export type BotPermissions = z.infer<typeof BotPermissions>;

export const Channel = z.object({ id: Snowflake, name: z.string() });
export type Channel = z.infer<typeof Channel>;

export const PERSONALITY_QUESTION_TYPES = [
  'age_range',
  'zodiac',
  'gaming_platform',
  'hobbies',
  'pronouns',
  'gender',
  'dm_status',
  'ping_roles',
  'music_genres',
  'mbti',
] as const;
export const PersonalityQuestionType = z.enum(PERSONALITY_QUESTION_TYPES);
export type PersonalityQuestionType = z.infer<typeof PersonalityQuestionType>;

export const PersonalityQuestion = z.object({
  question_type: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  role_count: z.number().int(),
  is_multi_select: z.boolean(),
  is_enabled: z.boolean(),
  /** Options whose role the bot created (what disabling with "delete its roles", or a reset, deletes). */
  created_roles: z.number().int().nonnegative().optional(),
  /** Whether the question's message is posted (a reset deletes it). */
  message_posted: z.boolean().optional(),
  /** Whether the question is a prompt of the server's Discord Onboarding (a reset removes it). */
  in_onboarding: z.boolean().optional(),
});
export type PersonalityQuestion = z.infer<typeof PersonalityQuestion>;

/**
 * What the latest personality refresh of a guild did. The worker writes it to Redis
 * (`personalityLastRefreshKey`) after each run and the API reads it back with this schema.
 */
export const PersonalityLastRefresh = z.object({
  ran_at: z.iso.datetime(),
  summary: z.string(),
  repaired: z.number().int().nonnegative(),
});
export type PersonalityLastRefresh = z.infer<typeof PersonalityLastRefresh>;

export const PersonalityRolesState = z
  .object({
    configured: z.boolean(),
    assign_channel_id: z.string().nullable(),
    questions: z.array(PersonalityQuestion),
    /** The latest refresh run (every 5 minutes, or after a change): when, and what it repaired. */
    last_refresh: PersonalityLastRefresh.nullable().optional(),
    /** The latest refresh run that repaired something (null when none did, within 7 days). */
    last_repair: PersonalityLastRefresh.nullable().optional(),
    /**
     * "Also ask in Discord Onboarding": the enabled questions are also prompts of the server's
     * native Discord Onboarding. Always sent by the API; optional for older answers.
     */
    onboarding: z.boolean().optional(),
  })
  .meta({ id: 'PersonalityRoles' });
export type PersonalityRolesState = z.infer<typeof PersonalityRolesState>;

export const LevelingSettings = z
  .object({
    enabled: z.boolean(),
    xp_multiplier: z.number().min(0),
    announcement_channel: z.string().nullable(),
    daily_overview_channel: z.string().nullable(),
    xp_per_message: z.number().int().min(0).max(1000),
    message_cooldown_sec: z.number().int().min(0).max(600),
  })
  .meta({ id: 'LevelingSettings' });
export type LevelingSettings = z.infer<typeof LevelingSettings>;

export const LevelingRole = z
  .object({
    id: z.number().int(),
    role_name: z.string().max(100),
    level_required: z.number().int().min(0),
    is_image_role: z.boolean(),
    role_id: z.string().nullable(),
  })
  .meta({ id: 'LevelingRole' });
export type LevelingRole = z.infer<typeof LevelingRole>;

export const Boost = z
  .object({
    id: z.number().int(),
    multiplier: z.number().min(0),
    user_id: z.string().nullable(),
    expires_at: Timestamp.nullable(),
  })
  .meta({ id: 'Boost' });
export type Boost = z.infer<typeof Boost>;

export const LevelingState = z
  .object({ leveling: LevelingSettings, roles: z.array(LevelingRole), boosts: z.array(Boost) })
  .meta({ id: 'Leveling' });
export type LevelingState = z.infer<typeof LevelingState>;

/** One member of the leveling leaderboard: their stored name and avatar, XP, level and progress. */
export const LeaderboardMember = z
  .object({
    user_id: Snowflake,
    /** The name the member had when they last earned XP; null when never seen. */
    username: z.string().nullable(),
    /** Discord avatar hash (CDN `avatars/{user_id}/{avatar}.png`); null for the default avatar. */
    avatar: z.string().nullable(),
    xp: z.number().int().min(0),
    level: z.number().int().min(0),
    /** 1-based position by XP; ties are ordered by user id. */
    rank: z.number().int().min(1),
    /** XP earned since the current level was reached. */
    xp_into_level: z.number().int().min(0),
    /** XP the current level takes in all (xp_into_level out of xp_for_next). */
    xp_for_next: z.number().int().min(0),
  })
  .meta({ id: 'LeaderboardMember' });
export type LeaderboardMember = z.infer<typeof LeaderboardMember>;

export const Leaderboard = z
  .object({
    members: z.array(LeaderboardMember),
    /** Every ranked member (members who left are not ranked). */
    total: z.number().int().min(0),
  })
  .meta({ id: 'Leaderboard' });
export type Leaderboard = z.infer<typeof Leaderboard>;

/** A role of the guild for pickers (@everyone excluded), highest position first. */
export const GuildRole = z
  .object({
    id: Snowflake,
    name: z.string(),
    /** RGB as an integer; 0 means no color. */
    color: z.number().int().min(0),
    position: z.number().int(),
    /** Held by an integration (a bot's own role): no one can be given it. */
    managed: z.boolean(),
  })
  .meta({ id: 'GuildRole' });
export type GuildRole = z.infer<typeof GuildRole>;

/** A member found by the member search, for pickers. */
export const MemberSummary = z
  .object({
    id: Snowflake,
    username: z.string(),
    /** Server nickname, else global display name, else username. */
    display_name: z.string(),
    /** Discord avatar hash; null for the default avatar. */
    avatar: z.string().nullable(),
  })
  .meta({ id: 'MemberSummary' });
export type MemberSummary = z.infer<typeof MemberSummary>;

const JOB_STATES = ['waiting', 'active', 'delayed', 'completed', 'failed', 'unknown'] as const;
export const JobStatus = z
  .object({
    id: z.string(),
    name: z.string(),
    guild_id: z.string(),
    state: z.enum(JOB_STATES),
    progress: z.number().min(0).max(100),
    result: z.unknown().optional(),
    /** What went wrong, in words for the admin; null unless failed. */
    error: z.string().nullable(),
    /** The machine-readable failure code (e.g. role_cap_reached), when the worker gave one. */
    error_code: z.string().nullable().optional(),
    /**
     * True while the job is being recovered: the worker running it stopped (killed, crashed,
     * lost Redis) and another worker is taking it over. Absent from older servers: false.
     */
    recovering: z.boolean().default(false),
  })
  .meta({ id: 'JobStatus' });
export type JobStatus = z.infer<typeof JobStatus>;

export const JobAccepted = z.object({ job_id: z.string() }).meta({ id: 'JobAccepted' });
export type JobAccepted = z.infer<typeof JobAccepted>;
