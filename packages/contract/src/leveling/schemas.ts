/** Leveling: settings, reward roles, boosts and the leaderboard. */
import { z } from 'zod';
import { ChannelId, GuildParams, queryInt, Snowflake, snowflake, Timestamp } from '../common.ts';
import { SNOWFLAKE_PATTERN } from '../ids.ts';
import {
  INT4_MAX,
  inTimestampRange,
  NOT_BLANK,
  SerialIdParam,
  storableText,
  TIMESTAMP_YEAR_MAX,
  TIMESTAMP_YEAR_MIN,
} from '../inputs.ts';

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
    /** Ranked members whose level gives them this reward under the reward mode (what deleting it takes away). */
    holders: z.number().int().min(0),
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

const NullableChannel = ChannelId.nullable();
/** A number field's one message for every way it can be wrong (type, range, whole). */
const numberField = (message: string) => z.number({ error: message });
const SETTINGS_NOT_OBJECT = 'The leveling settings must be a JSON object of the fields to change';
/** A strict object's message for a key it does not know (zod's own names the key in its words). */
const unknownKeys =
  (fallback: string) =>
  (issue: { code?: string; keys?: readonly string[] }): string =>
    issue.code === 'unrecognized_keys' && issue.keys
      ? `${issue.keys.join(', ')} ${issue.keys.length === 1 ? 'is not a field' : 'are not fields'} of this request`
      : fallback;
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
        .meta({ description: `Rounded and stored clamped to 0..${XP_PER_MESSAGE_MAX}` }),
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
    },
    { error: unknownKeys(SETTINGS_NOT_OBJECT) },
  )
  .meta({ id: 'PutLevelingBody' });
export type PutLevelingBody = z.infer<typeof PutLevelingBody>;

export const LevelingRoleParams = GuildParams.extend({ roleId: SerialIdParam });
export const BoostParams = GuildParams.extend({ boostId: SerialIdParam });

const ROLE_NAME_BLANK = 'Role name cannot be blank';
const ROLE_NAME_TEXT = 'Role name must be text';
const LEVEL_REQUIRED = 'Level required must be a whole number from 0 to 1000';
const LevelRequired = z
  .number({ error: LEVEL_REQUIRED })
  .int(LEVEL_REQUIRED)
  .min(0, LEVEL_REQUIRED)
  .max(1000, LEVEL_REQUIRED);
const IsImageRole = z.boolean({ error: 'is_image_role must be true or false' });
const REWARD_NOT_OBJECT = 'A reward role must be a JSON object';
export const CreateLevelingRoleBody = z
  .object(
    {
      role_name: storableText({ error: ROLE_NAME_TEXT })
        .regex(NOT_BLANK, ROLE_NAME_BLANK)
        .trim()
        .min(1, ROLE_NAME_BLANK)
        .max(100, 'Role name is at most 100 characters')
        .default('Level Reward'),
      level_required: LevelRequired.default(1),
      is_image_role: IsImageRole.default(false),
    },
    { error: REWARD_NOT_OBJECT },
  )
  .meta({ id: 'CreateLevelingRoleBody' });
export const UpdateLevelingRoleBody = z.strictObject(
  {
    role_name: storableText({ error: ROLE_NAME_TEXT })
      .regex(NOT_BLANK, ROLE_NAME_BLANK)
      .trim()
      .min(1, ROLE_NAME_BLANK)
      .max(100, 'Role name is at most 100 characters')
      .optional(),
    level_required: LevelRequired.optional(),
    is_image_role: IsImageRole.optional(),
  },
  { error: unknownKeys(REWARD_NOT_OBJECT) },
);

const EXPIRES_AT_RANGE = `expires_at must fall between the years ${TIMESTAMP_YEAR_MIN} and ${TIMESTAMP_YEAR_MAX} (UTC)`;
/**
 * The UTC year range as a pattern, so OpenAPI shows it: a year 1970-9999, and no offset that
 * moves 1970-01-01 back into 1969 or 9999-12-31 on into 10000 (on those two days only an offset
 * of zero is taken, a little stricter than the range itself).
 */
const EXPIRES_AT_YEARS =
  /^(?!1970-01-01T[^Z]*\+(?!00:?00)|9999-12-31T[^Z]*-(?!00:?00))(19[7-9]\d|[2-9]\d{3})-/;
