import { boolean, index, integer, pgTable, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';

/** A row exists once an admin picked an assignment channel; `configured` flips on init. */
export const personalityConfigs = pgTable('personality_configs', {
  guildId: text('guild_id').primaryKey(),
  assignChannelId: text('assign_channel_id'),
  configured: boolean('configured').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One per catalog category per guild; `message_id` is the posted question message. */
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
  },
  (t) => [
    unique('personality_questions_guild_type_uq').on(t.guildId, t.questionType),
    index('personality_questions_guild_idx').on(t.guildId),
  ],
);

/** Answer options; `role_id` is set once the bot created the option's role. */
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
  },
  (t) => [
    index('personality_options_guild_idx').on(t.guildId),
    index('personality_options_question_idx').on(t.questionId),
  ],
);

export type PersonalityConfigRow = typeof personalityConfigs.$inferSelect;
export type PersonalityQuestionRow = typeof personalityQuestions.$inferSelect;
export type PersonalityOptionRow = typeof personalityOptions.$inferSelect;
