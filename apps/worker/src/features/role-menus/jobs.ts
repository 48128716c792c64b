import type { JobResult } from '@spacecadet/contract';
import { loadGuildMenus } from '@spacecadet/db/queries/role-menus';
import type { RoleMenuRow } from '@spacecadet/db/schema';
import type { JobContext } from '../../jobs/types.ts';
import { guildRolesViewByRest } from '../../roles/guild-roles.ts';
import { removeDeletedMenus } from './deleted.ts';
import { anyMenuPosted, isReactionMenu, otherMenusMessages } from './menus.ts';
import { type MenuSync, syncMenuPanel } from './panel.ts';
import { reconcileMenuMembers } from './reconcile.ts';
import { matchRepairSchedule } from './schedule.ts';

/**
 * The jobs every role menu shares: syncing a guild's menus with their stored rows (Post /
 * Update's own code), the repair of every posted menu and the reconcile of members' reactions.
 */

/** Syncs each menu in turn; each reads the guild's menus again (an earlier one stored ids). */
export async function syncMenus(
  context: JobContext,
  pick: (menus: readonly RoleMenuRow[]) => RoleMenuRow[],
  postNew: boolean,
): Promise<MenuSync[]> {
  const { db, client } = context.deps;
  const guildId = context.payload.guild_id;
  const roles = await guildRolesViewByRest(client, guildId);
  const outcomes: MenuSync[] = [];
  for (const menu of pick(await loadGuildMenus(db, guildId))) {
    const others = await otherMenusMessages(context.deps, guildId, menu.id);
    outcomes.push(await syncMenuPanel(context, menu, roles, { postNew, others }));
  }
  await matchRepairSchedule(context.deps, guildId, await anyMenuPosted(context.deps, guildId));
  return outcomes;
}

/** The result with the warnings of every menu synced (and any others), when there are some. */
export function withWarnings(
  result: JobResult,
  outcomes: readonly MenuSync[],
  more: readonly string[] = [],
): JobResult {
  const warnings = [...more, ...outcomes.flatMap((outcome) => outcome.warnings)];
  return warnings.length > 0 ? { ...result, warnings } : result;
}

/** The menus a repair looks after: every posted menu, whatever its style. */
const postedMenus = (menus: readonly RoleMenuRow[]) => menus.filter((menu) => menu.messageIds.length > 0);

/**
 * `role-menus.repair`: the messages of menus the admin deleted go (and their rows), then every
 * posted menu of the guild, reactions, buttons or select, is brought back in line with its
 * stored row (Post / Update's own code), never posting a menu that has no messages yet. Queued
 * after a save or a delete, on a delete of a menu's message, when a reaction was cleared, and
 * every 5 minutes.
 */
export async function repairRoleMenus(context: JobContext): Promise<JobResult> {
  const deleted = await removeDeletedMenus(context);
  const outcomes = await syncMenus(context, postedMenus, false);
  const changes = deleted.removed + outcomes.reduce((sum, outcome) => sum + outcome.changes, 0);
  await context.progress(100);
  return withWarnings(
    { ok: true, summary: changes > 0 ? 'Role menus repaired.' : 'Everything was in place.' },
    outcomes,
    deleted.warnings,
  );
}

/** The menus a reconcile reads the reactions of: posted reaction menus (buttons have none). */
const postedReactionMenus = (menus: readonly RoleMenuRow[]) => postedMenus(menus).filter(isReactionMenu);

/**
 * `role-menus.reconcile`: the repair, then members' roles matched to their reactions on every
 * posted reaction menu (reactions made or removed while no worker listened). Queued when the bot comes
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
  for (const menu of postedReactionMenus(await loadGuildMenus(db, guildId))) {
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
