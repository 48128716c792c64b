import { REACTION_LIST_MENUS } from '@spacecadet/core';
import type { RoleMenuRow } from '@spacecadet/db/schema';

/** How warnings and logs name a menu: the list's title, else the menu's own. */
export function menuName(menu: RoleMenuRow): string {
  return menu.listKey ? REACTION_LIST_MENUS[menu.listKey].title : menu.title || 'Role menu';
}
