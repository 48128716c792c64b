import { z } from 'zod';
import { GuildConfigData, PERSONALITY_QUESTION_TYPES } from './entities.ts';
import { MESSAGES } from './errors.ts';
import { ChannelId, Snowflake, snowflake } from './id-schemas.ts';
import { isSnowflake } from './ids.ts';
import {
  checkJsonTree,
  INT4_MAX,
  inTimestampRange,
  SerialId,
  SerialIdParam,
  Text,
  TIMESTAMP_YEAR_MAX,
  TIMESTAMP_YEAR_MIN,
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
const InviteFeatures = z
  .string()
  .max(200, FEATURES_MESSAGE)
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
export const PutConfigBody = GuildConfigData.superRefine(checkJsonTree);

const ReactionRoleRowInput = z.object({
  emoji: Text.max(64).default(''),
  role_id: Text.max(32).default(''),
  label: Text.max(80).optional(),
  description: Text.max(100).optional(),
});

function checkRows(
  rows: Array<z.infer<typeof ReactionRoleRowInput>>,
  list: string,
  ctx: z.RefinementCtx,
): void {
  rows.forEach((row, index) => {
    if (row.emoji.trim() === '' || row.role_id.trim() === '') {
      ctx.addIssue({ code: 'custom', path: [list, index], message: MESSAGES.reactionRowRequired(index + 1) });
    } else if (!isSnowflake(row.role_id.trim())) {
      ctx.addIssue({
        code: 'custom',
        path: [list, index, 'role_id'],
        message: `Row ${index + 1}: role_id must be a Discord role id`,
      });
    }
  });
}

export const PutReactionRolesBody = z
  .object({
    color_roles: z.array(ReactionRoleRowInput).max(25, 'At most 25 color roles'),
    personality_roles: z.array(ReactionRoleRowInput).max(25, 'At most 25 personality roles'),
  })
  .superRefine((body, ctx) => {
    checkRows(body.color_roles, 'color_roles', ctx);
    checkRows(body.personality_roles, 'personality_roles', ctx);
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
    // The spec clamps these rather than refusing them: the API stores the clamped value
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

export const CreateLevelingRoleBody = z
  .object({
    role_name: Text.trim().min(1).max(100, 'Role name is at most 100 characters').default('Level Reward'),
    level_required: z.number().int().min(0, 'Level required must be at least 0').max(1000).default(1),
    is_image_role: z.boolean().default(false),
  })
  .meta({ id: 'CreateLevelingRoleBody' });
export const UpdateLevelingRoleBody = z
  .object({
    role_name: Text.trim().min(1).max(100, 'Role name is at most 100 characters').optional(),
    level_required: z.number().int().min(0).max(1000).optional(),
    is_image_role: z.boolean().optional(),
  })
  .strict();

const ExpiresAt = z.iso
  .datetime({ offset: true, message: 'expires_at must be an ISO timestamp' })
  .refine(inTimestampRange, {
    message: `expires_at must fall between the years ${TIMESTAMP_YEAR_MIN} and ${TIMESTAMP_YEAR_MAX} (UTC)`,
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

export const JobParams = z.object({ jobId: Text.min(1).max(200) });

/**
 * A whole number in a query string: ASCII digits only (as `SerialIdParam`), within [min, max],
 * with one message for every way it can be wrong.
 */
function queryInt(name: string, min: number, max: number, fallback: number) {
  const message = `${name} must be a whole number from ${min} to ${max}`;
  return z
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^[0-9]{1,10}$/, message)
          .transform(Number),
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
    .trim()
    .min(1, MEMBER_QUERY_MESSAGE)
    .max(100, 'query is at most 100 characters'),
  limit: queryInt('limit', 1, MEMBER_SEARCH_LIMIT_MAX, MEMBER_SEARCH_LIMIT_DEFAULT),
});
