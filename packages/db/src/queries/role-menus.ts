import type { ReactionList } from '@spacecadet/contract';
import { REACTION_LISTS } from '@spacecadet/contract';
import { REACTION_LIST_MENUS, type RoleMenuOption } from '@spacecadet/core';
import { and, asc, count, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db, DbTransaction } from '../client.ts';
import { type RoleMenuRow, roleMenus } from '../schema/role-menus.ts';
import { inShards, type ShardFilter } from './shard-filter.ts';

/**
 * A guild's role menus (`role_menus`): the two reaction lists and the admin's own menus, which
 * are rows of one table.
 *
 * Why one file: both kinds share the table's columns, its posted-message bookkeeping and the
 * change notification below; their loads and saves differ only in which rows they take.
 */

/**
 * Every change of a guild's role menus (the reaction lists included) is announced on this
 * Postgres channel (trigger, migration 0009), the guild id as payload.
 */
export const ROLE_MENUS_SETUP_CHANNEL = 'role_menus_changed';

/**
 * Every menu of the guild, the two reaction lists first, then by creation; deleted menus (their
 * messages not yet deleted) only with `deleted: true`.
 */
export function loadGuildMenus(
  db: Db | DbTransaction,
  guildId: string,
  { deleted = false }: { deleted?: boolean } = {},
): Promise<RoleMenuRow[]> {
  return db
    .select()
    .from(roleMenus)
    .where(and(eq(roleMenus.guildId, guildId), deleted ? undefined : isNull(roleMenus.deletedAt)))
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
  channelId: string | null,
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
export async function guildsWithPostedMenus(db: Db, shards?: ShardFilter): Promise<string[]> {
  const rows = await db
    .selectDistinct({ guildId: roleMenus.guildId })
    .from(roleMenus)
    .where(and(sql`cardinality(${roleMenus.messageIds}) > 0`, inShards(roleMenus.guildId, shards)))
    .orderBy(roleMenus.guildId);
  return rows.map((row) => row.guildId);
}

/** An admin's own menu as the API stores it (everything but where it is posted). */
export interface RoleMenuValues {
  title: string;
  description: string;
  color: number | null;
  channelId: string;
  style: RoleMenuRow['style'];
  mode: RoleMenuRow['mode'];
  maxRoles: number | null;
  requiredRoleId: string | null;
  options: RoleMenuOption[];
}

/** The guild's admin's own menus (no `list_key`) not deleted; with `menuId`, that one of them. */
function ownMenu(guildId: string, menuId?: string) {
  return and(ownMenuEvenDeleted(guildId, menuId), isNull(roleMenus.deletedAt));
}

/** `ownMenu`, deleted ones too (their messages still in the channel). */
function ownMenuEvenDeleted(guildId: string, menuId?: string) {
  return and(
    menuId === undefined ? undefined : eq(roleMenus.id, menuId),
    eq(roleMenus.guildId, guildId),
    sql`${roleMenus.listKey} is null`,
  );
}

/** The admin's own menus of the guild (not the reaction lists, not deleted), oldest first. */
export function loadOwnMenus(db: Db | DbTransaction, guildId: string): Promise<RoleMenuRow[]> {
  return db
    .select()
    .from(roleMenus)
    .where(ownMenu(guildId))
    .orderBy(asc(roleMenus.createdAt), asc(roleMenus.id));
}

/** One of the admin's own menus of the guild (null: none, another guild's, or deleted). */
export async function loadOwnMenu(
  db: Db | DbTransaction,
  guildId: string,
  menuId: string,
): Promise<RoleMenuRow | null> {
  const [row] = await db.select().from(roleMenus).where(ownMenu(guildId, menuId));
  return row ?? null;
}

/** Serializes the guild's menu creates and revivals (the count of menus and the insert). */
async function lockGuildMenus(tx: Pick<Db, 'execute'>, guildId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`role_menus:${guildId}`}))`);
}

/**
 * Creates a menu unless the guild has `max` already (deleted ones waiting for their messages to
 * go count too: they are still in the channel): null then. The count and the insert run under a
 * per-guild transaction lock, so two quick creates cannot both be the 25th.
 */
export async function createOwnMenu(
  db: Db,
  guildId: string,
  values: RoleMenuValues,
  userId: string,
  max: number,
): Promise<RoleMenuRow | null> {
  return db.transaction(async (tx) => {
    await lockGuildMenus(tx, guildId);
    return insertWithinCap(tx, guildId, { guildId, ...values, updatedBy: userId }, max);
  });
}

/**
 * Inserts one of the guild's own menus unless it has `max` already (null then); the caller
 * holds `lockGuildMenus`. An id taken already (by any guild) inserts nothing: null too.
 */
async function insertWithinCap(
  tx: Pick<Db, 'select' | 'insert'>,
  guildId: string,
  row: typeof roleMenus.$inferInsert,
  max: number,
): Promise<RoleMenuRow | null> {
  const [counted] = await tx.select({ n: count() }).from(roleMenus).where(ownMenuEvenDeleted(guildId));
  if ((counted?.n ?? 0) >= max) return null;
  const [created] = await tx.insert(roleMenus).values(row).onConflictDoNothing().returning();
  return created ?? null;
}

/** Replaces one of the admin's own menus (where it is posted stays); null when there is none. */
export async function updateOwnMenu(
  db: Db,
  guildId: string,
  menuId: string,
  values: RoleMenuValues,
  userId: string,
): Promise<RoleMenuRow | null> {
  const [row] = await db
    .update(roleMenus)
    .set({ ...values, updatedBy: userId, updatedAt: new Date() })
    .where(ownMenu(guildId, menuId))
    .returning();
  return row ?? null;
}

/**
 * Deletes one of the admin's own menus: gone at once when it was never posted nor asked to be,
 * else marked deleted until the worker has deleted its messages (`dropDeletedMenu`). A menu
 * asked to be posted is marked too: a post job may be posting it right now, and the message it
 * stores on the row is then the repair's to delete (on a row gone, nothing would). Answers what
 * it did: null when there was no such menu.
 */
export async function deleteOwnMenu(
  db: Db,
  guildId: string,
  menuId: string,
  userId: string,
): Promise<'deleted' | 'marked' | null> {
  const own = ownMenu(guildId, menuId);
  return db.transaction(async (tx) => {
    const gone = await tx
      .delete(roleMenus)
      .where(and(own, sql`cardinality(${roleMenus.messageIds}) = 0`, isNull(roleMenus.postRequestedAt)))
      .returning({ id: roleMenus.id });
    if (gone.length > 0) return 'deleted';
    const marked = await tx
      .update(roleMenus)
      .set({ deletedAt: new Date(), updatedBy: userId, postRequestedAt: null })
      .where(own)
      .returning({ id: roleMenus.id });
    return marked.length > 0 ? 'marked' : null;
  });
}

/**
 * Brings back one of the admin's own menus under its id (an undo of its delete): a row still
 * there (deleted, its messages not yet gone) is edited and undeleted, a row gone is inserted
 * again, unless the guild has `max` menus already (null then, as `createOwnMenu`).
 */
export async function reviveOwnMenu(
  db: Db,
  guildId: string,
  menuId: string,
  values: RoleMenuValues,
  userId: string,
  max: number,
): Promise<RoleMenuRow | null> {
  return db.transaction(async (tx) => {
    await lockGuildMenus(tx, guildId);
    const [kept] = await tx
      .update(roleMenus)
      .set({ ...values, deletedAt: null, updatedBy: userId, updatedAt: new Date() })
      .where(ownMenuEvenDeleted(guildId, menuId))
      .returning();
    if (kept) return kept;
    return insertWithinCap(tx, guildId, { id: menuId, guildId, ...values, updatedBy: userId }, max);
  });
}

/** The worker deleted a deleted menu's messages: the row goes (unless it was posted meanwhile). */
export async function dropDeletedMenu(db: Db | DbTransaction, menuId: string): Promise<void> {
  await db
    .delete(roleMenus)
    .where(
      and(
        eq(roleMenus.id, menuId),
        isNotNull(roleMenus.deletedAt),
        sql`cardinality(${roleMenus.messageIds}) = 0`,
      ),
    );
}

/**
 * Post / Update of one menu asked for: the `role-menus.post` job posts it (null: no such menu).
 * Each request stamps a later time than the one before, even within one millisecond or from an
 * API process whose clock is behind, so a job that read the earlier stamp never clears this one
 * (`clearMenuPostRequest`). Stamps stay whole milliseconds, as a JS Date reads them back.
 */
export async function requestMenuPost(db: Db, guildId: string, menuId: string): Promise<Date | null> {
  const at = new Date();
  const [row] = await db
    .update(roleMenus)
    .set({
      postRequestedAt: sql`greatest(${at.toISOString()}::timestamptz, ${roleMenus.postRequestedAt} + interval '1 millisecond')`,
    })
    .where(ownMenu(guildId, menuId))
    .returning({ postRequestedAt: roleMenus.postRequestedAt });
  return row?.postRequestedAt ?? null;
}

/**
 * The post a job did: the request is cleared, unless the admin asked again after the job read it
 * (`requestedAt`, the stamp it read: a new request always stamps another), so a rerun does that
 * one too.
 */
export async function clearMenuPostRequest(
  db: Db | DbTransaction,
  menuId: string,
  requestedAt: Date,
): Promise<void> {
  await db
    .update(roleMenus)
    .set({ postRequestedAt: null })
    .where(
      and(
        eq(roleMenus.id, menuId),
        // As read into a JS Date (whole milliseconds), should a stamp have been written finer.
        sql`date_trunc('milliseconds', ${roleMenus.postRequestedAt}) = ${requestedAt.toISOString()}::timestamptz`,
      ),
    );
}
