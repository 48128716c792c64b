import { menuEmojiKey } from '@spacecadet/contract';
import {
  buildReactionListPanel,
  buildRoleMenuMessages,
  type MenuPickRules,
  type ReactionPanelRow,
  type RoleMenuMessage,
  type RoleMenuOption,
} from '@spacecadet/core';
import { loadGuildMenus, ROLE_MENUS_SETUP_CHANNEL } from '@spacecadet/db/queries/role-menus';
import type { RoleMenuRow } from '@spacecadet/db/schema';
import type { WorkerDeps } from '../../deps.ts';
import { guildSetupCache } from '../../guild-setup-cache.ts';
import { menuName } from './names.ts';

/**
 * A role menu's messages as the worker posts them: the editor's two lists by their own title,
 * colour and hint (core's `buildReactionListPanel`), an admin's own menu by its row (core's
 * `buildRoleMenuMessages`, which the dashboard previews with).
 */
export function menuPages(
  menu: RoleMenuRow,
  options: readonly RoleMenuOption[] = menu.options,
): RoleMenuMessage[] {
  if (menu.listKey) return buildReactionListPanel(menu.listKey, options);
  return buildRoleMenuMessages({
    id: menu.id,
    title: menuName(menu),
    description: menu.description,
    color: menu.color,
    style: menu.style,
    mode: menu.mode,
    max_roles: menu.maxRoles,
    options,
  });
}

/** What `planMenuPick` needs of a menu. */
export function menuRules(menu: RoleMenuRow): MenuPickRules {
  return {
    mode: menu.mode,
    options: menu.options,
    max_roles: menu.maxRoles,
    required_role_id: menu.requiredRoleId,
  };
}

export function isReactionMenu(menu: RoleMenuRow): boolean {
  return menu.style === 'reactions';
}

/**
 * The message ids the guild's other menus recorded, deleted menus' included (their messages
 * wait for the repair to delete them): never adopted as this menu's by their title.
 */
export async function otherMenusMessages(
  deps: WorkerDeps,
  guildId: string,
  menuId: string,
): Promise<Set<string>> {
  const menus = await loadGuildMenus(deps.db, guildId, { deleted: true });
  return new Set(menus.filter((other) => other.id !== menuId).flatMap((other) => other.messageIds));
}

/** Whether some menu of the guild, a deleted one too, has posted messages (the 5-minute repair's guilds). */
export async function anyMenuPosted(deps: WorkerDeps, guildId: string): Promise<boolean> {
  const menus = await loadGuildMenus(deps.db, guildId, { deleted: true });
  return menus.some((menu) => menu.messageIds.length > 0);
}

/** A guild's menus, for the gateway: which menu a reaction's message or a click belongs to. */
export interface GuildMenus {
  /** Every menu of the guild (not deleted), by id: what a button or select click names. */
  byId: ReadonlyMap<string, RoleMenuRow>;
  /** Message id → its reaction menu. */
  byMessage: ReadonlyMap<string, RoleMenuRow>;
  /** Per menu id: emoji key (`menuEmojiKey`) → the row it picks, in list order. */
  rows: ReadonlyMap<string, ReadonlyMap<string, MenuRow>>;
  /** Some reaction menu of the guild has posted messages. */
  posted: boolean;
}

/** A row of a posted menu and the index of the message that carries its reaction. */
export interface MenuRow extends ReactionPanelRow {
  page: number;
}

/** Emoji key → row of every option of the menu that has a valid emoji, in list order. */
export function menuRowsByEmoji(menu: RoleMenuRow): Map<string, MenuRow> {
  const rows = new Map<string, MenuRow>();
  for (const [page, message] of menuPages(menu).entries()) {
    for (const row of message.rows) {
      const key = menuEmojiKey(row.emoji);
      if (!rows.has(key)) rows.set(key, { ...row, page });
    }
  }
  return rows;
}

/** Every guild without menus shares this one (read only), so most guilds cost no Maps of their own. */
const NO_MENUS: GuildMenus = { byId: new Map(), byMessage: new Map(), rows: new Map(), posted: false };

/**
 * Each guild's menus in memory, so a reaction or a click is matched to its menu without a
 * Postgres query; dropped when Postgres announces a change of the guild's menus (trigger,
 * migration 0009).
 */
export const guildMenus = guildSetupCache<GuildMenus>({
  name: 'role-menus',
  channel: ROLE_MENUS_SETUP_CHANNEL,
  max: 20_000,
  async load(deps, guildId) {
    const menus = await loadGuildMenus(deps.db, guildId);
    if (menus.length === 0) return NO_MENUS;
    const byMessage = new Map<string, RoleMenuRow>();
    const rows = new Map<string, ReadonlyMap<string, MenuRow>>();
    for (const menu of menus.filter(isReactionMenu)) {
      for (const id of menu.messageIds) byMessage.set(id, menu);
      rows.set(menu.id, menuRowsByEmoji(menu));
    }
    const byId = new Map(menus.map((menu) => [menu.id, menu]));
    return { byId, byMessage, rows, posted: byMessage.size > 0 };
  },
});

export function closeGuildMenus(deps: WorkerDeps): Promise<void> {
  return guildMenus.close(deps);
}

/** One of the admin's own menus of the guild, from the cache (null: none, a list's, deleted). */
export async function ownMenu(
  deps: WorkerDeps,
  guildId: string,
  menuId: string,
): Promise<RoleMenuRow | null> {
  const menu = (await guildMenus.get(deps, guildId)).byId.get(menuId);
  return menu && menu.listKey === null ? menu : null;
}
