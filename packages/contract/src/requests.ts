import { z } from 'zod';
import { GuildConfigData, PERSONALITY_QUESTION_TYPES } from './entities.ts';
import { MESSAGES } from './errors.ts';
import { ChannelId, Snowflake, snowflake } from './id-schemas.ts';
import { SNOWFLAKE_DIGITS } from './ids.ts';
import {
  CONFIG_MAX_DEPTH,
  checkJsonTree,
  INT4_MAX,
  inTimestampRange,
  NOT_BLANK,
  SerialId,
  SerialIdParam,
  storableText,
  Text,
  TIMESTAMP_YEAR_MAX,
  TIMESTAMP_YEAR_MIN,
  wholeNumberPattern,
} from './inputs.ts';
import { BOT_FEATURES } from './install-state.ts';

export const GuildParams = z.object({ guildId: Snowflake });

export const ExchangeBody = z
  .object({
    code: Text.min(1, MESSAGES.noCodeProvided).max(512),
    code_verifier: Text.min(43, 'code_verifier must be 43-128 characters').max(
      128,
      'code_verifier must be 43-128 characters',
    ),
  })
  .meta({ id: 'ExchangeBody' });

const FEATURES_MESSAGE = `features must be a comma-separated list of: ${BOT_FEATURES.join(', ')}`;
/**
 * Features the invite asks permissions for on top of the server's (e.g. `onboarding`, before
 * its switch is on): a comma-separated list.
 */
const FEATURE_NAME = `\\s*(?:${BOT_FEATURES.join('|')})\\s*`;
const InviteFeatures = z
  .string()
  .max(200, FEATURES_MESSAGE)
  .regex(new RegExp(`^(?:${FEATURE_NAME}(?:,${FEATURE_NAME})*)?$`), FEATURES_MESSAGE)
  .optional()
  .transform((value) => (value ? value.split(',').map((name) => name.trim()) : []))
  .pipe(z.array(z.enum(BOT_FEATURES, { error: FEATURES_MESSAGE })))
  .meta({ description: FEATURES_MESSAGE, example: 'onboarding' });
export const InviteQuery = z.object({ guildId: Snowflake.optional(), features: InviteFeatures });
export const InstallQuery = z.object({ guildId: Snowflake.optional(), features: InviteFeatures });
/** Discord's redirect back to us: read, never stored, so any text goes (it still redirects). */
export const InstallCallbackQuery = z.object({
  code: z.string().optional(),
  guild_id: Snowflake.optional(),
  state: z.string().max(512).optional(),
  permissions: z.string().optional(),
  error: z.string().optional(),
});

/**
 * The raw config body: a JSON object whose strings Postgres can store, nested at most
 * CONFIG_MAX_DEPTH deep (size is checked by the API against CONFIG_MAX_BYTES). Only writes are
 * checked, so a config stored before these rules still reads back.
 */
export const PutConfigBody = GuildConfigData.superRefine(checkJsonTree).meta({
  description: `Any JSON object. Every key and string, however deep, must be storable text (no NUL, no unpaired surrogate), and objects and arrays nest at most ${CONFIG_MAX_DEPTH} levels deep (400 otherwise).`,
});

/** The 1-based row of an issue at `[list, index, field]`, for the messages below. */
const rowOf = (issue: { readonly path?: PropertyKey[] | undefined }) => Number(issue.path?.[1] ?? 0) + 1;
const rowRequired = (issue: { readonly path?: PropertyKey[] | undefined }) =>
  MESSAGES.reactionRowRequired(rowOf(issue));
const rowRoleId = (issue: { readonly path?: PropertyKey[] | undefined }) =>
  `Row ${rowOf(issue)}: role_id must be a Discord role id`;

/**
 * A row needs an emoji and a role id (spaces around the id are trimmed). The fields say so, so
 * OpenAPI shows it; zod gives a message function the issue's whole path, hence the row number.
 */
