import {
  PersonalityQuestion,
  type PersonalityQuestionInput,
  QUESTIONS_MAX,
  questionOptionName,
} from '@spacecadet/contract';
import type { Db } from '@spacecadet/db';
import {
  deletePersonalityQuestion,
  insertPersonalityQuestion,
  keepPersonalityRoles,
  orderPersonalityQuestions,
  type QuestionValues,
  updatePersonalityQuestion,
} from '@spacecadet/db/queries/personality-questions';
import { loadPersonalityQuestions } from '@spacecadet/db/queries/personality-roles';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError, notFound } from '../errors.ts';
import type { AppServices } from './container.ts';
import type { GuildResources } from './guild-resources.ts';
import { enqueueGuildJob, type JobRequester } from './jobs.ts';
import { INITIALIZE_FIRST_MESSAGE, queueRefresh, toQuestion } from './personality-roles.ts';
import { assertOptionsGivable } from './role-menu-rows.ts';

/**
 * Questions of a server's own (and templates once added), written for their routes and their
 * undo (history's `restore-personality-questions.ts`): create, edit, delete, order, and bring a
 * deleted one back. Every write is checked the same way (the bot can give each chosen role, a
 * custom emoji is the server's), stored with its cleanup in one transaction, then followed by
 * the refresh job that brings Discord in line.
 */

export const NO_SUCH_QUESTION = 'No such question for this server';
export const TOO_MANY_QUESTIONS = `A server has at most ${QUESTIONS_MAX} questions; remove one first`;

export type QuestionServices = Pick<AppServices, 'db' | 'queue' | 'guildResources'>;

/** Who writes and how its jobs are queued: the route's request, or an undo's. */
export interface QuestionWriter {
  requester: JobRequester;
  log: FastifyBaseLogger;
}

/** The body as stored: trimmed, an option's role chosen when it names one. */
function toValues(body: PersonalityQuestionInput): QuestionValues {
  return {
    title: body.title.trim(),
    description: body.description,
    isMultiSelect: body.is_multi_select,
    options: body.options.map((option) => {
      const emoji = option.emoji?.trim() ?? '';
      const roleId = option.role_id?.trim() || null;
      return {
        optionId: option.option_id,
        label: option.label.trim(),
        emoji: emoji === '' ? null : emoji,
        roleId,
        roleChosen: roleId !== null,
        channelIds: option.channel_ids ?? [],
      };
    }),
  };
}

/**
 * Refuses (400, naming the question and option) a chosen role the bot cannot give (managed, at
 * or above its highest role) and a custom emoji of another server: the role menus' check.
 */
function assertQuestionGivable(
  resources: GuildResources,
  guildId: string,
  body: PersonalityQuestionInput,
): Promise<void> {
  const title = body.title.trim();
  return assertOptionsGivable(
    resources,
    guildId,
    body.options.flatMap((option, index) => {
      const roleId = option.role_id?.trim() ?? '';
      const emoji = option.emoji?.trim() ?? '';
      if (roleId === '' && emoji === '') return [];
      return [
        {
          path: `options.${index}`,
          name: questionOptionName(title, index, option.label),
          role_id: roleId,
          emoji,
        },
      ];
    }),
  );
}

/** The guild's question of that id as the API answers it (null: none). */
export async function readQuestion(
  db: Db,
  guildId: string,
  questionId: number,
): Promise<PersonalityQuestion | null> {
  const question = (await loadPersonalityQuestions(db, guildId)).find((q) => q.id === questionId);
  return question ? toQuestion(question) : null;
}

async function questionOrThrow(db: Db, guildId: string, questionId: number): Promise<PersonalityQuestion> {
  const question = await readQuestion(db, guildId, questionId);
  if (!question) throw notFound(NO_SUCH_QUESTION);
  return question;
}

/** Adds a question of the guild's own (the POST route); 400 before Initialize. */
export async function createQuestion(
  services: QuestionServices,
  guildId: string,
  body: PersonalityQuestionInput,
  writer: QuestionWriter,
): Promise<PersonalityQuestion> {
  await assertQuestionGivable(services.guildResources, guildId, body);
  const created = await insertPersonalityQuestion(services.db, guildId, toValues(body), {
    max: QUESTIONS_MAX,
  });
  if (created.outcome === 'not_configured') throw new ApiError('invalid_input', INITIALIZE_FIRST_MESSAGE);
  if (created.outcome === 'too_many') throw new ApiError('invalid_input', TOO_MANY_QUESTIONS);
  await queueRefresh(services.queue, writer.log, guildId, writer.requester);
  return questionOrThrow(services.db, guildId, created.id);
}

