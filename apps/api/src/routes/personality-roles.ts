import { routes } from '@spacecadet/contract';
import { loadPersonalityConfig, loadPersonalityQuestions } from '@spacecadet/db/queries/personality-roles';
import type { FastifyInstance } from 'fastify';
import { channelLabel } from '../history/route-checks.ts';
import { enqueueGuildJob } from '../services/jobs.ts';
import {
  initPersonalityRoles,
  questionTitle,
  queueRefresh,
  readPersonalityChannelState,
  readPersonalityOnboardingState,
  readPersonalityRolesState,
  requireSetup,
  retirePersonalitySetupInto,
  retireQuestionRoles,
  setPersonalityQuestionEnabled,
  toQuestion,
  writePersonalityChannel,
  writePersonalityOnboarding,
} from '../services/personality-roles.ts';
import { defineRoute } from './define.ts';

/** Personality roles: the question catalog per guild, its channel, toggles and jobs. */
export function registerPersonalityRoutes(app: FastifyInstance): void {
  setupRoutes(app);
  questionRoutes(app);
  setupJobRoutes(app);
  onboardingRoutes(app);
}

/** The screen's state, Initialize and the assignment channel. */
function setupRoutes(app: FastifyInstance): void {
  const { db, queue, redis } = app.services;

  defineRoute(app, routes.getPersonalityRoles, async ({ params }) =>
    readPersonalityRolesState(db, redis, params.guildId),
  );

  defineRoute(app, routes.initPersonalityRoles, async ({ params, body, requester, request, history }) => {
    await initPersonalityRoles(db, params.guildId, body.channel_id, body.categories);
    await queueRefresh(queue, request.log, params.guildId, requester);
    const label = await channelLabel(app.services.guildResources, params.guildId, body.channel_id);
    const categories = body.categories ? ` (${body.categories.join(', ')})` : '';
    history.describe({
      subject: 'personality_roles',
      summary: `Set up personality roles in ${label}${categories}`,
    });
    return readPersonalityRolesState(db, redis, params.guildId);
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
}

/** One question: its switch, and deleting its roles once it is off. */
function questionRoutes(app: FastifyInstance): void {
  const { db, queue } = app.services;

  defineRoute(
    app,
    routes.togglePersonalityQuestion,
    async ({ params, body, requester, request, history }) => {
      const question = await setPersonalityQuestionEnabled(
        db,
        params.guildId,
        params.question_type,
        body.enabled,
      );
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
    await retireQuestionRoles(db, params.guildId, params.question_type);
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
}

/** The jobs on the whole setup: Generate, Post and Reset. */
function setupJobRoutes(app: FastifyInstance): void {
  const { db, queue } = app.services;

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
    history.snapshotByJob('personality_roles');
    await retirePersonalitySetupInto(db, params.guildId, history.entryId);
    return {
      job_id: await enqueueGuildJob(queue, 'personality-roles.reset', params.guildId, requester),
    };
  });
}

/** "Also ask in Discord Onboarding", and the refresh that keeps Discord matching the setup. */
function onboardingRoutes(app: FastifyInstance): void {
  const { db, queue } = app.services;

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
