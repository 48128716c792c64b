import {
  MESSAGES,
  PersonalityLastRefresh,
  type PersonalityQuestion,
  PersonalityQuestionType,
  type PersonalityRolesState,
  personalityLastRefreshKey,
  personalityLastRepairKey,
  routes,
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
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { ApiError, notFound } from '../errors.ts';
import { channelLabel } from '../history/route-checks.ts';
import type { AppServices } from '../services/container.ts';
import {
  enqueueGuildJob,
  followUpGuildJob,
  type GuildJobQueue,
  type JobRequester,
} from '../services/jobs.ts';
import { defineRoute } from './define.ts';

/** Generate and post on a guild whose catalog was never seeded (or was reset) have nothing to act on. */
export const INITIALIZE_FIRST_MESSAGE = 'Initialize personality roles first.';
const NO_SUCH_QUESTION = 'No such question for this server';
/** Deleting an enabled question's roles would take them from the members who picked them. */
export const DISABLE_FIRST_MESSAGE = "Disable the question first: its roles are in use while it's enabled.";

function toQuestion(question: StoredPersonalityQuestion): PersonalityQuestion {
  return {
    question_type: question.questionType,
    title: question.title,
    description: question.description,
    role_count: question.options.length,
    is_multi_select: question.isMultiSelect,
    is_enabled: question.isEnabled,
    created_roles: question.options.filter((option) => option.roleId !== null).length,
    message_posted: question.messageId !== null,
    in_onboarding: question.onboardingPromptId !== null,
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
async function readState(db: Db, redis: Redis, guildId: string): Promise<PersonalityRolesState> {
  const [config, questions, lastRefresh] = await Promise.all([
    loadPersonalityConfig(db, guildId),
    loadPersonalityQuestions(db, guildId),
    readLastRefresh(redis, guildId),
  ]);
  return {
    configured: config.configured,
    assign_channel_id: config.assignChannelId,
    // Types the dashboard does not know are hidden: it has no page for them.
    questions: questions
      .filter((q) => PersonalityQuestionType.safeParse(q.questionType).success)
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
async function requireSetup(db: Db, guildId: string): Promise<void> {
  const config = await loadPersonalityConfig(db, guildId);
  if (!config.assignChannelId) throw new ApiError('invalid_input', MESSAGES.selectChannelFirst);
  if (!config.configured) throw new ApiError('invalid_input', INITIALIZE_FIRST_MESSAGE);
}

/** After a stored change (init, channel, toggle) the refresh brings Discord in line. */
function queueRefresh(queue: GuildJobQueue, log: FastifyBaseLogger, guildId: string, by: JobRequester) {
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
async function questionTitle(db: Db, guildId: string, questionType: string): Promise<string> {
  return (await loadPersonalityQuestion(db, guildId, questionType))?.title ?? questionType;
}

/** Personality roles: the question catalog per guild, its channel, toggles and jobs. */
export function registerPersonalityRoutes(app: FastifyInstance): void {
  const { db, queue, redis } = app.services;

  defineRoute(app, routes.getPersonalityRoles, async ({ params }) => readState(db, redis, params.guildId));

  defineRoute(app, routes.initPersonalityRoles, async ({ params, body, requester, request, history }) => {
    await db.transaction(async (tx) => {
      await setChannel(tx, params.guildId, body.channel_id, true);
      await seedPersonalityCatalog(tx, params.guildId, body.categories && new Set(body.categories));
    });
    await queueRefresh(queue, request.log, params.guildId, requester);
    const label = await channelLabel(app.services.guildResources, params.guildId, body.channel_id);
    const categories = body.categories ? ` (${body.categories.join(', ')})` : '';
    history.describe({
      subject: 'personality_roles',
      summary: `Set up personality roles in ${label}${categories}`,
    });
    return readState(db, redis, params.guildId);
  });

  defineRoute(app, routes.setPersonalityChannel, async ({ params, body, requester, request, history }) => {
    const before = await readPersonalityChannelState(db, params.guildId);
    await writePersonalityChannel(app.services, params.guildId, body.channel_id, requester, request.log);
    const label = await channelLabel(app.services.guildResources, params.guildId, body.channel_id);
    history.state(
      'personality_roles:channel',
      before,
      { channel_id: body.channel_id },
      `Set the personality roles channel to ${label}`,
    );
    return { channel_id: body.channel_id };
  });

  defineRoute(
    app,
    routes.togglePersonalityQuestion,
    async ({ params, body, requester, request, history }) => {
      const updated = await db
        .update(personalityQuestions)
        .set({ isEnabled: body.enabled })
        .where(
          and(
            eq(personalityQuestions.guildId, params.guildId),
            eq(personalityQuestions.questionType, params.question_type),
          ),
        )
        .returning({ id: personalityQuestions.id });
      if (updated.length === 0) throw notFound(NO_SUCH_QUESTION);
      // A reset between the two statements removes the question: the same 404.
      const question = await loadPersonalityQuestion(db, params.guildId, params.question_type);
      if (!question) throw notFound(NO_SUCH_QUESTION);
      await queueRefresh(queue, request.log, params.guildId, requester);
      history.describe({
        subject: `personality_roles:question:${params.question_type}`,
        summary: `Turned the question "${question.title}" ${body.enabled ? 'on' : 'off'}`,
      });
      return toQuestion(question);
    },
  );

  // Disabling a question removes its message (the refresh the toggle queued); its roles stay
  // until the admin also asks for this. Their ids leave the options first (GET answers 0 at
  // once, a new Generate makes new ones), then the job deletes them in Discord.
  defineRoute(app, routes.deletePersonalityQuestionRoles, async ({ params, requester, history }) => {
    const title = await questionTitle(db, params.guildId, params.question_type);
    const retired = await retirePersonalityQuestionRoles(db, params.guildId, params.question_type);
    if (retired.outcome === 'missing') throw notFound(NO_SUCH_QUESTION);
    if (retired.outcome === 'enabled') throw new ApiError('invalid_input', DISABLE_FIRST_MESSAGE);
    history.describe({
      subject: `personality_roles:question:${params.question_type}`,
      summary: `Deleted the roles of the question "${title}"`,
    });
    return {
      job_id: await enqueueGuildJob(queue, 'personality-roles.delete-roles', params.guildId, requester, {
        afterChange: true,
      }),
    };
  });

  defineRoute(app, routes.generatePersonalityRoles, async ({ params, requester, history }) => {
    await requireSetup(db, params.guildId);
    const enabled = (await loadPersonalityQuestions(db, params.guildId)).filter((q) => q.isEnabled);
    history.describe({
      subject: 'personality_roles:roles',
      summary: `Generated the roles of ${enabled.length} question${enabled.length === 1 ? '' : 's'}`,
    });
    return {
      job_id: await enqueueGuildJob(queue, 'personality-roles.generate', params.guildId, requester),
    };
  });

  defineRoute(app, routes.postPersonalityMessages, async ({ params, requester, history }) => {
    await requireSetup(db, params.guildId);
    const config = await loadPersonalityConfig(db, params.guildId);
    const label = await channelLabel(app.services.guildResources, params.guildId, config.assignChannelId);
    history.describe({
      subject: 'personality_roles:messages',
      summary: `Posted the personality questions in ${label}`,
    });
    return {
      job_id: await enqueueGuildJob(queue, 'personality-roles.post', params.guildId, requester),
    };
  });

  // The stored half first: GET answers "not configured" at once and a new Initialize starts
  // clean; the job then deletes in Discord what the old setup made (queued in the cleanup table).
  // What it removes goes into this request's history entry first (the setup here, who holds
  // each role from the job), for its undo.
  defineRoute(app, routes.resetPersonalityRoles, async ({ params, requester, history }) => {
    const setup = await snapshotPersonalitySetup(db, params.guildId);
    await retirePersonalitySetup(db, params.guildId);
    history.snapshotByJob('personality_roles');
    await attachSnapshot(db, params.guildId, history.entryId, { ...setup }, { ready: false });
    return {
      job_id: await enqueueGuildJob(queue, 'personality-roles.reset', params.guildId, requester),
    };
  });

  // The switch is stored first (GET answers it at once); the job makes Discord Onboarding match
  // it, and the refresh keeps it matching.
  defineRoute(app, routes.setPersonalityOnboarding, async ({ params, body, requester, history }) => {
    const before = await readPersonalityOnboardingState(db, params.guildId);
    const jobId = await writePersonalityOnboarding(app.services, params.guildId, body.enabled, requester);
    history.state(
      'personality_roles:onboarding',
      before,
      { enabled: body.enabled },
      body.enabled
        ? 'Turned on asking the questions in Discord Onboarding'
        : 'Turned off asking the questions in Discord Onboarding',
    );
    return { job_id: jobId };
  });

  defineRoute(app, routes.refreshPersonalityRoles, async ({ params, requester, history }) => {
    history.describe({
      subject: 'personality_roles:refresh',
      summary: 'Refreshed personality roles (messages, roles and Onboarding brought in line)',
    });
    await enqueueGuildJob(queue, 'personality-roles.refresh', params.guildId, requester, {
      afterChange: true,
    });
  });
}
