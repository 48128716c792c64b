import type { WorkerFeature } from '../feature.ts';
import { roleMenuInteractions } from './interactions.ts';
import { postRoleMenus } from './post.ts';

/**
 * Role menus: the mechanism every role menu runs on, and the admin's own menus. The mechanism
 * (posting and repairing panels: `panel.ts`, `jobs.ts`, `deleted.ts`; reactions: `events.ts`,
 * `reconcile.ts`; members' roles and picks: `member-roles.ts`, `menus.ts`, `roles.ts`) serves
 * the admin's menus and the reaction lists alike; the `reaction-roles` feature runs its jobs,
 * events and schedule. The admin's own menus are of any roles, as buttons, a select menu or
 * reactions, with a mode (core's `planMenuPick`): Post / Update posts them (`post.ts`); members'
 * clicks are answered privately and applied under the same per-member lock as their reactions.
 */
export const roleMenusFeature = {
  name: 'role-menus',
  jobs: {
    'role-menus.post': postRoleMenus,
  },
  components: [roleMenuInteractions],
} satisfies WorkerFeature;
