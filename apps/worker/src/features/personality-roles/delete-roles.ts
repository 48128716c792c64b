import type { JobResult } from '@spacecadet/contract';
import { loadPersonalityCleanup } from '@spacecadet/db/queries/personality-roles';
import type { JobContext } from '../../jobs/types.ts';
import { deleteRetiredInDiscord } from './reset.ts';
import { withWarnings } from './roles.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * `personality-roles.delete-roles`: a disabled question's roles, which the API already took off
 * its options and put on the cleanup list, are deleted in Discord (with anything else the list
 * still holds). Idempotent: a role already gone counts as done, and a second run finds nothing.
 */
export async function deleteRetiredPersonalityRoles(context: JobContext): Promise<JobResult> {
  await context.progress(0);
  const all = await loadPersonalityCleanup(context.deps.db, context.payload.guild_id);
  const warnings: string[] = [];
  const { roles, messages, prompts } = await deleteRetiredInDiscord(context, all, warnings, (fraction) =>
    context.progress(95 * fraction),
  );
  await context.progress(100);
  const more = [
    ...(messages > 0 ? [plural(messages, 'message')] : []),
    ...(prompts > 0 ? [plural(prompts, 'Onboarding question')] : []),
  ];
  const said = more.length > 0 ? `${plural(roles, 'role')}, ${more.join(', ')}` : plural(roles, 'role');
  return withWarnings(
    { ok: true, summary: `${said} deleted.`, deleted: roles + messages + prompts },
    warnings,
  );
}
