import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbTransaction } from '../client.ts';
import { memberRolePicks } from '../schema/member-picks.ts';
import {
  type PersonalityCleanupRow,
  personalityCleanup,
  personalityConfigs,
  personalityOptions,
  personalityQuestions,
} from '../schema/personality.ts';
import { personalityPickScope } from './member-picks.ts';

/**
 * Questions of a server's own (issue 38), the API's writes: create, edit, delete, order, and the
 * questions an Onboarding import or an undo makes. Each runs in one transaction with the cleanup
 * rows it queues (roles, channel overwrites, messages, prompts the worker's refresh then removes
 * in Discord), so a crash leaves either the old question or the new one, never half of each.
 * Why one file: the four writes share the option matching and the cleanup entries.
 */

/** An option as the API writes it: `roleId` null lets Generate Roles create one. */
export interface QuestionOptionValues {
  /** A stored option of the question (kept: its role, members' picks); absent: new. */
  optionId?: number | undefined;
  label: string;
  emoji: string | null;
  roleId: string | null;
  /** True when `roleId` is an admin's existing role (never deleted or renamed by the bot). */
  roleChosen: boolean;
  channelIds: string[];
}

export interface QuestionValues {
  title: string;
  description: string;
  isMultiSelect: boolean;
  options: QuestionOptionValues[];
}

type CleanupEntry = Omit<PersonalityCleanupRow, 'id'>;

/** The overwrite cleanup target: `<channel id>:<role id>`, the channel also in `channel_id`. */
function overwriteEntries(
  guildId: string,
  roleId: string | null,
  channelIds: readonly string[],
  name: string,
): CleanupEntry[] {
  if (roleId === null) return [];
  return channelIds.map((channelId) => ({
    guildId,
    kind: 'overwrite' as const,
    targetId: `${channelId}:${roleId}`,
    channelId,
    name,
  }));
}

async function queueCleanup(tx: DbTransaction, entries: readonly CleanupEntry[]): Promise<void> {
  if (entries.length > 0)
    await tx
      .insert(personalityCleanup)
      .values([...entries])
      .onConflictDoNothing();
}

async function nextPosition(tx: DbTransaction, guildId: string): Promise<number> {
  const [row] = await tx
    .select({ max: sql<number | null>`max(${personalityQuestions.position})` })
    .from(personalityQuestions)
    .where(eq(personalityQuestions.guildId, guildId));
  return (row?.max ?? -1) + 1;
}

function optionRows(
  questionId: number,
  guildId: string,
  options: readonly { values: QuestionOptionValues; position: number }[],
) {
  return options.map(({ values, position }) => ({
    questionId,
    guildId,
    label: values.label,
    emoji: values.emoji,
    position,
    roleId: values.roleId,
    roleChosen: values.roleChosen,
    channelIds: values.channelIds,
  }));
}

export type CreateQuestionOutcome =
  | { outcome: 'created'; id: number }
  | { outcome: 'not_configured' }
  | { outcome: 'too_many' };

/**
 * Inserts a question of the guild's own: its id is taken from the sequence first so its key
 * `q<id>` goes in with the row. `key`: the key to store (an undo of a delete brings a template
 * back under its type); `id`: the id to reuse (undo), else a new one. `promptId`: the Onboarding
 * prompt it comes from (import).
 */
export async function insertPersonalityQuestion(
  db: Db | DbTransaction,
  guildId: string,
  values: QuestionValues,
  limits: { max: number; key?: (id: number) => string; id?: number; promptId?: string | null },
): Promise<CreateQuestionOutcome> {
  const run = async (tx: DbTransaction): Promise<CreateQuestionOutcome> => {
    const [config] = await tx
      .select({ configured: personalityConfigs.configured })
      .from(personalityConfigs)
      .where(eq(personalityConfigs.guildId, guildId))
      .for('update');
    if (!config?.configured) return { outcome: 'not_configured' };
    const [count] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(personalityQuestions)
      .where(eq(personalityQuestions.guildId, guildId));
    if ((count?.n ?? 0) >= limits.max) return { outcome: 'too_many' };
    let id = limits.id;
    if (id === undefined) {
      const seq = await tx.execute<{ id: number }>(
        sql`select nextval(pg_get_serial_sequence('personality_questions', 'id'))::int as id`,
      );
      id = Number(seq.rows[0]?.id);
    }
    await tx.insert(personalityQuestions).values({
      id,
      guildId,
      questionType: limits.key ? limits.key(id) : `q${id}`,
      title: values.title,
      description: values.description,
      isMultiSelect: values.isMultiSelect,
      isEnabled: true,
      position: await nextPosition(tx, guildId),
      onboardingPromptId: limits.promptId ?? null,
    });
    if (values.options.length > 0) {
      await tx.insert(personalityOptions).values(
        optionRows(
          id,
          guildId,
          values.options.map((option, position) => ({ values: option, position })),
        ),
      );
    }
    return { outcome: 'created', id };
  };
  return db.transaction(run);
}

