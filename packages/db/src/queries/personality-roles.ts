import { PERSONALITY_CATALOG } from '@spacecadet/core';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db, DbTransaction } from '../client.ts';
import { type GuildChangeHandlers, type GuildChangeWatch, watchGuildChanges } from '../guild-change-watch.ts';
import { personalityConfigs, personalityOptions, personalityQuestions } from '../schema/personality.ts';

export {
  deletePersonalityCleanup,
  loadPersonalityCleanup,
  queuePersonalityCleanup,
  retirePersonalityQuestionRoles,
  retirePersonalitySetup,
} from './personality-cleanup.ts';

import { inShards, type ShardFilter } from './shard-filter.ts';

/**
 * Personality roles reads and writes both the API and the worker make. Seeding, like color
 * roles' default palette, happens here from the core catalog and nowhere else.
 */

/**
 * Seeds the catalog's questions and options once; existing questions are kept as they are.
 * `enabled`: the categories that start enabled (Initialize's choice); the others are seeded
 * disabled, so they get no role until an admin enables them. Absent: all.
 */
export async function seedPersonalityCatalog(
  tx: DbTransaction,
  guildId: string,
  enabled?: ReadonlySet<string>,
): Promise<void> {
  for (const [position, question] of PERSONALITY_CATALOG.entries()) {
    const [row] = await tx
      .insert(personalityQuestions)
      .values({
        guildId,
        questionType: question.questionType,
        title: question.title,
        description: question.description,
        isMultiSelect: question.isMultiSelect,
        isEnabled: enabled?.has(question.questionType) ?? true,
        position,
      })
      .onConflictDoNothing()
      .returning({ id: personalityQuestions.id });
    if (!row) continue;
    await tx.insert(personalityOptions).values(
      question.options.map((option, index) => ({
        questionId: row.id,
        guildId,
        label: option.label,
        emoji: option.emoji,
        position: index,
      })),
    );
  }
}

export interface StoredPersonalityOption {
  id: number;
  label: string;
  emoji: string | null;
  roleId: string | null;
  /** An existing role an admin chose: never deleted or renamed by the bot. */
  roleChosen: boolean;
  /** Channels answering opens (the role's View Channel overwrite; the Onboarding option's channel_ids). */
  channelIds: string[];
}

export interface StoredPersonalityQuestion {
  id: number;
  questionType: string;
  title: string;
  description: string;
  isMultiSelect: boolean;
  isEnabled: boolean;
  messageId: string | null;
  messageChannelId: string | null;
  /** Digest of the posted message as Discord shows it (see the worker's `messageDigest`). */
  messageDigest: string | null;
  /** The Discord Onboarding prompt made for this question, if any. */
  onboardingPromptId: string | null;
  /** In panel order (custom ids name options by id; messages posted before by this index). */
  options: StoredPersonalityOption[];
}

export interface StoredPersonalityConfig {
  configured: boolean;
  assignChannelId: string | null;
  messagesPosted: boolean;
  /** "Also ask in Discord Onboarding". */
  onboardingEnabled: boolean;
}

const questionColumns = {
  id: personalityQuestions.id,
  questionType: personalityQuestions.questionType,
  title: personalityQuestions.title,
  description: personalityQuestions.description,
  isMultiSelect: personalityQuestions.isMultiSelect,
  isEnabled: personalityQuestions.isEnabled,
  messageId: personalityQuestions.messageId,
  messageChannelId: personalityQuestions.messageChannelId,
  messageDigest: personalityQuestions.messageDigest,
  onboardingPromptId: personalityQuestions.onboardingPromptId,
};
const optionColumns = {
  questionId: personalityOptions.questionId,
  id: personalityOptions.id,
  label: personalityOptions.label,
  emoji: personalityOptions.emoji,
  roleId: personalityOptions.roleId,
  roleChosen: personalityOptions.roleChosen,
  channelIds: personalityOptions.channelIds,
};

function withOptions(
  questions: ReadonlyArray<Omit<StoredPersonalityQuestion, 'options'>>,
  options: ReadonlyArray<StoredPersonalityOption & { questionId: number }>,
): StoredPersonalityQuestion[] {
  const byQuestion = new Map<number, StoredPersonalityOption[]>();
  for (const { questionId, ...option } of options) {
    const list = byQuestion.get(questionId) ?? [];
    list.push(option);
    byQuestion.set(questionId, list);
  }
  return questions.map((question) => ({ ...question, options: byQuestion.get(question.id) ?? [] }));
}

/**
 * The refresh reads a guild's setup every 5 minutes per configured guild, so its reads are
 * prepared statements: built once per database client instead of on every call (building
 * a query cost the worker more CPU than running it).
 */
const guildParam = sql.placeholder('guildId');
function prepareReads(db: Db) {
  return {
    config: db
      .select()
      .from(personalityConfigs)
      .where(eq(personalityConfigs.guildId, guildParam))
      .limit(1)
      .prepare('personality_config'),
    questions: db
      .select(questionColumns)
      .from(personalityQuestions)
      .where(eq(personalityQuestions.guildId, guildParam))
      .orderBy(asc(personalityQuestions.position), asc(personalityQuestions.id))
      .prepare('personality_questions'),
    options: db
      .select(optionColumns)
      .from(personalityOptions)
      .where(eq(personalityOptions.guildId, guildParam))
      .orderBy(asc(personalityOptions.position), asc(personalityOptions.id))
      .prepare('personality_options'),
  };
}
const preparedReads = new WeakMap<Db, ReturnType<typeof prepareReads>>();
function reads(db: Db): ReturnType<typeof prepareReads> {
  let prepared = preparedReads.get(db);
  if (!prepared) {
    prepared = prepareReads(db);
    preparedReads.set(db, prepared);
  }
  return prepared;
}