const ExpiresAt = z.iso
  .datetime({
    offset: true,
    error: 'expires_at must be an ISO timestamp, or null for a boost that never expires',
  })
  .regex(EXPIRES_AT_YEARS, EXPIRES_AT_RANGE)
  .refine(inTimestampRange, { message: EXPIRES_AT_RANGE })
  .meta({
    description: `In the future (a past time answers 400), within the years ${TIMESTAMP_YEAR_MIN} to ${TIMESTAMP_YEAR_MAX} (UTC); null: never expires`,
  })
  .nullable();
const MULTIPLIER = 'multiplier must be a number from 0 to 100';
const Multiplier = z.number({ error: MULTIPLIER }).min(0, MULTIPLIER).max(100, MULTIPLIER);
const BOOST_NOT_OBJECT = 'A boost must be a JSON object';
export const CreateBoostBody = z
  .object(
    {
      multiplier: Multiplier.default(2),
      user_id: z
        .string({ error: 'user_id must be a member id, or null for a server-wide boost' })
        .regex(SNOWFLAKE_PATTERN, 'user_id must be a member id, or null for a server-wide boost')
        .nullable()
        .default(null),
      expires_at: ExpiresAt.default(null),
    },
    { error: BOOST_NOT_OBJECT },
  )
  .meta({ id: 'CreateBoostBody' });
export const CreateChannelBoostBody = z
  .object(
    {
      channel_id: ChannelId,
      multiplier: Multiplier.default(2),
      expires_at: ExpiresAt.default(null),
    },
    { error: BOOST_NOT_OBJECT },
  )
  .meta({ id: 'CreateChannelBoostBody' });
export const CreateRoleBoostBody = z
  .object(
    {
      role_id: z
        .string({ error: 'A role boost needs a role id' })
        .regex(SNOWFLAKE_PATTERN, 'A role boost needs a role id'),
      multiplier: Multiplier.default(2),
      expires_at: ExpiresAt.default(null),
    },
    { error: BOOST_NOT_OBJECT },
  )
  .meta({ id: 'CreateRoleBoostBody' });

export const LEADERBOARD_LIMIT_DEFAULT = 25;
export const LEADERBOARD_LIMIT_MAX = 100;
export const LeaderboardQuery = z.object({
  limit: queryInt('limit', 1, LEADERBOARD_LIMIT_MAX, LEADERBOARD_LIMIT_DEFAULT),
  offset: queryInt('offset', 0, INT4_MAX, 0),
});

/** One member's stored XP, level and rank after an admin set it. */
export const MemberXp = z
  .object({
    user_id: Snowflake,
    xp: z.number().int().min(0),
    level: z.number().int().min(0),
  })
  .meta({ id: 'MemberXp' });
export type MemberXp = z.infer<typeof MemberXp>;

/** XP can be set up to this (far past any level a server reaches; fits a JS integer). */
export const MEMBER_XP_MAX = 1_000_000_000_000;
export const MemberXpParams = GuildParams.extend({
  userId: snowflake('The member id in the path must be a Discord id'),
});
export const SetMemberXpBody = z
  .strictObject(
    {
      xp: z
        .number({ error: 'xp must be a whole number of at least 0' })
        .int('xp must be a whole number of at least 0')
        .min(0, 'xp must be a whole number of at least 0')
        .max(MEMBER_XP_MAX, `xp must be at most ${MEMBER_XP_MAX.toLocaleString('en-US')}`),
    },
    { error: unknownKeys('The body must be a JSON object: { "xp": n }') },
  )
  .meta({ id: 'SetMemberXpBody' });
export type SetMemberXpBody = z.infer<typeof SetMemberXpBody>;

/** The most rows one import takes. */
export const XP_IMPORT_MAX_ROWS = 100_000;
/** How many skipped rows an import answer lists (it counts them all). */
export const XP_IMPORT_SKIPPED_LISTED = 100;
export const XP_IMPORT_MODES = ['replace', 'add'] as const;
export const XpImportQuery = z.object({
  mode: z
    .enum(XP_IMPORT_MODES, { error: 'mode must be replace or add' })
    .default('replace')
    .meta({ description: "replace: a listed member's XP becomes the file's; add: it is added to theirs" }),
});
export const XpImportSkipped = z
  .object({
    /** 1-based line of the CSV (the header is line 1) or index+1 of the JSON player. */
    row: z.number().int().min(1),
    /**
     * Why: "user_id is not a Discord id", "xp is not a whole number of at least 0", "user_id …
     * is not a member of this server", "user_id … is a bot: bots earn no XP"...
     */
    reason: z.string().meta({
      description:
        'Why the row was not imported: a bad id or XP, a member listed again, or an id that is not a member of the server or is a bot',
    }),
  })
  .meta({ id: 'XpImportSkipped' });
