import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { personalityCleanup, personalityQuestions } from '../schema/personality.ts';

/**
 * Questions of a server's own (issue 38), beside `personality-questions.ts`: their order, the
 * questions made from Onboarding prompts, and the roles an undo brings back into use.
 */

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
