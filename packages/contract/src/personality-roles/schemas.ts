/** Personality roles: the question catalog, its channel and the last refresh. */
import { z } from 'zod';
import { ChannelBody, GuildParams } from '../common.ts';
import { Text } from '../inputs.ts';
import { PersonalityQuestionOption } from './questions.ts';

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
  /** The question's row: what …/questions/{questionId} names. */
  question_id: z.number().int(),
  /**
   * The question's key: the template's type for a question added from one of the ten built-in
   * categories, `q<question_id>` for a question of the admin's own (`ownQuestionKey`).
   */
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
  /** In panel order. */
  options: z.array(PersonalityQuestionOption),
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