const ReactionRoleRowInput = z.object({
  emoji: storableText({ error: rowRequired }).max(64).regex(NOT_BLANK, { error: rowRequired }),
  role_id: storableText({ error: rowRequired })
    .max(32)
    .regex(NOT_BLANK, { error: rowRequired })
    .regex(new RegExp(`^\\s*${SNOWFLAKE_DIGITS}\\s*$`), { error: rowRoleId }),
  label: Text.max(80).optional(),
  description: Text.max(100).optional(),
});

export const PutReactionRolesBody = z
  .object({
    color_roles: z.array(ReactionRoleRowInput).max(25, 'At most 25 color roles'),
    personality_roles: z.array(ReactionRoleRowInput).max(25, 'At most 25 personality roles'),
  })
  .meta({ id: 'PutReactionRolesBody' });
export type PutReactionRolesBody = z.infer<typeof PutReactionRolesBody>;

export const ChannelBody = z.object({ channel_id: ChannelId }).meta({ id: 'ChannelBody' });
export const ExpandGroupBody = z.object({ group_id: SerialId, is_expanded: z.boolean() });

export const CHOOSE_A_CATEGORY = 'Choose at least one category';
const CATEGORY_MESSAGE = `Each category must be one of: ${PERSONALITY_QUESTION_TYPES.join(', ')}`;
/**
 * Initialize: the assignment channel, and the categories to turn on (the Initialize card's
 * choice). Every category is seeded; only these start enabled and get roles. Absent: all.
 */
export const InitPersonalityBody = ChannelBody.extend({
  categories: z
    .array(z.enum(PERSONALITY_QUESTION_TYPES, { error: CATEGORY_MESSAGE }))
    .min(1, CHOOSE_A_CATEGORY)
    .max(PERSONALITY_QUESTION_TYPES.length)
    .refine((list) => new Set(list).size === list.length, 'Each category at most once')
    .meta({ uniqueItems: true })
    .optional(),
}).meta({ id: 'InitPersonalityBody' });
export type InitPersonalityBody = z.infer<typeof InitPersonalityBody>;

export const QuestionParams = GuildParams.extend({ question_type: Text.min(1).max(64) });
export const ToggleQuestionBody = z.object({ enabled: z.boolean() });
export const PersonalityOnboardingBody = z
  .object({ enabled: z.boolean() })
  .strict()
  .meta({ id: 'PersonalityOnboardingBody' });

const NullableChannel = ChannelId.nullable();
export const PutLevelingBody = z
  .object({
    enabled: z.boolean().optional(),
    // Clamped rather than refused, as admins expect of these fields: the API stores the clamped value
    // (packages/core leveling.ts) and answers it, so the dashboard can say what was stored.
    xp_multiplier: z
      .number()
      .max(100, 'XP multiplier must be at most 100')
      .optional()
      .meta({ description: 'Below 0 is stored as 0 (XP off)' }),
    announcement_channel: NullableChannel.optional(),
    daily_overview_channel: NullableChannel.optional(),
    xp_per_message: z.number().optional().meta({ description: 'Rounded and stored clamped to 0..1000' }),
    message_cooldown_sec: z.number().optional().meta({ description: 'Rounded and stored clamped to 0..600' }),
  })
  .strict()
  .meta({ id: 'PutLevelingBody' });
export type PutLevelingBody = z.infer<typeof PutLevelingBody>;

export const LevelingRoleParams = GuildParams.extend({ roleId: SerialIdParam });
export const BoostParams = GuildParams.extend({ boostId: SerialIdParam });

const ROLE_NAME_BLANK = 'Role name cannot be blank';
export const CreateLevelingRoleBody = z
  .object({
    role_name: Text.regex(NOT_BLANK, ROLE_NAME_BLANK)
      .trim()
      .min(1, ROLE_NAME_BLANK)
      .max(100, 'Role name is at most 100 characters')
      .default('Level Reward'),
    level_required: z.number().int().min(0, 'Level required must be at least 0').max(1000).default(1),
    is_image_role: z.boolean().default(false),
  })
  .meta({ id: 'CreateLevelingRoleBody' });
export const UpdateLevelingRoleBody = z
  .object({
    role_name: Text.regex(NOT_BLANK, ROLE_NAME_BLANK)
      .trim()
      .min(1, ROLE_NAME_BLANK)
      .max(100, 'Role name is at most 100 characters')
      .optional(),
    level_required: z.number().int().min(0).max(1000).optional(),
    is_image_role: z.boolean().optional(),
  })
  .strict();

