import {
  MESSAGES,
  OWN_QUESTION_KEY,
  PersonalityLastRefresh,
  type PersonalityQuestion,
  PersonalityQuestionType,
  type PersonalityRolesState,
  personalityLastRefreshKey,
  personalityLastRepairKey,
} from '@spacecadet/contract';
import { type Db, type DbTransaction, personalityConfigs, personalityQuestions } from '@spacecadet/db';
import { attachSnapshot } from '@spacecadet/db/queries/history';
import {
  loadPersonalityConfig,
  loadPersonalityQuestion,
  loadPersonalityQuestions,
  retirePersonalityQuestionRoles,
  retirePersonalitySetup,
  type StoredPersonalityQuestion,
  seedPersonalityCatalog,
  setPersonalityOnboarding,
} from '@spacecadet/db/queries/personality-roles';
import { snapshotPersonalitySetup } from '@spacecadet/db/queries/personality-snapshots';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { ApiError, notFound } from '../errors.ts';
import type { AppServices } from './container.ts';
import { enqueueGuildJob, followUpGuildJob, type GuildJobQueues, type JobRequester } from './jobs.ts';

/**
 * Personality roles' reads and writes, shared by their routes and their undo (history's
 * `restore-personality-settings.ts`): the screen's state, setup, the assignment channel, the
 * questions' switches and roles, the Onboarding switch and the stored half of a reset, with the
 * messages they refuse with.
 */

/** Generate and post on a guild whose catalog was never seeded (or was reset) have nothing to act on. */
export const INITIALIZE_FIRST_MESSAGE = 'Initialize personality roles first.';
const NO_SUCH_QUESTION = 'No such question for this server';
/** Deleting an enabled question's roles would take them from the members who picked them. */
export const DISABLE_FIRST_MESSAGE = "Disable the question first: its roles are in use while it's enabled.";

/** A stored question as the screen shows it. */
export function toQuestion(question: StoredPersonalityQuestion): PersonalityQuestion {
  return {
    question_id: question.id,
    question_type: question.questionType,
    title: question.title,
    description: question.description,
    role_count: question.options.length,
    is_multi_select: question.isMultiSelect,
    is_enabled: question.isEnabled,
    created_roles: question.options.filter((option) => option.roleId !== null && !option.roleChosen).length,
    message_posted: question.messageId !== null,
    in_onboarding: question.onboardingPromptId !== null,
    options: question.options.map((option) => ({
      option_id: option.id,
      label: option.label,
      emoji: option.emoji,
      role_id: option.roleId,
      role_created: option.roleId !== null && !option.roleChosen,
      channel_ids: option.channelIds,
    })),
  };
}

/**
 * What the worker's latest refresh did, from Redis (`personalityLastRefreshKey`). Status, not
 * configuration: while Redis is down, or for a record that does not parse, the page says no
 * refresh ran rather than failing.
 */
