import type { JobResult } from '@spacecadet/contract';
import { type MemberPick, personalityPickScope, writeMemberPicks } from '@spacecadet/db/queries/member-picks';
import { loadPersonalityQuestions, retirePersonalitySetup } from '@spacecadet/db/queries/personality-roles';
import {
  type PersonalitySetupSnapshot,
  personalityQuestionIds,
  restorePersonalitySetup,
} from '@spacecadet/db/queries/personality-snapshots';
import type { RemappedReferences } from '@spacecadet/db/queries/role-references';
import type { HistoryRow } from '@spacecadet/db/schema';
import { type JobContext, JobFailure } from '../../jobs/types.ts';
import { movedReferencesSummary, moveRoleReferences } from '../../roles/role-references.ts';
import { restoreRequested, stepContext } from '../history/restores.ts';
import { generatePersonalityRoles } from './generate.ts';
import { givePersonalityPicksBack } from './give-back.ts';
import { personalityTargetKey } from './keys.ts';
import { publishPersonalityOnboarding } from './onboarding.ts';
import { postPersonalityMessages } from './post.ts';
import { resetPersonalityRoles } from './reset.ts';
import { withWarnings } from './roles.ts';

/** A Reset Personality entry's snapshot: the API's setup part and the job's holders part. */
export type PersonalityResetSnapshot = PersonalitySetupSnapshot & {
  /** Old role id → the members who held it; null when Discord refused the member list. */
  holders: Record<string, string[]> | null;
  holdersFrom: 'members' | 'picks';
};

/**
 * `personality-roles.restore`: the undo of Reset Personality, for every entry of the guild whose
 * undo was asked, oldest first. Each: a setup made since is reset first (the undo asked to
 * overwrite it); the questions and options go back with their ids, configured, the holders'
 * answers recorded; then Generate Roles runs (it recreates the roles and gives them back to the
 * members whose answer they are), every menu, reward, no-XP role and boost that named an old
 * role moves to the new one (posted menus are repaired), the messages are posted again if they were, and the questions
 * go back into Discord Onboarding if they were there. A rerun after a crash resumes: the setup
 * keeps the roles stored so far, Generate makes only the missing ones, Post edits its messages.
 */
export async function restorePersonalityRoles(context: JobContext): Promise<JobResult> {
  await context.progress(0);
  const warnings: string[] = [];
  let created = 0;
  let moved = '';
  const restored = await restoreRequested(context, 'personality_roles.reset', warnings, async (entry) => {
    const one = await restoreOne(context, entry, warnings);
    created += one.created;
    moved += movedReferencesSummary(one.moved);
  });
  await context.progress(100);
  return withWarnings(
    {
      ok: true,
      summary:
        restored === 0
          ? 'Nothing to restore.'
          : `Personality roles restored: ${created} role${created === 1 ? '' : 's'} recreated.${moved}`,
      created,
    },
    warnings,
  );
}

/** The members' answers to record: by who held each old role, or the picks recorded then. */
function picksOf(guildId: string, snapshot: PersonalityResetSnapshot): MemberPick[] {
  const byMember = new Map<string, MemberPick & { targetKeys: string[] }>();
  const add = (userId: string, scope: string, targetKey: string) => {
    const id = `${userId} ${scope}`;
    const pick = byMember.get(id) ?? { guildId, userId, scope, targetKeys: [] };
    if (!pick.targetKeys.includes(targetKey)) pick.targetKeys.push(targetKey);
    byMember.set(id, pick);
  };
  if (snapshot.holders) {
    for (const question of snapshot.questions) {
      for (const option of question.options) {
        const holders = option.roleId ? (snapshot.holders[option.roleId] ?? []) : [];
        for (const userId of holders) {
          add(userId, personalityPickScope(question.questionType), `option:${option.id}`);
        }
      }
    }
  } else {
    for (const pick of snapshot.picks) add(pick.userId, pick.scope, pick.targetKey);
  }
  return [...byMember.values()];
}

async function restoreOne(
  context: JobContext,
  entry: HistoryRow,
  warnings: string[],
): Promise<{ created: number; moved: RemappedReferences }> {
  const { db } = context.deps;
  const guildId = context.payload.guild_id;
  const snapshot = entry.snapshot as PersonalityResetSnapshot | null;
  if (!snapshot?.questions || !snapshot.config) {
    throw new JobFailure('invalid_input', `History entry ${entry.id} holds nothing to restore.`);
  }
  const step = stepContext(context);
  const ours = new Set(snapshot.questions.map((question) => question.id));
  if ((await personalityQuestionIds(db, guildId)).some((id) => !ours.has(id))) {
    // Initialized again since: the undo replaces that setup (its confirmation said so).
    await retirePersonalitySetup(db, guildId);
    await resetPersonalityRoles(step);
  }
  await restorePersonalitySetup(db, guildId, snapshot);
  const picks = picksOf(guildId, snapshot);
  await writeMemberPicks(db, picks);
  const generated = await generatePersonalityRoles(step);
  warnings.push(...(generated.warnings ?? []));
  // Generate gives back only the roles it created in this run: after a crash, the roles the
  // killed run created go to their holders here (giving a role held already changes nothing).
  const questions = await loadPersonalityQuestions(db, guildId);
  const roleNow = new Map(
    questions.flatMap((question) => question.options.map((option) => [option.id, option.roleId] as const)),
  );
  const recreated = new Map<string, string>();
  for (const option of snapshot.questions.flatMap((question) => question.options)) {
    const roleId = roleNow.get(option.id);
    if (option.roleId && roleId) recreated.set(option.roleId, roleId);
  }
  const moved = await moveRoleReferences(context, recreated);
  const held = new Set(picks.flatMap((pick) => pick.targetKeys));
  const roles = new Map(
    questions.flatMap((question) =>
      question.options.flatMap((option) =>
        option.roleId && held.has(personalityTargetKey(option))
          ? [[personalityTargetKey(option), option.roleId] as const]
          : [],
      ),
    ),
  );
  await givePersonalityPicksBack(context.deps, guildId, questions, roles);
  const followUps = [
    ...(snapshot.config.messagesPosted ? [postPersonalityMessages] : []),
    ...(snapshot.config.onboardingEnabled ? [publishPersonalityOnboarding] : []),
  ];
  for (const followUp of followUps) {
    try {
      warnings.push(...((await followUp(step)).warnings ?? []));
    } catch (error) {
      if (!(error instanceof JobFailure)) throw error;
      warnings.push(error.detail);
    }
  }
  return { created: typeof generated.created === 'number' ? generated.created : 0, moved };
}
