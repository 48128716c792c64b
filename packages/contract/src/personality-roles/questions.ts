/**
 * Questions of the server's own (issue 38): a question an admin writes, or a built-in category
 * once added (a template), edited alike. An option gives a role (an existing one the bot can
 * give, or one Generate Roles creates, named after the option) and may open channels: through
 * the role's View Channel overwrite in the bot's panels, through the option's `channel_ids` in
 * Discord Onboarding. Limits are Discord's (25 options a question, labels of 50 characters).
 */
import { z } from 'zod';
import { GuildParams, queryInt, Snowflake } from '../common.ts';
import { SerialId, SerialIdParam, storableText } from '../inputs.ts';
import { menuEmojiKey, parseMenuEmoji } from '../reaction-roles/emoji.ts';

/** Discord's limits: options of a select menu (and so of a question), a button or prompt option label. */
export const QUESTION_MAX_OPTIONS = 25;
export const QUESTION_OPTION_LABEL_MAX = 50;
/** An Onboarding prompt's title (the panel's embed title allows more). */
export const QUESTION_TITLE_MAX = 100;
export const QUESTION_DESCRIPTION_MAX = 300;
/** Channels one option opens. */
export const QUESTION_OPTION_MAX_CHANNELS = 10;
/** Questions of one server: the ten templates and as many of the admin's own. */
export const QUESTIONS_MAX = 30;

/**
 * The key of a question of the admin's own (`question_type` in answers, the custom ids of its
 * panel): `q<question id>`. A question added from a template keeps the template's type.
 */
export function ownQuestionKey(questionId: number): string {
  return `q${questionId}`;
}
export const OWN_QUESTION_KEY = /^q\d{1,10}$/;

/** How a refusal names an option: `Question "Games", option 3 ("Xbox")`. */
export function questionOptionName(title: string, index: number, label?: string): string {
  const shown = label?.trim() ? ` ("${label.trim().slice(0, 60)}")` : '';
  return `Question "${title.trim().slice(0, QUESTION_TITLE_MAX)}", option ${index + 1}${shown}`;
}

export const PersonalityQuestionOptionInput = z
  .object({
    /** An option of the question as stored: it keeps its role and members' answers. Absent: new
     * (or the stored option with the same label, for clients that send labels only). */
    option_id: SerialId.optional().meta({ description: 'Each option_id at most once in a question' }),
    label: storableText({ error: 'label must be text' }).meta({
      description: `Required, at most ${QUESTION_OPTION_LABEL_MAX} characters, unique in the question (case-insensitive)`,
    }),
    emoji: storableText({ error: 'emoji must be text' })
      .nullable()
      .optional()
      .meta({ description: 'One emoji, or a custom emoji of this server as <:name:id>' }),
    /** An existing role the bot can give; absent or null: Generate Roles creates one. */
    role_id: Snowflake.nullable()
      .optional()
      .meta({ description: 'A role the bot can give; two options of a question never give the same role' }),
    channel_ids: z
      .array(Snowflake, { error: 'channel_ids must be a list of channel ids' })
      .max(QUESTION_OPTION_MAX_CHANNELS)
      .optional()
      .meta({ description: 'Channels of this server, each at most once' }),
  })
  .strict();
export type PersonalityQuestionOptionInput = z.infer<typeof PersonalityQuestionOptionInput>;

/** A question as an admin writes it (POST and PUT …/questions). */
export const PersonalityQuestionBody = z
  .object({
    title: storableText({ error: 'title must be text' }).meta({
      description: `Required (not blank), at most ${QUESTION_TITLE_MAX} characters`,
    }),
    description: storableText({ error: 'description must be text' })
      .max(QUESTION_DESCRIPTION_MAX, `description: at most ${QUESTION_DESCRIPTION_MAX} characters`)
      .default(''),
    is_multi_select: z.boolean({ error: 'is_multi_select must be true or false' }).default(false),
    options: z
      .array(PersonalityQuestionOptionInput, { error: 'options must be a list of options' })
      .meta({ description: `1 to ${QUESTION_MAX_OPTIONS} options` }),
  })
  .strict()
  .superRefine((question, ctx) => {
    const title = question.title.trim();
    if (title === '') {
      ctx.addIssue({ code: 'custom', path: ['title'], message: 'title: a question needs a title' });
    } else if (title.length > QUESTION_TITLE_MAX) {
      ctx.addIssue({
        code: 'custom',
        path: ['title'],
        message: `Question "${title.slice(0, 40)}…": a title is at most ${QUESTION_TITLE_MAX} characters`,
      });
    }
    const name = (index: number, label?: string) => questionOptionName(title || 'untitled', index, label);
    if (question.options.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['options'],
        message: `Question "${title}": a question needs at least one option`,
      });
    }
    if (question.options.length > QUESTION_MAX_OPTIONS) {
      ctx.addIssue({
        code: 'custom',
        path: ['options'],
        message: `Question "${title}": at most ${QUESTION_MAX_OPTIONS} options (Discord's limit); this one has ${question.options.length}`,
      });
    }
    const labels = new Map<string, number>();
    const roles = new Map<string, number>();
    const emojis = new Map<string, number>();
    const ids = new Set<number>();
    question.options.forEach((option, index) => {
      const label = option.label.trim();
      if (label === '') {
        ctx.addIssue({
          code: 'custom',
          path: ['options', index, 'label'],
          message: `${name(index)}: a label is required`,
        });
      } else if (label.length > QUESTION_OPTION_LABEL_MAX) {
        ctx.addIssue({
          code: 'custom',
          path: ['options', index, 'label'],
          message: `${name(index, label)}: a label is at most ${QUESTION_OPTION_LABEL_MAX} characters (Discord's limit)`,
        });
      }
      const sameLabel = labels.get(label.toLowerCase());
      if (label !== '' && sameLabel !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['options', index, 'label'],
          message: `${name(index, label)}: option ${sameLabel + 1} has the same label`,
        });
      } else labels.set(label.toLowerCase(), index);
      const roleId = option.role_id ?? null;
      const sameRole = roleId === null ? undefined : roles.get(roleId);
      if (roleId !== null && sameRole !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['options', index, 'role_id'],
          message: `${name(index, label)}: option ${sameRole + 1} already gives this role`,
        });
      } else if (roleId !== null) roles.set(roleId, index);
      if (option.option_id !== undefined) {
        if (ids.has(option.option_id)) {
          ctx.addIssue({
            code: 'custom',
            path: ['options', index, 'option_id'],
            message: `${name(index, label)}: option_id ${option.option_id} is listed twice`,
          });
        }
        ids.add(option.option_id);
      }
      const channels = option.channel_ids ?? [];
      if (new Set(channels).size !== channels.length) {
        ctx.addIssue({
          code: 'custom',
          path: ['options', index, 'channel_ids'],
          message: `${name(index, label)}: a channel is listed twice`,
        });
      }
      const emojiText = option.emoji?.trim() ?? '';
      if (emojiText === '') return;
      const emoji = parseMenuEmoji(emojiText);
      if (!emoji) {
        ctx.addIssue({
          code: 'custom',
          path: ['options', index, 'emoji'],
          message: `${name(index, label)}: emoji must be one emoji, or a custom emoji of this server as <:name:id>`,
        });
        return;
      }
      const key = menuEmojiKey(emoji);
      const first = emojis.get(key);
      if (first === undefined) emojis.set(key, index);
    });
  })
  .meta({ id: 'PersonalityQuestionBody' });