/** What an edit did to one stored option: matched to which input, or removed. */
interface StoredOption {
  id: number;
  label: string;
  roleId: string | null;
  roleChosen: boolean;
  channelIds: string[];
}

/**
 * Matches the input's options to the stored ones: by `option_id`, then by the same label
 * (case-insensitive) among the stored options left. An `option_id` that is not one of the
 * question's (an option removed since, an undo's) counts as new.
 */
export function matchOptions(
  stored: readonly StoredOption[],
  input: readonly QuestionOptionValues[],
): { matches: (StoredOption | null)[]; removed: StoredOption[] } {
  const left = new Map(stored.map((option) => [option.id, option]));
  const matches: (StoredOption | null)[] = input.map((option) => {
    if (option.optionId === undefined) return null;
    const found = left.get(option.optionId);
    if (found) left.delete(found.id);
    return found ?? null;
  });
  input.forEach((option, index) => {
    if (matches[index]) return;
    const label = option.label.trim().toLowerCase();
    const found = [...left.values()].find((s) => s.label.trim().toLowerCase() === label);
    if (found) {
      left.delete(found.id);
      matches[index] = found;
    }
  });
  return { matches, removed: [...left.values()] };
}

/** What the bot made for an option that goes (its created role; else its channels' overwrites). */
function removedOptionCleanup(guildId: string, option: StoredOption): CleanupEntry[] {
  if (option.roleId === null) return [];
  if (!option.roleChosen) {
    return [{ guildId, kind: 'role', targetId: option.roleId, channelId: null, name: option.label }];
  }
  return overwriteEntries(guildId, option.roleId, option.channelIds, option.label);
}

/**
 * An option that stays: the role it gives now. An admin's role replaces the one it had; no role
 * asked for keeps the role the bot created (an admin's role is given back to the bot to create).
 */
function keptRole(
  stored: StoredOption,
  input: QuestionOptionValues,
): { roleId: string | null; chosen: boolean } {
  if (input.roleChosen && input.roleId !== null) return { roleId: input.roleId, chosen: true };
  if (!input.roleChosen && input.roleId !== null) return { roleId: input.roleId, chosen: false };
  return stored.roleChosen ? { roleId: null, chosen: false } : { roleId: stored.roleId, chosen: false };
}

/** What a kept option's change leaves for the worker to take back in Discord. */
function keptOptionCleanup(
  guildId: string,
  stored: StoredOption,
  roleId: string | null,
  channelIds: readonly string[],
): CleanupEntry[] {
  if (stored.roleId !== null && stored.roleId !== roleId) return removedOptionCleanup(guildId, stored);
  const gone = stored.channelIds.filter((channelId) => !channelIds.includes(channelId));
  return overwriteEntries(guildId, stored.roleId, gone, stored.label);
}

/**
 * Replaces a question's title, description, mode and options (see `matchOptions`): kept options
 * keep their id, role and members' picks; removed ones go with their picks, their bot-created
 * role and the overwrites the bot opened to cleanup. False: no such question of the guild.
 */
export async function updatePersonalityQuestion(
  db: Db,
  guildId: string,
  questionId: number,
  values: QuestionValues,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [question] = await tx
      .select({ id: personalityQuestions.id, key: personalityQuestions.questionType })
      .from(personalityQuestions)
      .where(and(eq(personalityQuestions.guildId, guildId), eq(personalityQuestions.id, questionId)))
      .for('update');
    if (!question) return false;
    const stored = await tx
      .select({
        id: personalityOptions.id,
        label: personalityOptions.label,
        roleId: personalityOptions.roleId,
        roleChosen: personalityOptions.roleChosen,
        channelIds: personalityOptions.channelIds,
      })
      .from(personalityOptions)
      .where(eq(personalityOptions.questionId, questionId))
      .for('update');
    const { matches, removed } = matchOptions(stored, values.options);
    const cleanup: CleanupEntry[] = removed.flatMap((option) => removedOptionCleanup(guildId, option));
    if (removed.length > 0) {
      const ids = removed.map((option) => option.id);
      await tx.delete(personalityOptions).where(inArray(personalityOptions.id, ids));
      await tx.delete(memberRolePicks).where(
        and(
          eq(memberRolePicks.guildId, guildId),
          eq(memberRolePicks.scope, personalityPickScope(question.key)),
          inArray(
            memberRolePicks.targetKey,
            ids.map((id) => `option:${id}`),
          ),
        ),
      );
    }
    const added: { values: QuestionOptionValues; position: number }[] = [];
    for (const [position, option] of values.options.entries()) {
      const match = matches[position];
      if (!match) {
        added.push({ values: option, position });
        continue;
      }
      const role = keptRole(match, option);
      cleanup.push(...keptOptionCleanup(guildId, match, role.roleId, option.channelIds));
      await tx
        .update(personalityOptions)
        .set({
          label: option.label,
          emoji: option.emoji,
          position,
          roleId: role.roleId,
          roleChosen: role.chosen,
          channelIds: option.channelIds,
        })
        .where(eq(personalityOptions.id, match.id));
    }
    if (added.length > 0) await tx.insert(personalityOptions).values(optionRows(questionId, guildId, added));
    await tx
      .update(personalityQuestions)
      .set({ title: values.title, description: values.description, isMultiSelect: values.isMultiSelect })
      .where(eq(personalityQuestions.id, questionId));
    await queueCleanup(tx, cleanup);
    return true;
  });
}

