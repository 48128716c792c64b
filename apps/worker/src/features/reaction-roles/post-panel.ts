import { type JobResult, REACTION_LISTS } from '@spacecadet/contract';
import { addGuildJob } from '@spacecadet/queue/guild-jobs';
import { type JobContext, JobFailure } from '../../jobs/types.ts';
import { syncMenus, withWarnings } from '../role-menus/jobs.ts';
import { isReactionMenu } from '../role-menus/menus.ts';

/** The reaction lists' own job: Post / Update of the editor's two lists, with role menus' code. */

const NOTHING_TO_POST =
  'Nothing to post: give a list at least one row and pick its channel, then post again.';

/**
 * `reaction-roles.post-panel` (the editor's Post / Update): posts or updates the panel of each
 * of the guild's two reaction lists (`syncMenuPanel`); a list without rows loses its panel, a
 * list without a channel is skipped with a warning. Messages that existed already may carry
 * member reactions made while no worker listened: a reconcile follows for them.
 */
export async function postReactionPanels(context: JobContext): Promise<JobResult> {
  await context.progress(0);
  const outcomes = await syncMenus(
    context,
    (menus) =>
      REACTION_LISTS.flatMap((list) => menus.filter((menu) => menu.listKey === list && isReactionMenu(menu))),
    true,
  );
  const acted = outcomes.filter((outcome) => !['skipped', 'none'].includes(outcome.kind));
  if (acted.length === 0) {
    const warnings = outcomes.flatMap((outcome) => outcome.warnings);
    throw new JobFailure('invalid_input', warnings.length > 0 ? warnings.join(' ') : NOTHING_TO_POST);
  }
  if (acted.some((outcome) => outcome.kept > 0)) {
    await addGuildJob(context.deps.queue, 'role-menus.reconcile', context.payload.guild_id, null, {
      afterChange: true,
    });
  }
  const kinds = new Set(acted.map((outcome) => outcome.kind));
  const summary = kinds.has('moved')
    ? 'Reaction panels updated and moved to the new channel.'
    : kinds.size === 1 && kinds.has('posted')
      ? 'Reaction panels posted.'
      : kinds.size === 1 && kinds.has('removed')
        ? 'Reaction panels removed: the lists have no rows.'
        : 'Reaction panels updated.';
  await context.progress(100);
  return withWarnings({ ok: true, summary }, outcomes);
}
