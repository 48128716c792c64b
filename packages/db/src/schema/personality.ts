import {
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';

/**
 * A row exists once an admin picked an assignment channel; `configured` flips on init and back
 * on reset. `messages_posted` turns on with the first Post / Update Messages: from then on the
 * refresh keeps one message per enabled question in the channel. `onboarding_enabled` is "Also
 * ask in Discord Onboarding": the enabled questions are also prompts of the server's Onboarding.
 * Every change to the row, the guild's questions or their options is announced on the
 * Postgres channel `PERSONALITY_SETUP_CHANNEL` (triggers, migration 0004), so a process that
 * keeps a copy of a guild's setup hears when it went stale.
 */
export const personalityConfigs = pgTable('personality_configs', {
  guildId: text('guild_id').primaryKey(),
  assignChannelId: text('assign_channel_id'),
  configured: boolean('configured').notNull().default(false),
  messagesPosted: boolean('messages_posted').notNull().default(false),
  onboardingEnabled: boolean('onboarding_enabled').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A question of the guild: added from one of the catalog's categories (a template; `question_type`
 * is the category) or written by an admin (`question_type` is `q<id>`, contract's
 * `ownQuestionKey`), edited alike. `question_type` is the question's key: its panel's custom ids
 * and its members' pick scope (`personality:<key>`) use it. `message_id` is the posted question message and
 * `message_channel_id` the channel it is in (the assignment channel may have changed since).
 * `onboarding_prompt_id` is the Discord Onboarding prompt the bot made for the question (ours to
 * edit or remove; every other prompt of the server is the admin's).
 */
export const personalityQuestions = pgTable(
  'personality_questions',
  {
    id: serial('id').primaryKey(),
    guildId: text('guild_id').notNull(),
    questionType: text('question_type').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    isMultiSelect: boolean('is_multi_select').notNull().default(false),
    isEnabled: boolean('is_enabled').notNull().default(true),
    position: integer('position').notNull().default(0),
    messageId: text('message_id'),
    messageChannelId: text('message_channel_id'),
    /** A digest of the message as last posted, edited or read back: what Discord shows now. */
    messageDigest: text('message_digest'),
    onboardingPromptId: text('onboarding_prompt_id'),
  },
  (t) => [
    unique('personality_questions_guild_type_uq').on(t.guildId, t.questionType),
    index('personality_questions_guild_idx').on(t.guildId),
  ],
);

/**
 * Answer options. `role_id` is the role the option gives: one the bot created (Generate Roles;
 * `role_chosen` false) or an existing role an admin chose (`role_chosen` true: never deleted or
 * renamed by the bot). `channel_ids` are channels answering opens: the role gets a View Channel
 * overwrite on each in the bot's panels, and the Onboarding option lists them.
 */
export const personalityOptions = pgTable(
  'personality_options',
  {
    id: serial('id').primaryKey(),
    questionId: integer('question_id')
      .notNull()
      .references(() => personalityQuestions.id, { onDelete: 'cascade' }),
    guildId: text('guild_id').notNull(),
    label: text('label').notNull(),
    emoji: text('emoji'),
    position: integer('position').notNull().default(0),
    roleId: text('role_id'),
    roleChosen: boolean('role_chosen').notNull().default(false),
    channelIds: text('channel_ids').array().notNull().default([]),
  },
  (t) => [
    index('personality_options_guild_idx').on(t.guildId),
    index('personality_options_question_idx').on(t.questionId),
  ],
);

/**
 * Every answer a member gave or dropped, for insights: a panel click, an Onboarding answer, or the
 * option's role given or taken by anyone (`source`), recorded once per change (a click and the
 * GUILD_MEMBER_UPDATE it causes are one change). `joined_at` is when the member joined (null when
 * not known); `left_at` is set on the member's rows when they leave. Member data (export, erase);
 * rows older than the data retention are pruned.
 */
export const personalityAnswerEvents = pgTable(
  'personality_answer_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    guildId: text('guild_id').notNull(),
    userId: text('user_id').notNull(),
    questionId: integer('question_id')
      .notNull()
      .references(() => personalityQuestions.id, { onDelete: 'cascade' }),
    optionId: integer('option_id')
      .notNull()
      .references(() => personalityOptions.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['picked', 'dropped'] }).notNull(),
    source: text('source', { enum: ['panel', 'onboarding', 'role'] }).notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }),
    leftAt: timestamp('left_at', { withTimezone: true }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('personality_answer_events_question_idx').on(t.guildId, t.questionId, t.at),
    index('personality_answer_events_member_idx').on(t.guildId, t.userId),
  ],
);

/**
 * Discord roles, messages, Onboarding prompts (`onboarding`: the prompt id) and channel
 * overwrites (`overwrite`: `target_id` is `<channel id>:<role id>`, the channel also in `channel_id`)
 * a reset, a question's removal or an option's edit took out
 * of the questions, still to be deleted in Discord by the reset job. The API's reset moves them here in the same transaction that removes the
 * questions, so the screen is back to "not configured" at once and a new Initialize never
 * mixes with what the old setup left; the job deletes each one, then its row.
 */
export const personalityCleanup = pgTable(
  'personality_cleanup',
  {
    id: serial('id').primaryKey(),
    guildId: text('guild_id').notNull(),
    kind: text('kind', { enum: ['role', 'message', 'onboarding', 'overwrite'] }).notNull(),
    targetId: text('target_id').notNull(),
    channelId: text('channel_id'),
    name: text('name').notNull().default(''),
  },
  (t) => [unique('personality_cleanup_target_uq').on(t.guildId, t.kind, t.targetId)],
);

export type PersonalityConfigRow = typeof personalityConfigs.$inferSelect;
export type PersonalityQuestionRow = typeof personalityQuestions.$inferSelect;
export type PersonalityOptionRow = typeof personalityOptions.$inferSelect;
export type PersonalityCleanupRow = typeof personalityCleanup.$inferSelect;
export type PersonalityAnswerEventRow = typeof personalityAnswerEvents.$inferSelect;
