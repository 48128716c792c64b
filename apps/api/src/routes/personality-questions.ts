import { type PersonalityQuestion, routes } from '@spacecadet/contract';
import { personalityQuestionOrder } from '@spacecadet/db/queries/personality-questions';
import type { FastifyInstance } from 'fastify';
import { importOnboarding, readInsights } from '../services/personality-import.ts';
import {
  createQuestion,
  deleteQuestion,
  orderQuestions,
  readQuestion,
  updateQuestion,
} from '../services/personality-questions.ts';
import { defineRoute } from './define.ts';

const subject = (questionId: number) => `personality_roles:question:${questionId}`;

/** "Edited the question "A"", "Renamed the question "A" to "B"". */
function updateSummary(before: PersonalityQuestion, after: PersonalityQuestion): string {
  return before.title === after.title
    ? `Edited the question "${after.title ?? ''}"`
    : `Renamed the question "${before.title ?? ''}" to "${after.title ?? ''}"`;
}

/**
 * Questions of the server's own (and templates once added): create, edit, delete, order, the
 * import of Discord Onboarding prompts, and insights. Each change records the question as the
 * GET list shows it, for its undo (history's `restore-personality-questions.ts`).
 */
export function registerPersonalityQuestionRoutes(app: FastifyInstance): void {
  const { db } = app.services;

  defineRoute(
    app,
    routes.createPersonalityQuestion,
    async ({ params, body, requester, request, history }) => {
      const created = await createQuestion(app.services, params.guildId, body, {
        requester,
        log: request.log,
      });
      history.state(
        subject(created.question_id),
        null,
        created,
        `Added the question "${created.title ?? ''}"`,
      );
      return created;
    },
  );

  defineRoute(
    app,
    routes.updatePersonalityQuestion,
    async ({ params, body, requester, request, history }) => {
      const before = await readQuestion(db, params.guildId, params.questionId);
      const after = await updateQuestion(app.services, params.guildId, params.questionId, body, {
        requester,
        log: request.log,
      });
      if (before) history.state(subject(after.question_id), before, after, updateSummary(before, after));
      return after;
    },
  );

  defineRoute(
    app,
    routes.deletePersonalityQuestion,
    async ({ params, query, requester, request, history }) => {
      const before = await readQuestion(db, params.guildId, params.questionId);
      const jobId = await deleteQuestion(
        app.services,
        params.guildId,
        params.questionId,
        query.delete_roles,
        {
          requester,
          log: request.log,
        },
      );
      if (before) {
        const roles = query.delete_roles ? ' and its roles' : '';
        history.state(
          subject(params.questionId),
          before,
          null,
          `Removed the question "${before.title ?? ''}"${roles}`,
        );
      }
      return { job_id: jobId };
    },
  );

  defineRoute(
    app,
    routes.orderPersonalityQuestions,
    async ({ params, body, requester, request, history }) => {
      const before = await personalityQuestionOrder(db, params.guildId);
      await orderQuestions(app.services, params.guildId, body.question_ids, { requester, log: request.log });
      history.state(
        'personality_roles:order',
        { question_ids: before },
        { question_ids: body.question_ids },
        'Reordered the personality questions',
      );
      return { question_ids: body.question_ids };
    },
  );

  defineRoute(app, routes.importPersonalityOnboarding, async ({ params, requester, history }) => {
    const result = await importOnboarding(app.services, params.guildId, requester);
    const count = result.question_ids.length;
    history.describe({
      subject: 'personality_roles',
      summary: `Imported ${count} Onboarding prompt${count === 1 ? '' : 's'} as questions${
        result.skipped.length > 0 ? ` (${result.skipped.length} skipped)` : ''
      }`,
    });
    return result;
  });

  defineRoute(app, routes.getPersonalityInsights, async ({ params, query }) =>
    readInsights(db, params.guildId, query.days),
  );
}