export type PersonalityQuestionBody = z.input<typeof PersonalityQuestionBody>;
export type PersonalityQuestionInput = z.output<typeof PersonalityQuestionBody>;

export const QuestionIdParams = GuildParams.extend({ questionId: SerialIdParam });

/** DELETE …/questions/{questionId}: the roles the bot created for it go too only when asked. */
export const DeleteQuestionQuery = z.object({
  delete_roles: z
    .enum(['true', 'false'], { error: 'delete_roles must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
});

export const QuestionOrderBody = z
  .object({
    question_ids: z
      .array(SerialId, { error: 'question_ids must be a list of question ids' })
      .min(1, 'question_ids: list every question of the server, in the order to show them')
      .max(QUESTIONS_MAX)
      .refine((ids) => new Set(ids).size === ids.length, 'question_ids: each question at most once'),
  })
  .strict()
  .meta({ id: 'QuestionOrderBody' });
export type QuestionOrderBody = z.infer<typeof QuestionOrderBody>;

/** An option as stored and shown. */
export const PersonalityQuestionOption = z.object({
  option_id: z.number().int(),
  label: z.string(),
  emoji: z.string().nullable(),
  role_id: Snowflake.nullable(),
  /** True when the bot created the role (Reset and "delete its roles" delete only those). */
  role_created: z.boolean(),
  channel_ids: z.array(Snowflake),
});
export type PersonalityQuestionOption = z.infer<typeof PersonalityQuestionOption>;

/** Import of the server's Onboarding prompts: what became questions, what was left as it is. */
export const ImportOnboardingResult = z
  .object({
    /** The ids of the questions made (or found already made) from prompts, in prompt order. */
    question_ids: z.array(z.number().int()),
    skipped: z.array(z.object({ title: z.string(), reason: z.string() })),
  })
  .meta({ id: 'ImportOnboardingResult' });
export type ImportOnboardingResult = z.infer<typeof ImportOnboardingResult>;

export const INSIGHTS_MAX_DAYS = 90;
export const InsightsQuery = z.object({ days: queryInt('days', 1, INSIGHTS_MAX_DAYS, 30) });

export const PersonalityInsights = z
  .object({
    days: z.number().int(),
    questions: z.array(
      z.object({
        question_id: z.number().int(),
        title: z.string(),
        /** Members holding at least one of its answers now. */
        answered: z.number().int().nonnegative(),
        options: z.array(
          z.object({
            option_id: z.number().int(),
            label: z.string(),
            role_id: Snowflake.nullable(),
            /** Members holding the answer now. */
            holders: z.number().int().nonnegative(),
            /** Picks and drops in the period (a panel click, an Onboarding answer, the role given or taken). */
            picked: z.number().int().nonnegative(),
            unpicked: z.number().int().nonnegative(),
            /** XP the holders earned in the period, per holder (leveling's daily rows); 0 with none. */
            xp_per_member: z.number().nonnegative(),
            /**
             * Of the members who joined in the period and answered this, the share (0 to 1) still
             * in the server 7 days after joining; null when none of them has been 7 days yet.
             */
            still_here_after_7_days: z.number().min(0).max(1).nullable(),
          }),
        ),
      }),
    ),
  })
  .meta({ id: 'PersonalityInsights' });
export type PersonalityInsights = z.infer<typeof PersonalityInsights>;
