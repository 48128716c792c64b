import type { WorkerFeature } from '../feature.ts';
import { reactionEvents } from '../role-menus/events.ts';
import { reconcileRoleMenus, repairRoleMenus } from '../role-menus/jobs.ts';
import { closeGuildMenus } from '../role-menus/menus.ts';
import { roleMenusRepairSchedule } from '../role-menus/schedule.ts';
import { postReactionPanels } from './post-panel.ts';

/**
 * Reaction roles: the editor's two lists (role menus of style `reactions`) posted as panels,
 * 20 reactions a message; members react to get a row's role and unreact to drop it, as the
 * menu's mode says (core's `planMenuPick`). Posted panels are repaired when a message or the
 * bot's reactions go, every 5 minutes, and members' reactions made while the bot was away are
 * reconciled when it comes back. Only the lists' Post / Update (`post-panel.ts`) is theirs alone;
 * the mechanism this feature runs for every role menu (panels, repair, reconcile, reactions)
 * lives in `features/role-menus/`.
 */
export const reactionRolesFeature = {
  name: 'reaction-roles',
  jobs: {
    'reaction-roles.post-panel': postReactionPanels,
    'role-menus.repair': repairRoleMenus,
    'role-menus.reconcile': reconcileRoleMenus,
  },
  events: reactionEvents,
  schedules: [roleMenusRepairSchedule],
  shutdown: closeGuildMenus,
} satisfies WorkerFeature;