const EXPIRES_AT_RANGE = `expires_at must fall between the years ${TIMESTAMP_YEAR_MIN} and ${TIMESTAMP_YEAR_MAX} (UTC)`;
/**
 * The UTC year range as a pattern, so OpenAPI shows it: a year 1970-9999, and no offset that
 * moves 1970-01-01 back into 1969 or 9999-12-31 on into 10000 (on those two days only an offset
 * of zero is taken, a little stricter than the range itself).
 */
const EXPIRES_AT_YEARS =
  /^(?!1970-01-01T[^Z]*\+(?!00:?00)|9999-12-31T[^Z]*-(?!00:?00))(19[7-9]\d|[2-9]\d{3})-/;
const ExpiresAt = z.iso
  .datetime({ offset: true, message: 'expires_at must be an ISO timestamp' })
  .regex(EXPIRES_AT_YEARS, EXPIRES_AT_RANGE)
  .refine(inTimestampRange, { message: EXPIRES_AT_RANGE })
  .meta({
    description: `In the future (a past time answers 400), within the years ${TIMESTAMP_YEAR_MIN} to ${TIMESTAMP_YEAR_MAX} (UTC); null: never expires`,
  })
  .nullable();
export const CreateBoostBody = z
  .object({
    multiplier: z.number().min(0).max(100).default(2),
    user_id: Snowflake.nullable().default(null),
    expires_at: ExpiresAt.default(null),
  })
  .meta({ id: 'CreateBoostBody' });
export const CreateRoleBoostBody = z
  .object({
    role_id: snowflake('A role boost needs a role id'),
    multiplier: z.number().min(0).max(100).default(2),
    expires_at: ExpiresAt.default(null),
  })
  .meta({ id: 'CreateRoleBoostBody' });

/**
 * Job ids are ours (`jobIdFor`, e.g. `color-roles.generate.<guild>`, or BullMQ's numbers): at
 * most 100 characters, as Fastify's default `maxParamLength` answers a longer path segment 400.
 */
export const JobParams = z.object({
  jobId: Text.min(1)
    .max(100)
    .regex(/^[A-Za-z0-9._-]+$/, 'A job id is made of letters, digits, dots and dashes'),
});

/**
 * A whole number in a query string: ASCII digits only (as `SerialIdParam`), within [min, max],
 * with one message for every way it can be wrong.
 */
function queryInt(name: string, min: 0 | 1, max: number, fallback: number) {
  const message = `${name} must be a whole number from ${min} to ${max}`;
  return z
    .union(
      [
        z.number({ error: message }).int(message).min(min, message).max(max, message),
        z.string().regex(wholeNumberPattern(min, max), message).transform(Number),
      ],
      { error: message },
    )
    .pipe(z.number({ error: message }).int(message).min(min, message).max(max, message))
    .default(fallback);
}

export const LEADERBOARD_LIMIT_DEFAULT = 25;
export const LEADERBOARD_LIMIT_MAX = 100;
export const LeaderboardQuery = z.object({
  limit: queryInt('limit', 1, LEADERBOARD_LIMIT_MAX, LEADERBOARD_LIMIT_DEFAULT),
  offset: queryInt('offset', 0, INT4_MAX, 0),
});

export const MEMBER_SEARCH_LIMIT_DEFAULT = 10;
export const MEMBER_SEARCH_LIMIT_MAX = 100;
const MEMBER_QUERY_MESSAGE = 'query is required: the start of a name, or a member id';
export const MemberSearchQuery = z.object({
  /** The start of a username or nickname, or a member's id. */
  query: z
    .string({ error: MEMBER_QUERY_MESSAGE })
    .regex(NOT_BLANK, MEMBER_QUERY_MESSAGE)
    .trim()
    .min(1, MEMBER_QUERY_MESSAGE)
    .max(100, 'query is at most 100 characters'),
  limit: queryInt('limit', 1, MEMBER_SEARCH_LIMIT_MAX, MEMBER_SEARCH_LIMIT_DEFAULT),
});