/** Edits a question (the PUT route, an undo of an edit); 404: not one of the guild's. */
export async function updateQuestion(
  services: QuestionServices,
  guildId: string,
  questionId: number,
  body: PersonalityQuestionInput,
  writer: QuestionWriter,
): Promise<PersonalityQuestion> {
  await questionOrThrow(services.db, guildId, questionId);
  await assertQuestionGivable(services.guildResources, guildId, body);
  if (!(await updatePersonalityQuestion(services.db, guildId, questionId, toValues(body)))) {
    throw notFound(NO_SUCH_QUESTION);
  }
  await queueRefresh(services.queue, writer.log, guildId, writer.requester);
  return questionOrThrow(services.db, guildId, questionId);
}

/**
 * Removes a question (the DELETE route, an undo of a create); its message, prompt and (asked)
 * created roles go by the refresh job, whose id it answers. 404: not one of the guild's.
 */
export async function deleteQuestion(
  services: QuestionServices,
  guildId: string,
  questionId: number,
  deleteRoles: boolean,
  writer: QuestionWriter,
): Promise<string> {
  if (!(await deletePersonalityQuestion(services.db, guildId, questionId, deleteRoles))) {
    throw notFound(NO_SUCH_QUESTION);
  }
  return enqueueGuildJob(services.queue, 'personality-roles.refresh', guildId, writer.requester, {
    afterChange: true,
  });
}

/** Stores the questions' order (every question of the guild once, else 400 naming the difference). */
export async function orderQuestions(
  services: QuestionServices,
  guildId: string,
  questionIds: readonly number[],
  writer: QuestionWriter,
): Promise<void> {
  const { missing, extra } = await orderPersonalityQuestions(services.db, guildId, questionIds);
  const problems = [
    ...(missing.length > 0 ? [`missing ${missing.join(', ')}`] : []),
    ...(extra.length > 0 ? [`not questions of this server: ${extra.join(', ')}`] : []),
  ];
  if (problems.length > 0) {
    throw new ApiError(
      'invalid_input',
      `question_ids: list every question of the server once (${problems.join('; ')})`,
    );
  }
  await queueRefresh(services.queue, writer.log, guildId, writer.requester);
}

/** A recorded question as the body that writes it back: bot-created roles are the bot's to keep. */
export function questionBody(question: PersonalityQuestion): PersonalityQuestionInput {
  return {
    title: question.title ?? '',
    description: question.description ?? '',
    is_multi_select: question.is_multi_select,
    options: question.options.map((option) => ({
      option_id: option.option_id,
      label: option.label,
      emoji: option.emoji,
      role_id: option.role_created ? null : option.role_id,
      channel_ids: option.channel_ids,
    })),
  };
}

/**
 * Brings a deleted question back under its id and key (an undo of its delete), checked as a
 * create is. Its options get their roles back where the role still exists (a created role's
 * pending deletion is called off); the refresh creates the others and posts it again.
 */
export async function reviveQuestion(
  services: QuestionServices,
  guildId: string,
  recorded: PersonalityQuestion,
  writer: QuestionWriter,
): Promise<void> {
  const body = questionBody(recorded);
  await assertQuestionGivable(services.guildResources, guildId, body);
  const existing = new Set(await services.guildResources.roleIds(guildId, true));
  const values = toValues(body);
  values.options = values.options.map((option, index) => {
    const was = recorded.options[index];
    if (!was?.role_created || was.role_id === null || !existing.has(was.role_id)) return option;
    return { ...option, roleId: was.role_id, roleChosen: false };
  });
  const revived = await insertPersonalityQuestion(services.db, guildId, values, {
    max: QUESTIONS_MAX,
    id: recorded.question_id,
    key: () => recorded.question_type,
  });
  if (revived.outcome === 'not_configured') throw new ApiError('invalid_input', INITIALIZE_FIRST_MESSAGE);
  if (revived.outcome === 'too_many') throw new ApiError('invalid_input', TOO_MANY_QUESTIONS);
  await keepPersonalityRoles(
    services.db,
    guildId,
    values.options.flatMap((option) => (option.roleId && !option.roleChosen ? [option.roleId] : [])),
  );
  await queueRefresh(services.queue, writer.log, guildId, writer.requester);
}

/** A recorded question state: the GET item, parsed (null: the question is not to exist). */
export function parseQuestionState(state: unknown): PersonalityQuestion | null {
  if (state === null) return null;
  const parsed = PersonalityQuestion.safeParse(state);
  if (!parsed.success) throw new ApiError('invalid_input', 'The recorded question could not be read back');
  return parsed.data;
}
