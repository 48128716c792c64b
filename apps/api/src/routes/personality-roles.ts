import {
  MESSAGES,
  type PersonalityQuestion,
  PersonalityQuestionType,
  type PersonalityRolesState,
  routes,
} from '@spacecadet/contract';
import {
  type Db,
  type DbTransaction,
  type PersonalityQuestionRow,
  personalityConfigs,
  personalityOptions,
  personalityQuestions,
} from '@spacecadet/db';
import { seedPersonalityCatalog } from '@spacecadet/db/queries/personality-roles';
import { and, asc, count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ApiError, notFound } from '../errors.ts';
import { enqueueGuildJob } from '../services/jobs.ts';
import { defineRoute } from './define.ts';

function toQuestion(row: PersonalityQuestionRow, roleCount: number): PersonalityQuestion {
  return {
    question_type: row.questionType,
    title: row.title,
    description: row.description,
    role_count: roleCount,
    is_multi_select: row.isMultiSelect,
    is_enabled: row.isEnabled,
  };
}

async function optionCounts(db: Db, guildId: string): Promise<Map<number, number>> {
  const rows = await db
    .select({ questionId: personalityOptions.questionId, n: count() })
    .from(personalityOptions)
    .where(eq(personalityOptions.guildId, guildId))
    .groupBy(personalityOptions.questionId);
  return new Map(rows.map((row) => [row.questionId, row.n]));
}

async function readState(db: Db, guildId: string): Promise<PersonalityRolesState> {
  const [[config], questions, counts] = await Promise.all([
    db.select().from(personalityConfigs).where(eq(personalityConfigs.guildId, guildId)).limit(1),
    db
      .select()
      .from(personalityQuestions)
      .where(eq(personalityQuestions.guildId, guildId))
      .orderBy(asc(personalityQuestions.position), asc(personalityQuestions.id)),
    optionCounts(db, guildId),
  ]);
  return {
    configured: config?.configured ?? false,
    assign_channel_id: config?.assignChannelId ?? null,
    // Types the dashboard does not know are hidden (spec section 2).
    questions: questions
      .filter((q) => PersonalityQuestionType.safeParse(q.questionType).success)
      .map((q) => toQuestion(q, counts.get(q.id) ?? 0)),
  };
}

async function setChannel(db: Db | DbTransaction, guildId: string, channelId: string, configured?: true) {
  const values = { assignChannelId: channelId, updatedAt: new Date(), ...(configured ? { configured } : {}) };
  await db
    .insert(personalityConfigs)
    .values({ guildId, ...values })
    .onConflictDoUpdate({ target: personalityConfigs.guildId, set: values });
}

async function requireChannel(db: Db, guildId: string): Promise<void> {
  const [config] = await db
    .select({ channel: personalityConfigs.assignChannelId })
    .from(personalityConfigs)
    .where(eq(personalityConfigs.guildId, guildId))
    .limit(1);
  if (!config?.channel) throw new ApiError('invalid_input', MESSAGES.selectChannelFirst);
}

/** Personality roles: the question catalog per guild, its channel, toggles and jobs. */
export function registerPersonalityRoutes(app: FastifyInstance): void {
  const { db, queue } = app.services;

  defineRoute(app, routes.getPersonalityRoles, async ({ params }) => readState(db, params.guildId));

  defineRoute(app, routes.initPersonalityRoles, async ({ params, body }) => {
    await db.transaction(async (tx) => {
      await setChannel(tx, params.guildId, body.channel_id, true);
      await seedPersonalityCatalog(tx, params.guildId);
    });
    return readState(db, params.guildId);
  });

  defineRoute(app, routes.setPersonalityChannel, async ({ params, body }) => {
    await setChannel(db, params.guildId, body.channel_id);
    return { channel_id: body.channel_id };
  });

  defineRoute(app, routes.togglePersonalityQuestion, async ({ params, body }) => {
    const [row] = await db
      .update(personalityQuestions)
      .set({ isEnabled: body.enabled })
      .where(
        and(
          eq(personalityQuestions.guildId, params.guildId),
          eq(personalityQuestions.questionType, params.question_type),
        ),
      )
      .returning();
    if (!row) throw notFound('No such question for this server');
    const counts = await optionCounts(db, params.guildId);
    return toQuestion(row, counts.get(row.id) ?? 0);
  });

  defineRoute(app, routes.generatePersonalityRoles, async ({ params, session }) => {
    await requireChannel(db, params.guildId);
    return {
      job_id: await enqueueGuildJob(queue, 'personality-roles.generate', params.guildId, session.user.id),
    };
  });

  defineRoute(app, routes.postPersonalityMessages, async ({ params, session }) => {
    await requireChannel(db, params.guildId);
    return {
      job_id: await enqueueGuildJob(queue, 'personality-roles.post', params.guildId, session.user.id),
    };
  });

  defineRoute(app, routes.resetPersonalityRoles, async ({ params, session }) => ({
    job_id: await enqueueGuildJob(queue, 'personality-roles.reset', params.guildId, session.user.id),
  }));

  defineRoute(app, routes.refreshPersonalityRoles, async ({ params, session }) => {
    await enqueueGuildJob(queue, 'personality-roles.refresh', params.guildId, session.user.id);
  });
}
