import type { JobResult } from '@spacecadet/contract';
import { loadPersonalityConfig, loadPersonalityQuestions } from '@spacecadet/db/queries/personality-roles';
import { type JobContext, JobFailure } from '../../jobs/types.ts';
import { guildRolesViewByRest } from '../../roles/guild-roles.ts';
import { ensureChannelAccess, liveRoleCheck } from './channel-access.ts';
import { ensurePersonalityRoles, withWarnings } from './roles.ts';
import { matchRefreshSchedule } from './schedule.ts';

export const NOT_INITIALIZED = 'Personality roles are not set up: initialize them first.';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * `personality-roles.generate`: one Discord role per option of every enabled question that has
 * no live role (`ensurePersonalityRoles`); run twice, the second run changes nothing.
 */
export async function generatePersonalityRoles(context: JobContext): Promise<JobResult> {
  const { db, client } = context.deps;
  const guildId = context.payload.guild_id;
  await context.progress(0);
  const config = await loadPersonalityConfig(db, guildId);
  if (!config.configured) throw new JobFailure('invalid_input', NOT_INITIALIZED);
  const [questions, view] = await Promise.all([
    loadPersonalityQuestions(db, guildId),
    guildRolesViewByRest(client, guildId),
  ]);
  await context.progress(10);
  const roles = await ensurePersonalityRoles(context, questions, view, {
    onProgress: (fraction) => context.progress(10 + 85 * fraction),
  });
  const fresh = roles.created + roles.adopted > 0 ? await loadPersonalityQuestions(db, guildId) : questions;
  const access = await ensureChannelAccess(context, fresh, liveRoleCheck(view, questions, fresh));
  await matchRefreshSchedule(context.deps, guildId, true);
  await context.progress(100);
  const total = questions.filter((q) => q.isEnabled).reduce((n, q) => n + q.options.length, 0);
  const present = total - roles.created - roles.adopted;
  return withWarnings(
    {
      ok: true,
      summary: `${plural(roles.created + roles.adopted, 'role')} created, ${present} already present.`,
      created: roles.created + roles.adopted,
    },
    [...roles.warnings, ...access.warnings],
  );
}
