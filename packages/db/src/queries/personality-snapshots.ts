import { and, asc, eq, isNotNull, like } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { memberRolePicks } from '../schema/member-picks.ts';
import {
  personalityCleanup,
  personalityConfigs,
  personalityOptions,
  personalityQuestions,
} from '../schema/personality.ts';
import { personalityPickScope } from './member-picks.ts';

/**
 * Reset Personality and its undo: what the reset deletes in Discord (one function, read by the
 * reset job and by its confirmation's preview) and the setup as stored, so the undo writes it
 * back with the same ids.
 */

/** A Discord role Reset Personality deletes. */
export interface PersonalityResetRole {
  roleId: string;
  name: string;
}

/**
 * The roles the reset deletes: the options' roles (before the API's reset moved them away) and
 * those already waiting on the cleanup list (after it, or left by an earlier run).
 */
export async function personalityResetRoles(db: Db, guildId: string): Promise<PersonalityResetRole[]> {
  const [options, cleanup] = await Promise.all([
    db
      .select({ roleId: personalityOptions.roleId, name: personalityOptions.label })
      .from(personalityOptions)
      .where(
        and(
          eq(personalityOptions.guildId, guildId),
          isNotNull(personalityOptions.roleId),
          // An admin's chosen role is never deleted by the reset.
          eq(personalityOptions.roleChosen, false),
        ),
      )
      .orderBy(asc(personalityOptions.id)),
    db
      .select({ roleId: personalityCleanup.targetId, name: personalityCleanup.name })
      .from(personalityCleanup)
      .where(and(eq(personalityCleanup.guildId, guildId), eq(personalityCleanup.kind, 'role')))
      .orderBy(asc(personalityCleanup.id)),
  ]);
  const seen = new Set<string>();
  const roles: PersonalityResetRole[] = [];
  for (const role of [...options, ...cleanup]) {
    if (!role.roleId || seen.has(role.roleId)) continue;
    seen.add(role.roleId);
    roles.push({ roleId: role.roleId, name: role.name });
  }
  return roles;
}

/** The personality setup as a reset removes it (the API's part of the entry's snapshot). */
export interface PersonalitySetupSnapshot {
  config: { assignChannelId: string | null; messagesPosted: boolean; onboardingEnabled: boolean };
  questions: Array<{
    id: number;
    questionType: string;
    title: string;
    description: string;
    isMultiSelect: boolean;
    isEnabled: boolean;
    position: number;
    options: Array<{
      id: number;
      label: string;
      emoji: string | null;
      position: number;
      roleId: string | null;
      /** Absent in snapshots taken before own questions: false, no channels. */
      roleChosen?: boolean;
      channelIds?: string[];
    }>;
  }>;
  /** Members' recorded answers (`member_role_picks`), the holders when Discord hides the member list. */
  picks: Array<{ userId: string; scope: string; targetKey: string }>;
}

/** Reads the setup a reset is about to remove. */
export async function snapshotPersonalitySetup(db: Db, guildId: string): Promise<PersonalitySetupSnapshot> {
  const [configs, questions, options, picks] = await Promise.all([
    db.select().from(personalityConfigs).where(eq(personalityConfigs.guildId, guildId)).limit(1),
    db
      .select()
      .from(personalityQuestions)
      .where(eq(personalityQuestions.guildId, guildId))
      .orderBy(asc(personalityQuestions.position), asc(personalityQuestions.id)),
    db
      .select()
      .from(personalityOptions)
      .where(eq(personalityOptions.guildId, guildId))
      .orderBy(asc(personalityOptions.position), asc(personalityOptions.id)),
    db
      .select({
        userId: memberRolePicks.userId,
        scope: memberRolePicks.scope,
        targetKey: memberRolePicks.targetKey,
      })
      .from(memberRolePicks)
      .where(
        and(
          eq(memberRolePicks.guildId, guildId),
          like(memberRolePicks.scope, `${personalityPickScope('')}%`),
        ),
      )
      .orderBy(memberRolePicks.userId, memberRolePicks.scope, memberRolePicks.targetKey),
  ]);
  const config = configs[0];
  return {
    config: {
      assignChannelId: config?.assignChannelId ?? null,
      messagesPosted: config?.messagesPosted ?? false,
      onboardingEnabled: config?.onboardingEnabled ?? false,
    },
    questions: questions.map((q) => ({
      id: q.id,
      questionType: q.questionType,
      title: q.title,
      description: q.description,
      isMultiSelect: q.isMultiSelect,
      isEnabled: q.isEnabled,
      position: q.position,
      options: options
        .filter((o) => o.questionId === q.id)
        .map((o) => ({
          id: o.id,
          label: o.label,
          emoji: o.emoji,
          position: o.position,
          roleId: o.roleId,
          roleChosen: o.roleChosen,
          channelIds: o.channelIds,
        })),
    })),
    picks,
  };
}

/** The ids of the guild's questions now (empty: not set up). */
export async function personalityQuestionIds(db: Db, guildId: string): Promise<number[]> {
  const rows = await db
    .select({ id: personalityQuestions.id })
    .from(personalityQuestions)
    .where(eq(personalityQuestions.guildId, guildId));
  return rows.map((row) => row.id);
}

/**
 * Writes a snapshot's setup back with its ids, without roles or messages (Generate and Post
 * make them), in one transaction: configured again, its channel and Onboarding switch. Rows
 * already there are kept as they are (a rerun after a crash keeps the roles stored so far).
 */
export async function restorePersonalitySetup(
  db: Db,
  guildId: string,
  snapshot: PersonalitySetupSnapshot,
): Promise<void> {
  await db.transaction(async (tx) => {
    const config = {
      configured: true,
      onboardingEnabled: snapshot.config.onboardingEnabled,
      ...(snapshot.config.assignChannelId ? { assignChannelId: snapshot.config.assignChannelId } : {}),
      updatedAt: new Date(),
    };
    await tx
      .insert(personalityConfigs)
      .values({ guildId, ...config })
      .onConflictDoUpdate({ target: personalityConfigs.guildId, set: config });
    if (snapshot.questions.length === 0) return;
    await tx
      .insert(personalityQuestions)
      .values(snapshot.questions.map(({ options: _options, ...question }) => ({ ...question, guildId })))
      .onConflictDoNothing();
    const options = snapshot.questions.flatMap((question) =>
      // A chosen role was never deleted, so it is the option's again; the bot's own are re-made.
      question.options.map(({ roleId, roleChosen, ...option }) => ({
        ...option,
        roleId: roleChosen ? roleId : null,
        roleChosen: roleChosen ?? false,
        questionId: question.id,
        guildId,
      })),
    );
    if (options.length > 0) await tx.insert(personalityOptions).values(options).onConflictDoNothing();
  });
}