async function readLastRefresh(
  redis: Redis,
  guildId: string,
): Promise<{ run: PersonalityLastRefresh | null; repair: PersonalityLastRefresh | null }> {
  try {
    const stored = await redis.mget(personalityLastRefreshKey(guildId), personalityLastRepairKey(guildId));
    const [run, repair] = stored.map((json) => {
      if (json === null) return null;
      try {
        const parsed = PersonalityLastRefresh.safeParse(JSON.parse(json));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    });
    return { run: run ?? null, repair: repair ?? null };
  } catch {
    return { run: null, repair: null };
  }
}

/** The screen's state, from the same loaders the worker reads the setup with. */
export async function readPersonalityRolesState(
  db: Db,
  redis: Redis,
  guildId: string,
): Promise<PersonalityRolesState> {
  const [config, questions, lastRefresh] = await Promise.all([
    loadPersonalityConfig(db, guildId),
    loadPersonalityQuestions(db, guildId),
    readLastRefresh(redis, guildId),
  ]);
  return {
    configured: config.configured,
    assign_channel_id: config.assignChannelId,
    // Built-in and own questions in one list; keys that are neither are hidden (no page for them).
    questions: questions
      .filter(
        (q) =>
          PersonalityQuestionType.safeParse(q.questionType).success || OWN_QUESTION_KEY.test(q.questionType),
      )
      .map(toQuestion),
    last_refresh: config.configured ? lastRefresh.run : null,
    // Sent only when a run repaired something (older dashboards know only last_refresh).
    ...(config.configured && lastRefresh.repair ? { last_repair: lastRefresh.repair } : {}),
    onboarding: config.onboardingEnabled,
  };
}

/** Stores the assignment channel (and `configured` on init); answers whether the guild is set up. */
async function setChannel(
  db: Db | DbTransaction,
  guildId: string,
  channelId: string | null,
  configured?: true,
): Promise<boolean> {
  const values = { assignChannelId: channelId, updatedAt: new Date(), ...(configured ? { configured } : {}) };
  const [row] = await db
    .insert(personalityConfigs)
    .values({ guildId, ...values })
    .onConflictDoUpdate({ target: personalityConfigs.guildId, set: values })
    .returning({ configured: personalityConfigs.configured });
  return row?.configured ?? false;
}

/** Generate and post need an assignment channel and a seeded catalog. */
export async function requireSetup(db: Db, guildId: string): Promise<void> {
  const config = await loadPersonalityConfig(db, guildId);
  if (!config.assignChannelId) throw new ApiError('invalid_input', MESSAGES.selectChannelFirst);
  if (!config.configured) throw new ApiError('invalid_input', INITIALIZE_FIRST_MESSAGE);
}

/** After a stored change (init, channel, toggle) the refresh brings Discord in line. */
export function queueRefresh(
  queue: GuildJobQueues,
  log: FastifyBaseLogger,
  guildId: string,
  by: JobRequester,
) {
  return followUpGuildJob(
    queue,
    log,
    'personality-roles.refresh',
    guildId,
    by,
    'the scheduled refresh follows within 5 minutes',
  );
}

type PersonalityServices = Pick<AppServices, 'db' | 'queue'>;

/** The assignment channel as the channel route's body gives it (null: none yet). */
export async function readPersonalityChannelState(
  db: Db,
  guildId: string,
): Promise<{ channel_id: string | null }> {
  return { channel_id: (await loadPersonalityConfig(db, guildId)).assignChannelId };
}

/** Stores the channel and, on a set-up guild, queues the refresh (the channel route and its undo). */
export async function writePersonalityChannel(
  services: PersonalityServices,
  guildId: string,
  channelId: string | null,
  requester: JobRequester,
  log: FastifyBaseLogger,
): Promise<void> {
  // Before Initialize the channel is only kept for it: there is nothing to refresh yet.
  if (await setChannel(services.db, guildId, channelId)) {
    await queueRefresh(services.queue, log, guildId, requester);
  }
}

/** "Also ask in Discord Onboarding", as the onboarding route's body gives it. */
export async function readPersonalityOnboardingState(db: Db, guildId: string): Promise<{ enabled: boolean }> {
  return { enabled: (await loadPersonalityConfig(db, guildId)).onboardingEnabled };
}

/**
 * Stores the switch (the guild set up: 400 otherwise) and queues the job that makes Discord
 * Onboarding match it (the onboarding route and its undo); answers the job's id.
 */
export async function writePersonalityOnboarding(
  services: PersonalityServices,
  guildId: string,
  enabled: boolean,
  requester: JobRequester,
): Promise<string> {
  await requireSetup(services.db, guildId);
  if (!(await setPersonalityOnboarding(services.db, guildId, enabled))) {
    throw new ApiError('invalid_input', INITIALIZE_FIRST_MESSAGE);
  }
  return enqueueGuildJob(services.queue, 'personality-roles.onboarding', guildId, requester, {
    afterChange: true,
  });
}

/** A question's title for a history summary (its type when it is gone). */
export async function questionTitle(db: Db, guildId: string, questionType: string): Promise<string> {
  return (await loadPersonalityQuestion(db, guildId, questionType))?.title ?? questionType;
}

/** Initialize: stores the channel, marks the guild set up and seeds the question catalog. */
export async function initPersonalityRoles(
  db: Db,
  guildId: string,
  channelId: string,
  categories: readonly string[] | undefined,
): Promise<void> {
  await db.transaction(async (tx) => {
    await setChannel(tx, guildId, channelId, true);
    await seedPersonalityCatalog(tx, guildId, categories && new Set(categories));
  });
}

/** Turns a question on or off; answers it as stored now (404: no such question). */
export async function setPersonalityQuestionEnabled(
  db: Db,
  guildId: string,
  questionType: string,
  enabled: boolean,
): Promise<StoredPersonalityQuestion> {
  const updated = await db
    .update(personalityQuestions)
    .set({ isEnabled: enabled })
    .where(
      and(eq(personalityQuestions.guildId, guildId), eq(personalityQuestions.questionType, questionType)),
    )
    .returning({ id: personalityQuestions.id });
  if (updated.length === 0) throw notFound(NO_SUCH_QUESTION);
  // A reset between the two statements removes the question: the same 404.
  const question = await loadPersonalityQuestion(db, guildId, questionType);
  if (!question) throw notFound(NO_SUCH_QUESTION);
  return question;
}

/**
 * Takes a disabled question's role ids out of its options (GET answers 0 at once, a new Generate
 * makes new ones); the job then deletes the roles in Discord. 404: no such question; 400: it is
 * enabled.
 */
export async function retireQuestionRoles(db: Db, guildId: string, questionType: string): Promise<void> {
  const retired = await retirePersonalityQuestionRoles(db, guildId, questionType);
  if (retired.outcome === 'missing') throw notFound(NO_SUCH_QUESTION);
  if (retired.outcome === 'enabled') throw new ApiError('invalid_input', DISABLE_FIRST_MESSAGE);
}

/**
 * The stored half of Reset Personality: the setup goes into the history entry `entryId` (who
 * holds each role comes from the job), then the setup is retired, so GET answers "not
 * configured" at once and a new Initialize starts clean.
 */
export async function retirePersonalitySetupInto(db: Db, guildId: string, entryId: number): Promise<void> {
  const setup = await snapshotPersonalitySetup(db, guildId);
  await retirePersonalitySetup(db, guildId);
  await attachSnapshot(db, guildId, entryId, { ...setup }, { ready: false });
}
