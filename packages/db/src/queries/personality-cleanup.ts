import { and, asc, eq, inArray, isNotNull, or } from 'drizzle-orm';
import type { Db } from '../client.ts';
import {
  type PersonalityCleanupRow,
  personalityCleanup,
  personalityConfigs,
  personalityOptions,
  personalityQuestions,
} from '../schema/personality.ts';
import { forgetFeaturePicks, personalityPickScope } from './member-picks.ts';

/**
 * Personality roles reset: what the setup made in Discord is put away in one transaction and
 * deleted by the reset job. Re-exported by `personality-roles.ts`, the module both apps import.
 */

/**
 * Reset, the stored half: in one transaction, every role, message and Onboarding prompt the
 * setup made moves to `personality_cleanup` (for the reset job to delete in Discord), the
 * questions and options go, and the guild is "not configured" again, Onboarding off (its
 * channel is kept). Returns what was queued.
 */
export async function retirePersonalitySetup(
  db: Db,
  guildId: string,
): Promise<{ roles: number; messages: number; prompts: number }> {
  return db.transaction(async (tx) => {
    const [roles, questions] = await Promise.all([
      tx
        .select({
          roleId: personalityOptions.roleId,
          label: personalityOptions.label,
          roleChosen: personalityOptions.roleChosen,
          channelIds: personalityOptions.channelIds,
        })
        .from(personalityOptions)
        .where(and(eq(personalityOptions.guildId, guildId), isNotNull(personalityOptions.roleId))),
      tx
        .select({
          messageId: personalityQuestions.messageId,
          channelId: personalityQuestions.messageChannelId,
          promptId: personalityQuestions.onboardingPromptId,
          title: personalityQuestions.title,
        })
        .from(personalityQuestions)
        .where(
          and(
            eq(personalityQuestions.guildId, guildId),
            or(isNotNull(personalityQuestions.messageId), isNotNull(personalityQuestions.onboardingPromptId)),
          ),
        ),
    ]);
    type Entry = Omit<PersonalityCleanupRow, 'id'>;
    const entry = (
      kind: Entry['kind'],
      targetId: string | null,
      name: string,
      channelId: string | null = null,
    ) => (targetId ? [{ guildId, kind, targetId, channelId, name }] : []);
    const entries: Entry[] = [
      // An admin's chosen role is never deleted: only the View Channel the bot gave it goes.
      ...roles.flatMap((role) => (role.roleChosen ? [] : entry('role', role.roleId, role.label))),
      ...roles.flatMap((role) =>
        role.roleChosen
          ? role.channelIds.flatMap((channelId) =>
              entry('overwrite', `${channelId}:${role.roleId}`, role.label, channelId),
            )
          : [],
      ),
      ...questions.flatMap((q) => entry('message', q.messageId, q.title, q.channelId)),
      ...questions.flatMap((q) => entry('onboarding', q.promptId, q.title)),
    ];
    if (entries.length > 0) await tx.insert(personalityCleanup).values(entries).onConflictDoNothing();
    await tx.delete(personalityQuestions).where(eq(personalityQuestions.guildId, guildId));
    await tx.delete(personalityOptions).where(eq(personalityOptions.guildId, guildId));
    await forgetFeaturePicks(tx, guildId, personalityPickScope(''));
    await tx
      .update(personalityConfigs)
      .set({
        configured: false,
        messagesPosted: false,
        onboardingEnabled: false,
        updatedAt: new Date(),
      })
      .where(eq(personalityConfigs.guildId, guildId));
    const count = (kind: Entry['kind']) => entries.filter((e) => e.kind === kind).length;
    return { roles: count('role'), messages: count('message'), prompts: count('onboarding') };
  });
}

/**
 * A disabled question's roles, the stored half: in one transaction its options' role ids move to
 * `personality_cleanup` (for the `personality-roles.delete-roles` job to delete in Discord) and
 * are cleared, so enabling the question again creates new roles. `missing`: no such question;
 * `enabled`: the question is on (its roles are in use, nothing moved). Run twice, the second
 * moves nothing.
 */
export async function retirePersonalityQuestionRoles(
  db: Db,
  guildId: string,
  questionType: string,
): Promise<{ outcome: 'missing' | 'enabled' } | { outcome: 'retired'; roles: number }> {
  return db.transaction(async (tx) => {
    const [question] = await tx
      .select({ id: personalityQuestions.id, isEnabled: personalityQuestions.isEnabled })
      .from(personalityQuestions)
      .where(
        and(eq(personalityQuestions.guildId, guildId), eq(personalityQuestions.questionType, questionType)),
      )
      .for('update');
    if (!question) return { outcome: 'missing' };
    if (question.isEnabled) return { outcome: 'enabled' };
    const options = await tx
      .select({
        id: personalityOptions.id,
        roleId: personalityOptions.roleId,
        label: personalityOptions.label,
      })
      .from(personalityOptions)
      .where(
        and(
          eq(personalityOptions.questionId, question.id),
          isNotNull(personalityOptions.roleId),
          // An admin's chosen role stays the option's: the bot never deletes it.
          eq(personalityOptions.roleChosen, false),
        ),
      )
      .for('update');
    if (options.length > 0) {
      await tx
        .update(personalityOptions)
        .set({ roleId: null })
        .where(
          inArray(
            personalityOptions.id,
            options.map((o) => o.id),
          ),
        );
    }
    const entries = options.flatMap((o) =>
      o.roleId
        ? [{ guildId, kind: 'role' as const, targetId: o.roleId, channelId: null, name: o.label }]
        : [],
    );
    if (entries.length > 0) await tx.insert(personalityCleanup).values(entries).onConflictDoNothing();
    return { outcome: 'retired', roles: entries.length };
  });
}

/** Roles, messages and prompts waiting to be deleted in Discord after a reset (or a run a reset overtook). */
export async function loadPersonalityCleanup(db: Db, guildId: string): Promise<PersonalityCleanupRow[]> {
  return db
    .select()
    .from(personalityCleanup)
    .where(eq(personalityCleanup.guildId, guildId))
    .orderBy(asc(personalityCleanup.id));
}

export async function queuePersonalityCleanup(
  db: Db,
  entry: Omit<PersonalityCleanupRow, 'id'>,
): Promise<void> {
  await db.insert(personalityCleanup).values(entry).onConflictDoNothing();
}

export async function deletePersonalityCleanup(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length > 0) await db.delete(personalityCleanup).where(inArray(personalityCleanup.id, [...ids]));
}