export const XpImportResult = z
  .object({
    imported: z.number().int().min(0),
    skipped: z.number().int().min(0),
    /** The first skipped rows (at most XP_IMPORT_SKIPPED_LISTED), in file order. */
    skipped_rows: z.array(XpImportSkipped),
    /** Sync Roles, queued to bring levels' rewards in line. */
    job_id: z.string().nullable(),
  })
  .meta({ id: 'XpImportResult' });
export type XpImportResult = z.infer<typeof XpImportResult>;
const MEE6_SHAPE =
  'The JSON must be MEE6\'s leaderboard shape: { "players": [ { "id", "xp", "username"? } ] }';
/** One player of MEE6's leaderboard JSON as an import reads it (other fields are ignored). */
export const Mee6Player = z
  .looseObject({
    id: Snowflake,
    xp: z.number().int().min(0).max(MEMBER_XP_MAX),
    username: z.string().optional(),
  })
  .meta({ id: 'Mee6Player', description: 'A player that does not fit is skipped and counted, not refused' });
/** MEE6's public leaderboard page shape (`players`), the JSON an import takes, as OpenAPI shows it. */
export const Mee6Leaderboard = z
  .object({ players: z.array(Mee6Player).max(XP_IMPORT_MAX_ROWS) })
  .meta({ id: 'Mee6Leaderboard' });
/**
 * What the import checks of the JSON itself: a `players` list. Each player is read by the import
 * (a bad one is skipped and counted, not the whole file refused), and so is the row count (413
 * above XP_IMPORT_MAX_ROWS).
 */
export const Mee6LeaderboardBody = z.object(
  { players: z.array(z.unknown(), { error: MEE6_SHAPE }) },
  { error: MEE6_SHAPE },
);
/** The CSV an import takes: a header naming user_id and xp (any order, other columns ignored). */
export const XpImportCsv = z.string().meta({
  id: 'XpImportCsv',
  description:
    'RFC 4180 CSV: a header row naming user_id and xp (any order; other columns such as username are kept or ignored), then one row per member. A BOM and CRLF line ends are fine.',
  example: 'user_id,username,xp\n200000000000000001,ada,1500\n',
});
/**
 * The import's body, checked by the route itself by its content type (text/csv or
 * application/json); OpenAPI shows each content type's schema (the route's `bodyMediaTypes`).
 */
export const XpImportBody = z
  // Typed as the JSON shape for typed clients; a CSV upload sends the file's text instead.
  .custom<{ players: unknown[] }>(() => true)
  .meta({ description: 'text/csv or MEE6 leaderboard JSON' });
/** The largest import body (100,000 MEE6 players with every field MEE6 sends fit well under it). */
export const XP_IMPORT_BODY_LIMIT = 32 * 1024 * 1024;
/** Columns of `GET …/leveling/export`, in order. */
export const XP_EXPORT_COLUMNS = ['user_id', 'username', 'xp', 'level', 'rank'] as const;
/** The export's answer: CSV text (`Content-Type: text/csv`, sent as an attachment). */
export const XpExportCsv = z.string().meta({
  id: 'XpExportCsv',
  description: `text/csv (RFC 4180) with the header ${XP_EXPORT_COLUMNS.join(',')}, one row per ranked member by rank; a username starting with =, +, - or @ is prefixed with ' so spreadsheets do not run it`,
});

/** The public leaderboard page: the server's name and icon and a page of its ranked members. */
export const PublicLeaderboard = z
  .object({
    guild: z.object({ id: Snowflake, name: z.string(), icon: z.string().nullable() }),
    visibility: LeaderboardVisibility,
    members: z.array(LeaderboardMember),
    total: z.number().int().min(0),
  })
  .meta({ id: 'PublicLeaderboard' });
export type PublicLeaderboard = z.infer<typeof PublicLeaderboard>;
