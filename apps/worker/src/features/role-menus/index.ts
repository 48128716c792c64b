import type { WorkerFeature } from '../feature.ts';
import { roleMenuInteractions } from './interactions.ts';
import { postRoleMenus } from './post.ts';

/**
 * Role menus of the admin's own: menus of any roles, as buttons, a select menu or reactions,
 * with a mode (core's `planMenuPick`). Post / Update posts them with the reaction panels' code
 * (`reaction-roles/panel.ts`); members' clicks are answered privately and applied under the
 * same per-member lock as their reactions. Reactions on a reaction-style menu, the repair
 * (which also deletes deleted menus' messages) and the reconcile are the `reaction-roles`
 * feature's: one mechanism for every role menu.
 */
export const roleMenusFeature = {
  name: 'role-menus',
  jobs: {
    'role-menus.post': postRoleMenus,
  },
  components: [roleMenuInteractions],
} satisfies WorkerFeature;
