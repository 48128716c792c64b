import { type MenuPickPlan, menuClickPick, planMenuPick, roleMenuAnswer } from '@spacecadet/core';
import type { WorkerDeps } from '../../deps.ts';
import { registerPickFeature } from '../../interactions/member-lock.ts';
import type { EphemeralAnswer } from '../../interactions/respond.ts';
import { MEMBER_COLOR_LOCK } from '../../roles/member-color.ts';
import { rolesSeenBy } from '../../roles/recent-changes.ts';
import { recordMenuTempRole } from '../temp-roles/menu.ts';
import { applyRoleChange, MENU_PICK_FEATURE, recordMenuPicks } from './member-roles.ts';
import { menuRules, ownMenu } from './menus.ts';

export const ROLE_MENU_OUT_OF_DATE = 'This menu is out of date. Ask an admin to post it again.';

/** Discord refused a role change the checks before it allowed (the role went, or moved above). */
export function roleNotChangedMessage(roleId: string): string {
  return `I couldn't change <@&${roleId}> for you: it was deleted, or my role is not above it in Server Settings → Roles. Ask an admin.`;
}

/**
 * A button or select click on a role menu as recorded for the member's lock holder: the menu
 * (the pick's group), the roles picked in order (a button's one, a select's chosen values), the
 * member's roles as Discord sent them with the click, and when they were current on this
 * process's clock (`performance.now()`), so changes of ours that landed since are laid over them.
 */
export interface MenuPick {
  guildId: string;
  userId: string;
  menuId: string;
  roleIds: string[];
  payloadRoles: string[];
  seenAt: number;
}

/**
 * Role menu picks, under the member's one lock for every pick of every menu, reactions and the
 * colour panel included (`memberColorLockKey`): a menu's palette roles change through
 * `changeMemberColor`, one colour at a time whatever the menu's mode. Unlike colours, where only the newest click counts, every
 * waiting pick is applied in click order: each is one `planMenuPick` (a click toggles where the
 * mode lets members drop roles: core's `menuClickPick`) from the roles the one before left, so
 * two quick clicks on a unique menu end with one role, and two toggles both count. The menu is
 * read again here (the admin may have changed it since the click): a role no longer on it is
 * not touched. Every click of the batch is answered with what the
 * member ends with (core's `roleMenuAnswer`), and the last pick's refusal if it was refused.
 */
export const MENU_PICKS = registerPickFeature<MenuPick>({
  feature: MENU_PICK_FEATURE,
  lock: MEMBER_COLOR_LOCK,
  async apply(deps, picks) {
    const newest = picks.at(-1)?.pick;
    if (!newest) return null;
    return applyMenuPicks(
      deps,
      newest,
      picks.flatMap(({ pick }) => pick.roleIds),
    );
  },
});

async function applyMenuPicks(
  deps: WorkerDeps,
  newest: MenuPick,
  roleIds: readonly string[],
): Promise<EphemeralAnswer> {
  const { guildId, userId } = newest;
  const menu = await ownMenu(deps, guildId, newest.menuId);
  if (!menu) return { content: ROLE_MENU_OUT_OF_DATE };
  const menuRoles = new Set(menu.options.map((option) => option.role_id));
  // The newest click's roles are Discord's latest; what we changed since is laid over them.
  const held = rolesSeenBy(guildId, userId, newest.payloadRoles, newest.seenAt);
  const before = new Set([...held].filter((roleId) => menuRoles.has(roleId)));
  const rules = menuRules(menu);
  const touched = new Set<string>();
  let refusal: Extract<MenuPickPlan, { kind: 'refused' }> | null = null;
  let notChanged: string | null = null;
  for (const roleId of roleIds) {
    if (!menuRoles.has(roleId)) continue;
    const plan = planMenuPick(rules, held, roleId, menuClickPick(menu.mode, held, roleId));
    if (plan.kind === 'refused') {
      refusal = plan;
      continue;
    }
    refusal = null;
    const change = await applyRoleChange(deps, guildId, userId, plan, held, menu.id);
    for (const id of [roleId, ...plan.add, ...plan.remove, ...change.removed]) {
      if (menuRoles.has(id)) touched.add(id);
    }
    if (!change.ok) {
      notChanged = change.notChanged[0] ?? roleId;
      break;
    }
  }
  recordMenuPicks(deps, menu, userId, touched, held);
  if (notChanged) return { content: roleNotChangedMessage(notChanged) };
  const order = menu.options.map((option) => option.role_id);
  const change: MenuPickPlan = {
    kind: 'change',
    add: order.filter((roleId) => held.has(roleId) && !before.has(roleId)),
    remove: order.filter((roleId) => before.has(roleId) && !held.has(roleId)),
  };
  for (const option of menu.options) {
    if (option.expires_after_s !== undefined && change.add.includes(option.role_id)) {
      await recordMenuTempRole(deps, guildId, userId, option.role_id, option.expires_after_s);
    }
  }
  const changed = change.add.length + change.remove.length > 0;
  const answer = [
    ...(changed || !refusal ? [roleMenuAnswer(menu, change, held)] : []),
    ...(refusal ? [roleMenuAnswer(menu, refusal, held)] : []),
  ];
  return { content: answer.join(' ') };
}
