import type { ReactionList } from '@spacecadet/contract';
import { boostTarget, type RoleMenuOption, roleBoostUserId } from '@spacecadet/core';
import { and, eq, inArray, isNull, like, or, sql } from 'drizzle-orm';
import type { Db, DbTransaction } from '../client.ts';
import { levelingBoosts, levelingRoles, levelingSettings } from '../schema/leveling.ts';
import { memberRolePicks } from '../schema/member-picks.ts';
import { roleMenus } from '../schema/role-menus.ts';
import { menuPickScope } from './member-picks.ts';

/**
 * Everything outside a role's own feature that names a Discord role by its id: role-menu options
 * and required roles (the reaction lists are role menus), reward roles, no-XP roles, role
 * boosts, and members' picks on reaction menus. A feature that recreates a role under a new id
 * (the undo of a reset, Sync Roles) moves them with `remapRoleReferences`; a reset's
 * confirmation names them with `roleReferences`.
 */

/** What names some of the roles: each menu (a reaction list by its key), and the leveling setup. */
export interface RoleReferences {
  menus: Array<{ id: string; listKey: ReactionList | null; title: string }>;
  rewardRoles: number;
  noXpRoles: number;
  boosts: number;
}

/** What uses any of `roleIds` (menus not deleted, boosts not expired). */
export async function roleReferences(
  db: Db,
  guildId: string,
  roleIds: readonly string[],
): Promise<RoleReferences> {
  const references: RoleReferences = { menus: [], rewardRoles: 0, noXpRoles: 0, boosts: 0 };
  if (roleIds.length === 0) return references;
  const ids = new Set(roleIds);
  const [menus, rewards, settings, boosts] = await Promise.all([
    db
      .select()
      .from(roleMenus)
      .where(and(eq(roleMenus.guildId, guildId), isNull(roleMenus.deletedAt)))
      .orderBy(sql`${roleMenus.listKey} is null`, roleMenus.listKey, roleMenus.createdAt, roleMenus.id),
    db
      .select({ roleId: levelingRoles.roleId })
      .from(levelingRoles)
      .where(and(eq(levelingRoles.guildId, guildId), inArray(levelingRoles.roleId, [...ids]))),
    db
      .select({ noXpRoles: levelingSettings.noXpRoles })
      .from(levelingSettings)
      .where(eq(levelingSettings.guildId, guildId)),
    db
      .select({ userId: levelingBoosts.userId })
      .from(levelingBoosts)
      .where(
        and(
          eq(levelingBoosts.guildId, guildId),
          inArray(levelingBoosts.userId, [...ids].map(roleBoostUserId)),
          or(isNull(levelingBoosts.expiresAt), sql`${levelingBoosts.expiresAt} > now()`),
        ),
      ),
  ]);
  for (const menu of menus) {
    const uses =
      (menu.requiredRoleId !== null && ids.has(menu.requiredRoleId)) ||
      menu.options.some((option) => ids.has(option.role_id));
    if (uses) references.menus.push({ id: menu.id, listKey: menu.listKey, title: menu.title });
  }
  references.rewardRoles = rewards.length;
  references.noXpRoles = (settings[0]?.noXpRoles ?? []).filter((id) => ids.has(id)).length;
  references.boosts = boosts.length;
  return references;
}

/** What `remapRoleReferences` moved to the new ids. */
export interface RemappedReferences {
  /** Menus whose options or required role changed (their posted messages show the old role). */
  menuIds: string[];
  rewardRoles: number;
  noXpRoles: number;
  boosts: number;
  picks: number;
}

/**
 * Moves every reference to an old role id onto the role recreated in its place (`mapping`: old
 * id → new id), in one transaction under the guild's lock, so a menu, a reward, a no-XP list or
 * a boost never points at a role that no longer exists. Idempotent: a second run finds no old
 * id. A menu or list that held both ids keeps one row of the role (the first).
 */
