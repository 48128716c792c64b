import type { JobResult } from '@spacecadet/contract';
import { clearMenuPostRequest, loadOwnMenus } from '@spacecadet/db/queries/role-menus';
import { addGuildJob } from '@spacecadet/queue/guild-jobs';
import { type JobContext, JobFailure } from '../../jobs/types.ts';
import { guildRolesViewByRest } from '../../roles/guild-roles.ts';
import { withWarnings } from './jobs.ts';
import { anyMenuPosted, isReactionMenu, otherMenusMessages } from './menus.ts';
import { menuName } from './names.ts';
import { type MenuSync, syncMenuPanel } from './panel.ts';
import { matchRepairSchedule } from './schedule.ts';

const NOTHING_REQUESTED =
  'Nothing to post: no role menu is waiting to be posted. Press Post on a menu in the dashboard.';

/** What a post did, in the admin's words: one menu, or several posted together. */
function postSummary(kinds: ReadonlySet<MenuSync['kind']>, count: number): string {
  const what = count === 1 ? 'Role menu' : 'Role menus';
  if (kinds.has('moved')) return `${what} updated and moved to the new channel.`;
  if (kinds.size === 1 && kinds.has('posted')) return `${what} posted.`;
  if (kinds.size === 1 && kinds.has('removed')) return `${what} removed: no options are left to show.`;
  return `${what} updated.`;
}

/**
 * `role-menus.post` (Post / Update of an admin's own menu): every menu of the guild whose post
 * was asked for (`post_requested_at`) is posted, edited in place, re-posted where its message
 * was deleted, or moved to its new channel (`syncMenuPanel`, the reaction panels' own code: it
 * stores ids as it posts and adopts by title what a killed run posted, so a rerun leaves one
 * message); once every menu is done the requests are cleared, unless made again meanwhile. Messages a
 * reaction menu kept may carry reactions made while no worker listened: a reconcile follows.
 * A menu that cannot be posted (no channel, missing permissions) fails the job with the reason
 * when it was the only one, and is a warning beside the others'.
 */
export async function postRoleMenus(context: JobContext): Promise<JobResult> {
  await context.progress(0);
  const { deps } = context;
  const guildId = context.payload.guild_id;
  const requested = (await loadOwnMenus(deps.db, guildId)).filter((menu) => menu.postRequestedAt);
  if (requested.length === 0) throw new JobFailure('invalid_input', NOTHING_REQUESTED);
  const roles = await guildRolesViewByRest(deps.client, guildId);
  const outcomes: MenuSync[] = [];
  const failures: JobFailure[] = [];
  let reconcile = false;
  for (const menu of requested) {
    const others = await otherMenusMessages(deps, guildId, menu.id);
    try {
      const outcome = await syncMenuPanel(context, menu, roles, { postNew: true, others });
      if (outcome.kind === 'none') {
        outcome.warnings.push(`${menuName(menu)}: it has no options to post. Add one, then post again.`);
      }
      outcomes.push(outcome);
      if (isReactionMenu(menu) && outcome.kept > 0) reconcile = true;
    } catch (error) {
      // Told to the admin now; asking again after fixing it posts again.
      if (!(error instanceof JobFailure)) throw error;
      failures.push(error);
    }
  }
  await matchRepairSchedule(deps, guildId, await anyMenuPosted(deps, guildId));
  const acted = outcomes.filter((outcome) => outcome.kind !== 'skipped' && outcome.kind !== 'none');
  if (acted.length > 0 && reconcile) {
    await addGuildJob(deps.queue, 'role-menus.reconcile', guildId, null, { afterChange: true });
  }
  // Cleared last: a run that stops before this (an error, a killed worker) is rerun whole, and
  // syncing a menu again leaves it as it is; cleared earlier, the rerun found nothing to post.
  for (const menu of requested) {
    if (menu.postRequestedAt) await clearMenuPostRequest(deps.db, menu.id, menu.postRequestedAt);
  }

  const failed = failures.map((failure) => failure.detail);
  if (acted.length === 0) {
    const [only] = failures;
    if (only && failures.length === 1 && outcomes.length === 0) throw only;
    const warnings = [...failed, ...outcomes.flatMap((outcome) => outcome.warnings)];
    throw new JobFailure('invalid_input', warnings.join(' ') || NOTHING_REQUESTED);
  }
  await context.progress(100);
  const summary = postSummary(new Set(acted.map((outcome) => outcome.kind)), acted.length);
  return withWarnings({ ok: true, summary }, outcomes, failed);
}
