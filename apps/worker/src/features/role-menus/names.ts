import { REACTION_LIST_MENUS } from '@spacecadet/core';
import type { RoleMenuRow } from '@spacecadet/db/schema';

/**
 * A menu's name: its panel's title (a longer panel adds " (1/2)"), and how warnings and logs
 * name it: the list's title, else the menu's own.
 */
export function menuName(menu: RoleMenuRow): string {
  return menu.listKey ? REACTION_LIST_MENUS[menu.listKey].title : menu.title || 'Role menu';
}
