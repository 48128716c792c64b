import type { RoleMenuMode } from '@spacecadet/contract';
import { SNOWFLAKE_DIGITS } from '@spacecadet/contract/ids';

/**
 * What a member's pick on a role menu does: the one rule of every style and mode, which roles
 * the bot may give at all, the custom_id codec of a menu's buttons and select, and the private
 * answer the member gets. The layout of the menus themselves is in `role-menus.ts`.
 */

/** What a member's pick on a menu does to their roles (or why it is refused). */
export type MenuPickPlan =
  | { kind: 'change'; add: string[]; remove: string[] }
  | { kind: 'refused'; reason: 'required_role'; roleId: string }
  | { kind: 'refused'; reason: 'limit'; max: number };

export interface MenuPickRules {
  mode: RoleMenuMode;
  options: readonly { role_id: string }[];
  max_roles?: number | null | undefined;
  required_role_id?: string | null | undefined;
}

/**
 * The one rule of every menu style: what `pick` (`add`: a reaction added or an option chosen;
 * `remove`: a reaction removed or an option unchosen) of `roleId` does to a member who holds
 * `held`. normal toggles; unique keeps at most one role of the menu (picking another swaps);
 * verify only adds; drop only removes (an add of a role removes it); limit adds while the member
 * holds fewer than `max_roles` of the menu's roles. A menu's required role must be held first.
 */
export function planMenuPick(
  menu: MenuPickRules,
  held: ReadonlySet<string>,
  roleId: string,
  pick: 'add' | 'remove',
): MenuPickPlan {
  if (menu.required_role_id && !held.has(menu.required_role_id)) {
    return { kind: 'refused', reason: 'required_role', roleId: menu.required_role_id };
  }
  const menuRoles = menu.options.map((option) => option.role_id);
  const has = held.has(roleId);
  const change = (add: string[], remove: string[]): MenuPickPlan => ({ kind: 'change', add, remove });
  if (pick === 'remove') {
    return menu.mode === 'normal' || menu.mode === 'unique' || menu.mode === 'limit'
      ? change([], has ? [roleId] : [])
      : change([], []);
  }
  switch (menu.mode) {
    case 'drop':
      return change([], has ? [roleId] : []);
    case 'unique':
      return change(
        has ? [] : [roleId],
        menuRoles.filter((id) => id !== roleId && held.has(id)),
      );
    case 'limit': {
      if (has) return change([], []);
      const max = menu.max_roles ?? menuRoles.length;
      const count = menuRoles.filter((id) => held.has(id)).length;
      return count >= max ? { kind: 'refused', reason: 'limit', max } : change([roleId], []);
    }
    default:
      return change(has ? [] : [roleId], []);
  }
}

/**
 * What a click asks of `planMenuPick` (a button, or one chosen value of a select): a click on a
 * role the member holds drops it where the mode lets members drop roles (normal, unique, limit:
 * "click again to drop it"), so a click toggles; otherwise it is an add (verify keeps the role,
 * drop removes it on an add). A reaction needs none of this: adding and removing are its own.
 */
export function menuClickPick(
  mode: RoleMenuMode,
  held: ReadonlySet<string>,
  roleId: string,
): 'add' | 'remove' {
  return held.has(roleId) && (mode === 'normal' || mode === 'unique' || mode === 'limit') ? 'remove' : 'add';
}

/** Why a member cannot be given a role by the bot, whatever the menu. */
export type RoleGrantRefusal = 'everyone' | 'managed' | 'not_below_bot';

/**
 * The one rule of which roles the bot can give (the API refuses a row with one, the worker
 * warns and refuses its picks): not @everyone (the guild's id), not managed by an integration,
 * and below the bot's highest role (`botTopPosition`, 0 when it has none), as Discord requires.
 */
export function roleGrantRefusal(
  role: { id: string; managed: boolean; position: number },
  guildId: string,
  botTopPosition: number,
): RoleGrantRefusal | null {
  if (role.id === guildId) return 'everyone';
  if (role.managed) return 'managed';
  if (role.position >= botTopPosition) return 'not_below_bot';
  return null;
}

/**
 * The custom_id of a role menu's components: `menu:<menu id>:<role id>` for a button,
 * `menu:<menu id>` for the select (its values are role ids). Role ids rather than positions
 * keep a posted button meaning its role after the options are reordered.
 */
export const ROLE_MENU_CUSTOM_ID_PREFIX = 'menu:';

export function roleMenuCustomId(menuId: string, roleId?: string): string {
  return roleId === undefined
    ? `${ROLE_MENU_CUSTOM_ID_PREFIX}${menuId}`
    : `${ROLE_MENU_CUSTOM_ID_PREFIX}${menuId}:${roleId}`;
}

/** `menu:<menu id>` or `menu:<menu id>:<role id>`, the role id a Discord id as the contract defines it. */
const ROLE_MENU_CUSTOM_ID = new RegExp(
  `^${ROLE_MENU_CUSTOM_ID_PREFIX}([0-9a-f-]{1,40})(?::(${SNOWFLAKE_DIGITS}))?$`,
);

export function parseRoleMenuCustomId(customId: string): { menuId: string; roleId: string | null } | null {
  const match = ROLE_MENU_CUSTOM_ID.exec(customId);
  if (!match?.[1]) return null;
  return { menuId: match[1], roleId: match[2] ?? null };
}

/**
 * What a button or select pick answers the member, privately: a refusal (the required role by
 * name, the limit), else the menu's roles they hold now (`held`: their roles after the change).
 */
export function roleMenuAnswer(
  menu: { options: readonly { role_id: string }[] },
  plan: MenuPickPlan,
  held: ReadonlySet<string>,
): string {
  if (plan.kind === 'refused') {
    return plan.reason === 'required_role'
      ? `This menu is for members with the <@&${plan.roleId}> role; you don't have it yet.`
      : `You can hold at most ${plan.max} role${plan.max === 1 ? '' : 's'} of this menu. Drop one first.`;
  }
  const mentions = (ids: readonly string[]) => listWords(ids.map((roleId) => `<@&${roleId}>`));
  const mine = menu.options.filter((option) => held.has(option.role_id)).map((option) => option.role_id);
  if (plan.add.length === 0 && plan.remove.length === 0) {
    return mine.length > 0
      ? `Nothing changed: your roles from this menu are ${mentions(mine)}.`
      : "Nothing changed: you have none of this menu's roles.";
  }
  const said =
    plan.add.length > 0
      ? `You now have ${mentions(plan.add)}${plan.remove.length > 0 ? ` and no longer ${mentions(plan.remove)}` : ''}.`
      : `You no longer have ${mentions(plan.remove)}.`;
  // The other roles of the menu the member keeps, when there are any beyond what was just said.
  const kept = mine.filter((roleId) => !plan.add.includes(roleId));
  return kept.length > 0 ? `${said} Your roles from this menu: ${mentions(mine)}.` : said;
}

/** "a", "a and b", "a, b and c". */
function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
