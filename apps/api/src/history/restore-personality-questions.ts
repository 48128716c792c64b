import { QuestionOrderBody, routes } from '@spacecadet/contract';
import { personalityQuestionOrder } from '@spacecadet/db/queries/personality-questions';
import { ApiError } from '../errors.ts';
import {
  deleteQuestion,
  orderQuestions,
  parseQuestionState,
  type QuestionWriter,
  questionBody,
  readQuestion,
  reviveQuestion,
  updateQuestion,
} from '../services/personality-questions.ts';
import type { AreaRestorers, UndoContext } from './restorers.ts';
import { checkAsRoute } from './route-checks.ts';

function writer(context: UndoContext): QuestionWriter {
  return { requester: context.requester, log: context.request.log };
}

function questionId(id: string | null): number {
  const parsed = Number(id);
  if (!Number.isSafeInteger(parsed) || parsed <= 0) {
    throw new ApiError('invalid_input', 'The recorded question could not be read back');
  }
  return parsed;
}

/**
 * Undo of question changes (see `restorers.ts`), through the same services as the routes. One
 * question, `personality_roles:question:<id>`: null deletes it with the roles the bot made for it
 * (an undo of its create); a question replaces the live one as PUT does, or brings a deleted one
 * back under its id with its options (their roles where the role still exists). The order,
 * `personality_roles:order`: the recorded order, questions added since after it.
 */
export const personalityQuestionRestorers: AreaRestorers = {
  state: {
    'personality_roles:question': {
      read: (context, id) => readQuestion(context.app.services.db, context.guildId, questionId(id)),
      async restore(context, id, state) {
        const { services } = context.app;
        const recorded = parseQuestionState(state);
        const now = await readQuestion(services.db, context.guildId, questionId(id));
        if (recorded === null) {
          if (now === null) return {};
          const jobId = await deleteQuestion(
            services,
            context.guildId,
            now.question_id,
            true,
            writer(context),
          );
          return { jobId };
        }
        const body = questionBody(recorded);
        await checkAsRoute(context, routes.updatePersonalityQuestion, body);
        if (now === null) await reviveQuestion(services, context.guildId, recorded, writer(context));
        else await updateQuestion(services, context.guildId, now.question_id, body, writer(context));
        return {};
      },
    },
    'personality_roles:order': {
      read: async (context) => ({
        question_ids: await personalityQuestionOrder(context.app.services.db, context.guildId),
      }),
      async restore(context, _id, state) {
        const parsed = QuestionOrderBody.safeParse(state);
        if (!parsed.success) throw new ApiError('invalid_input', 'The recorded order could not be read back');
        const { db } = context.app.services;
        const current = await personalityQuestionOrder(db, context.guildId);
        const live = new Set(current);
        const recorded = parsed.data.question_ids.filter((id) => live.has(id));
        const order = [...recorded, ...current.filter((id) => !recorded.includes(id))];
        if (order.length > 0)
          await orderQuestions(context.app.services, context.guildId, order, writer(context));
        return {};
      },
    },
  },
  snapshot: {},
};