/**
 * Removes a question: its message and Onboarding prompt go to cleanup, with `deleteRoles` its
 * bot-created roles too (never an admin's); otherwise its roles stay in Discord with their
 * overwrites. Its members' picks go. False: no such question of the guild.
 */
export async function deletePersonalityQuestion(
  db: Db,
  guildId: string,
  questionId: number,
  deleteRoles: boolean,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [question] = await tx
      .select()
      .from(personalityQuestions)
      .where(and(eq(personalityQuestions.guildId, guildId), eq(personalityQuestions.id, questionId)))
      .for('update');
    if (!question) return false;
    const options = await tx
      .select({
        roleId: personalityOptions.roleId,
        roleChosen: personalityOptions.roleChosen,
        label: personalityOptions.label,
      })
      .from(personalityOptions)
      .where(eq(personalityOptions.questionId, questionId));
    const cleanup: CleanupEntry[] = [];
    if (question.messageId) {
      cleanup.push({
        guildId,
        kind: 'message',
        targetId: question.messageId,
        channelId: question.messageChannelId,
        name: question.title,
      });
    }
    if (question.onboardingPromptId) {
      cleanup.push({
        guildId,
        kind: 'onboarding',
        targetId: question.onboardingPromptId,
        channelId: null,
        name: question.title,
      });
    }
    if (deleteRoles) {
      for (const option of options) {
        if (option.roleId && !option.roleChosen) {
          cleanup.push({
            guildId,
            kind: 'role',
            targetId: option.roleId,
            channelId: null,
            name: option.label,
          });
        }
      }
    }
    await tx.delete(personalityQuestions).where(eq(personalityQuestions.id, questionId));
    await tx
      .delete(memberRolePicks)
      .where(
        and(
          eq(memberRolePicks.guildId, guildId),
          eq(memberRolePicks.scope, personalityPickScope(question.questionType)),
        ),
      );
    await queueCleanup(tx, cleanup);
    return true;
  });
}

/** Roles an undo brings back into use: their pending deletion is called off. */
export async function keepPersonalityRoles(
  db: Db,
  guildId: string,
  roleIds: readonly string[],
): Promise<void> {
  if (roleIds.length === 0) return;
  await db
    .delete(personalityCleanup)
    .where(
      and(
        eq(personalityCleanup.guildId, guildId),
        eq(personalityCleanup.kind, 'role'),
        inArray(personalityCleanup.targetId, [...roleIds]),
      ),
    );
}

/**
 * Stores the questions' order: `ids` must be every question of the guild once. Answers the ids
 * missing from the list and those that are not the guild's (both empty: stored).
 */
export async function orderPersonalityQuestions(
  db: Db,
  guildId: string,
  ids: readonly number[],
): Promise<{ missing: number[]; extra: number[] }> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: personalityQuestions.id })
      .from(personalityQuestions)
      .where(eq(personalityQuestions.guildId, guildId))
      .for('update');
    const stored = new Set(rows.map((row) => row.id));
    const given = new Set(ids);
    const missing = [...stored].filter((id) => !given.has(id)).sort((a, b) => a - b);
    const extra = ids.filter((id) => !stored.has(id));
    if (missing.length > 0 || extra.length > 0) return { missing, extra };
    for (const [position, id] of ids.entries()) {
      await tx.update(personalityQuestions).set({ position }).where(eq(personalityQuestions.id, id));
    }
    return { missing, extra };
  });
}

/** The guild's question ids in their order. */
export async function personalityQuestionOrder(db: Db, guildId: string): Promise<number[]> {
  const rows = await db
    .select({ id: personalityQuestions.id })
    .from(personalityQuestions)
    .where(eq(personalityQuestions.guildId, guildId))
    .orderBy(personalityQuestions.position, personalityQuestions.id);
  return rows.map((row) => row.id);
}

/** The guild's questions made from Onboarding prompts, by prompt id. */
export async function questionsByPrompt(db: Db, guildId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ id: personalityQuestions.id, promptId: personalityQuestions.onboardingPromptId })
    .from(personalityQuestions)
    .where(eq(personalityQuestions.guildId, guildId));
  return new Map(rows.flatMap((row) => (row.promptId ? [[row.promptId, row.id] as const] : [])));
}
