import type { ReactionList } from '@spacecadet/contract';
import { REACTION_LISTS } from '@spacecadet/contract';
import { REACTION_LIST_MENUS, type RoleMenuOption } from '@spacecadet/core';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db, DbTransaction } from '../client.ts';
import { type RoleMenuRow, roleMenus } from '../schema/role-menus.ts';

/**
 * Every change of a guild's role menus (the reaction lists included) is announced on this
 * Postgres channel (trigger, migration 0009), the guild id as payload.
 */
export const ROLE_MENUS_SETUP_CHANNEL = 'role_menus_changed';

/** Every menu of the guild, the two reaction lists first, then by creation. */
export function loadGuildMenus(db: Db | DbTransaction, guildId: string): Promise<RoleMenuRow[]> {
  return db
    .select()
    .from(roleMenus)
    .where(eq(roleMenus.guildId, guildId))
    .orderBy(
      sql`${roleMenus.listKey} is null`,
      asc(roleMenus.listKey),
      asc(roleMenus.createdAt),
      asc(roleMenus.id),
    );
}

/** The guild's two reaction lists (null: never saved). */
export async function loadReactionLists(
  db: Db | DbTransaction,
  guildId: string,
): Promise<Record<ReactionList, RoleMenuRow | null>> {
  const rows = await db
    .select()
    .from(roleMenus)
    .where(and(eq(roleMenus.guildId, guildId), isNotNull(roleMenus.listKey)));
  const byList = { color_roles: null, personality_roles: null } as Record<ReactionList, RoleMenuRow | null>;
  for (const row of rows) if (row.listKey) byList[row.listKey] = row;
  return byList;
}

/** The values a reaction list's row starts with (style, mode and title are the list's). */
function listDefaults(guildId: string, list: ReactionList) {
  const menu = REACTION_LIST_MENUS[list];
  return { guildId, listKey: list, title: menu.title, style: 'reactions', mode: menu.mode } as const;
}

/**
 * Replaces both lists' rows in one transaction (a list's channel and posted messages stay);
 * answers the write's time.
 */
export async function saveReactionLists(
  db: Db,
  guildId: string,
  lists: Readonly<Record<ReactionList, RoleMenuOption[]>>,
  userId: string,
): Promise<Date> {
  const updatedAt = new Date();
  await db.transaction(async (tx) => {
    for (const list of REACTION_LISTS) {
      const values = { options: lists[list], updatedBy: userId, updatedAt };
      await tx
        .insert(roleMenus)
        .values({ ...listDefaults(guildId, list), ...values })
        .onConflictDoUpdate({ target: [roleMenus.guildId, roleMenus.listKey], set: values });
    }
  });
  return updatedAt;
}

/** Sets the channel a list's panel goes to (its posted messages move on the next post). */
export async function saveReactionListChannel(
  db: Db,
  guildId: string,
  list: ReactionList,
  channelId: string,
  userId: string,
): Promise<void> {
  const values = { channelId, updatedBy: userId, updatedAt: new Date() };
  await db
    .insert(roleMenus)
    .values({ ...listDefaults(guildId, list), ...values })
    .onConflictDoUpdate({ target: [roleMenus.guildId, roleMenus.listKey], set: values });
}

/**
 * Records the messages a post left for the menu (in order) and their channel; none: the menu
 * is not posted anywhere. Only the posted messages change, not `updated_at` (an admin's edit).
 */
export async function saveMenuMessages(
  db: Db | DbTransaction,
  menuId: string,
  posted: { messageIds: readonly string[]; channelId: string | null },
): Promise<void> {
  await db
    .update(roleMenus)
    .set({
      messageIds: [...posted.messageIds],
      messageChannelId: posted.messageIds.length > 0 ? posted.channelId : null,
    })
    .where(eq(roleMenus.id, menuId));
}

/** Guilds with a posted menu: those the 5-minute safety net checks. */
export async function guildsWithPostedMenus(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ guildId: roleMenus.guildId })
    .from(roleMenus)
    .where(sql`cardinality(${roleMenus.messageIds}) > 0`)
    .orderBy(roleMenus.guildId);
  return rows.map((row) => row.guildId);
}
