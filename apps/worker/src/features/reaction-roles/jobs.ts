import { type JobResult, REACTION_LISTS } from '@spacecadet/contract';
import { loadGuildMenus } from '@spacecadet/db/queries/role-menus';
import type { RoleMenuRow } from '@spacecadet/db/schema';
import { addGuildJob } from '@spacecadet/queue/guild-jobs';
import { type JobContext, JobFailure } from '../../jobs/types.ts';
import { guildRolesViewByRest } from '../../roles/guild-roles.ts';
import { isReactionMenu } from './menus.ts';
import { type MenuSync, syncMenuPanel } from './panel.ts';
import { reconcileMenuMembers } from './reconcile.ts';
import { matchRepairSchedule } from './schedule.ts';

const NOTHING_TO_POST =
  'Nothing to post: give a list at least one row and pick its channel, then post again.';

function recordedByOthers(menus: readonly RoleMenuRow[], menu: RoleMenuRow): Set<string> {
  return new Set(menus.filter((other) => other.id !== menu.id).flatMap((other) => other.messageIds));
}

/** Syncs each menu in turn; each reads the guild's menus again (an earlier one stored ids). */
async function syncMenus(
  context: JobContext,
  pick: (menus: readonly RoleMenuRow[]) => RoleMenuRow[],
  postNew: boolean,
): Promise<MenuSync[]> {
  const { db, client } = context.deps;
  const guildId = context.payload.guild_id;
  const roles = await guildRolesViewByRest(client, guildId);
  const outcomes: MenuSync[] = [];
  for (const menu of pick(await loadGuildMenus(db, guildId))) {
    const others = recordedByOthers(await loadGuildMenus(db, guildId), menu);
    outcomes.push(await syncMenuPanel(context, menu, roles, { postNew, others }));
  }
  const posted = (await loadGuildMenus(db, guildId)).some((menu) => menu.messageIds.length > 0);
  await matchRepairSchedule(context.deps, guildId, posted);
  return outcomes;
}

function withWarnings(result: JobResult, outcomes: readonly MenuSync[]): JobResult {
  const warnings = outcomes.flatMap((outcome) => outcome.warnings);
  return warnings.length > 0 ? { ...result, warnings } : result;
}

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

/** The menus a repair looks after: every posted reaction menu. */
const postedMenus = (menus: readonly RoleMenuRow[]) =>
  menus.filter((menu) => isReactionMenu(menu) && menu.messageIds.length > 0);

/**
 * `role-menus.repair`: every posted menu of the guild back in line with its stored rows (Post /
 * Update's own code), never posting a menu that has no messages yet. Queued after a save, on a
 * delete of a panel message, when a reaction was cleared, and every 5 minutes.
 */
export async function repairRoleMenus(context: JobContext): Promise<JobResult> {
  const outcomes = await syncMenus(context, postedMenus, false);
  const changes = outcomes.reduce((sum, outcome) => sum + outcome.changes, 0);
  await context.progress(100);
  return withWarnings(
    { ok: true, summary: changes > 0 ? 'Reaction panels repaired.' : 'Everything was in place.' },
    outcomes,
  );
}

/**
 * `role-menus.reconcile`: the repair, then members' roles matched to their reactions on every
 * posted menu (reactions made or removed while no worker listened). Queued when the bot comes
 * back to a guild, and after a post that kept existing messages.
 */
export async function reconcileRoleMenus(context: JobContext): Promise<JobResult> {
  const repaired = await repairRoleMenus(context);
  const { db, client } = context.deps;
  const guildId = context.payload.guild_id;
  const roles = await guildRolesViewByRest(client, guildId);
  let granted = 0;
  let removed = 0;
  const warnings = [...(repaired.warnings ?? [])];
  for (const menu of postedMenus(await loadGuildMenus(db, guildId))) {
    const outcome = await reconcileMenuMembers(context, menu, roles);
    granted += outcome.granted;
    removed += outcome.removed;
    warnings.push(...outcome.warnings);
  }
  const said = [
    granted > 0 ? `${granted} role${granted === 1 ? '' : 's'} given` : '',
    removed > 0 ? `${removed} role${removed === 1 ? '' : 's'} removed` : '',
  ].filter(Boolean);
  const summary = said.length > 0 ? `Reactions reconciled: ${said.join(', ')}.` : repaired.summary;
  context.log.info({ granted, removed }, 'role menus reconciled');
  return { ...repaired, summary, ...(warnings.length > 0 ? { warnings } : {}) };
}