export async function loadPersonalityConfig(db: Db, guildId: string): Promise<StoredPersonalityConfig> {
  const [row] = await reads(db).config.execute({ guildId });
  return {
    configured: row?.configured ?? false,
    assignChannelId: row?.assignChannelId ?? null,
    messagesPosted: row?.messagesPosted ?? false,
    onboardingEnabled: row?.onboardingEnabled ?? false,
  };
}

/** The guild's questions in stored order, each with its options in panel order. */
export async function loadPersonalityQuestions(
  db: Db,
  guildId: string,
): Promise<StoredPersonalityQuestion[]> {
  const prepared = reads(db);
  const [questions, options] = await Promise.all([
    prepared.questions.execute({ guildId }),
    prepared.options.execute({ guildId }),
  ]);
  return withOptions(questions, options);
}

/** One question with its options (a member's click), in one round trip; undefined if none. */
export async function loadPersonalityQuestion(
  db: Db,
  guildId: string,
  questionType: string,
): Promise<StoredPersonalityQuestion | undefined> {
  const rows = await db
    .select({ question: questionColumns, option: optionColumns })
    .from(personalityQuestions)
    .leftJoin(personalityOptions, eq(personalityOptions.questionId, personalityQuestions.id))
    .where(
      and(eq(personalityQuestions.guildId, guildId), eq(personalityQuestions.questionType, questionType)),
    )
    .orderBy(asc(personalityOptions.position), asc(personalityOptions.id));
  const [first] = rows;
  if (!first) return undefined;
  return withOptions(
    [first.question],
    rows.flatMap((row) => (row.option ? [row.option] : [])),
  )[0];
}

/**
 * Records the Discord role the bot made for an option (so not a chosen one: a chosen role
 * deleted in Discord is replaced by the bot's own); false when the option is gone (reset meanwhile).
 */
export async function setPersonalityOptionRoleId(
  db: Db,
  optionId: number,
  roleId: string | null,
): Promise<boolean> {
  const rows = await db
    .update(personalityOptions)
    .set({ roleId, roleChosen: false })
    .where(eq(personalityOptions.id, optionId))
    .returning({ id: personalityOptions.id });
  return rows.length > 0;
}

/**
 * Records a question's posted message (or none) and the digest of what it shows (null when not
 * known); false when the question is gone.
 */
export async function savePersonalityMessage(
  db: Db,
  questionId: number,
  message: { id: string; channelId: string; digest: string | null } | null,
): Promise<boolean> {
  const rows = await db
    .update(personalityQuestions)
    .set({
      messageId: message?.id ?? null,
      messageChannelId: message?.channelId ?? null,
      messageDigest: message?.digest ?? null,
    })
    .where(eq(personalityQuestions.id, questionId))
    .returning({ id: personalityQuestions.id });
  return rows.length > 0;
}

/** Stores "Also ask in Discord Onboarding"; false when the guild is not set up (nothing stored). */
export async function setPersonalityOnboarding(db: Db, guildId: string, enabled: boolean): Promise<boolean> {
  const rows = await db
    .update(personalityConfigs)
    .set({ onboardingEnabled: enabled, updatedAt: new Date() })
    .where(and(eq(personalityConfigs.guildId, guildId), eq(personalityConfigs.configured, true)))
    .returning({ guildId: personalityConfigs.guildId });
  return rows.length > 0;
}

/** Records a question's Onboarding prompt (or none); false when the question is gone. */
export async function savePersonalityOnboardingPrompt(
  db: Db,
  questionId: number,
  promptId: string | null,
): Promise<boolean> {
  const rows = await db
    .update(personalityQuestions)
    .set({ onboardingPromptId: promptId })
    .where(eq(personalityQuestions.id, questionId))
    .returning({ id: personalityQuestions.id });
  return rows.length > 0;
}

/** From the first Post on, the refresh keeps the question messages in place. */
export async function markPersonalityMessagesPosted(db: Db, guildId: string): Promise<void> {
  await db
    .update(personalityConfigs)
    .set({ messagesPosted: true })
    .where(and(eq(personalityConfigs.guildId, guildId), eq(personalityConfigs.configured, true)));
}

/** Guilds whose personality roles are set up: each has a refresh scheduler. */
export async function configuredPersonalityGuilds(db: Db, shards?: ShardFilter): Promise<string[]> {
  const rows = await db
    .select({ guildId: personalityConfigs.guildId })
    .from(personalityConfigs)
    .where(and(eq(personalityConfigs.configured, true), inShards(personalityConfigs.guildId, shards)));
  return rows.map((row) => row.guildId);
}

/** The Postgres channel migration 0004's triggers announce a guild's setup changes on. */
export const PERSONALITY_SETUP_CHANNEL = 'personality_setup_changed';

/** Changes of any guild's personality setup (see `watchGuildChanges`). */
export function watchPersonalitySetups(databaseUrl: string, handlers: GuildChangeHandlers): GuildChangeWatch {
  return watchGuildChanges(databaseUrl, PERSONALITY_SETUP_CHANNEL, handlers);
}