export async function remapRoleReferences(
  db: Db,
  guildId: string,
  mapping: ReadonlyMap<string, string>,
): Promise<RemappedReferences> {
  const moved = new Map([...mapping].filter(([oldId, newId]) => oldId !== newId));
  const result: RemappedReferences = { menuIds: [], rewardRoles: 0, noXpRoles: 0, boosts: 0, picks: 0 };
  if (moved.size === 0) return result;
  const oldIds = [...moved.keys()];
  const to = (roleId: string) => moved.get(roleId) ?? roleId;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`role-references:${guildId}`}))`);
    const menus = await tx.select().from(roleMenus).where(eq(roleMenus.guildId, guildId)).for('update');
    for (const menu of menus) {
      const required = menu.requiredRoleId === null ? null : to(menu.requiredRoleId);
      const uses =
        menu.requiredRoleId !== required || menu.options.some((option) => moved.has(option.role_id));
      if (!uses) continue;
      const seen = new Set<string>();
      const options: RoleMenuOption[] = [];
      for (const option of menu.options) {
        const roleId = to(option.role_id);
        if (seen.has(roleId)) continue;
        seen.add(roleId);
        options.push({ ...option, role_id: roleId });
      }
      // Not `updated_at`: the admin did not edit the menu.
      await tx.update(roleMenus).set({ options, requiredRoleId: required }).where(eq(roleMenus.id, menu.id));
      result.menuIds.push(menu.id);
      result.picks += await remapMenuPicks(tx, guildId, menu.id, moved);
    }
    for (const [oldId, newId] of moved) {
      const rewards = await tx
        .update(levelingRoles)
        .set({ roleId: newId })
        .where(and(eq(levelingRoles.guildId, guildId), eq(levelingRoles.roleId, oldId)))
        .returning({ id: levelingRoles.id });
      result.rewardRoles += rewards.length;
    }
    const [settings] = await tx
      .select({ noXpRoles: levelingSettings.noXpRoles })
      .from(levelingSettings)
      .where(eq(levelingSettings.guildId, guildId))
      .for('update');
    if (settings?.noXpRoles.some((roleId) => moved.has(roleId))) {
      result.noXpRoles = settings.noXpRoles.filter((roleId) => moved.has(roleId)).length;
      await tx
        .update(levelingSettings)
        .set({ noXpRoles: [...new Set(settings.noXpRoles.map(to))] })
        .where(eq(levelingSettings.guildId, guildId));
    }
    const boosts = await tx
      .select({ id: levelingBoosts.id, userId: levelingBoosts.userId })
      .from(levelingBoosts)
      .where(
        and(eq(levelingBoosts.guildId, guildId), inArray(levelingBoosts.userId, oldIds.map(roleBoostUserId))),
      );
    for (const boost of boosts) {
      const target = boostTarget(boost.userId);
      if (target.kind !== 'role') continue;
      await tx
        .update(levelingBoosts)
        .set({ userId: roleBoostUserId(to(target.roleId)) })
        .where(eq(levelingBoosts.id, boost.id));
      result.boosts += 1;
    }
  });
  return result;
}

/**
 * A reaction menu's picks are kept per role (`menuPickScope(menu, role)`, the role id as target):
 * the old role's picks become the new role's, so the repair's reconcile reads them as the
 * members' reactions they are.
 */
async function remapMenuPicks(
  tx: DbTransaction,
  guildId: string,
  menuId: string,
  moved: ReadonlyMap<string, string>,
): Promise<number> {
  let remapped = 0;
  const picks = await tx
    .select()
    .from(memberRolePicks)
    .where(
      and(eq(memberRolePicks.guildId, guildId), like(memberRolePicks.scope, `${menuPickScope(menuId)}%`)),
    );
  for (const pick of picks) {
    const newId = moved.get(pick.targetKey);
    if (!newId || pick.scope !== menuPickScope(menuId, pick.targetKey)) continue;
    await tx
      .insert(memberRolePicks)
      .values({ ...pick, scope: menuPickScope(menuId, newId), targetKey: newId })
      .onConflictDoNothing();
    await tx
      .delete(memberRolePicks)
      .where(
        and(
          eq(memberRolePicks.guildId, guildId),
          eq(memberRolePicks.userId, pick.userId),
          eq(memberRolePicks.scope, pick.scope),
          eq(memberRolePicks.targetKey, pick.targetKey),
        ),
      );
    remapped += 1;
  }
  return remapped;
}
