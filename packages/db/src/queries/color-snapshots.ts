import { and, asc, countDistinct, eq, like, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { colorGroups, colorRemovedRoles, colorShades, colors } from '../schema/color-roles.ts';
import { memberRolePicks } from '../schema/member-picks.ts';
import { COLOR_PICK_SCOPE } from './member-picks.ts';

/**
 * Reset Color Roles and its undo: what the reset deletes (one function, read by the reset job
 * and by its confirmation's preview) and the palette as stored, so the undo writes it back
 * with the same ids.
 */

/** A Discord role Reset Color Roles deletes: a colour's or shade's, or a removed colour's. */
export interface ColorResetRole {
  roleId: string;
  name: string;
  /** Where it is recorded: `color:<id>`, `shade:<id>`, or `removed` (`color_removed_roles`). */
  key: string;
}

/**
 * The roles the reset deletes (the palette's and those of removed colours still recorded), in
 * palette order. Roles a killed Generate Roles run made but never recorded (Redis marks) are the
 * job's own addition.
 */
export async function colorResetRoles(db: Db, guildId: string): Promise<ColorResetRole[]> {
  const [colorRows, shadeRows, removed] = await Promise.all([
    db.select().from(colors).where(eq(colors.guildId, guildId)).orderBy(asc(colors.position), asc(colors.id)),
    db
      .select()
      .from(colorShades)
      .where(eq(colorShades.guildId, guildId))
      .orderBy(asc(colorShades.position), asc(colorShades.id)),
    db
      .select({ roleId: colorRemovedRoles.roleId, name: colorRemovedRoles.name })
      .from(colorRemovedRoles)
      .where(eq(colorRemovedRoles.guildId, guildId))
      .orderBy(asc(colorRemovedRoles.removedAt), asc(colorRemovedRoles.roleId)),
  ]);
  return [
    ...colorRows.flatMap((color) => [
      ...(color.roleId ? [{ roleId: color.roleId, name: color.name, key: `color:${color.id}` }] : []),
      ...shadeRows
        .filter((shade) => shade.colorId === color.id && shade.roleId)
        .map((shade) => ({ roleId: shade.roleId as string, name: shade.name, key: `shade:${shade.id}` })),
    ]),
    ...removed.map((role) => ({ ...role, key: 'removed' })),
  ];
}

/** The palette's rows as stored (ids included), for the reset's snapshot. */
export interface PaletteRows {
  groups: Array<{ id: number; name: string; position: number; isExpanded: boolean }>;
  colors: Array<{ id: number; groupId: number; name: string; hex: string; position: number }>;
  shades: Array<{ id: number; colorId: number; name: string; hex: string; position: number }>;
}

export async function loadPaletteRows(db: Db, guildId: string): Promise<PaletteRows> {
  const [groupRows, colorRows, shadeRows] = await Promise.all([
    db.select().from(colorGroups).where(eq(colorGroups.guildId, guildId)).orderBy(asc(colorGroups.id)),
    db.select().from(colors).where(eq(colors.guildId, guildId)).orderBy(asc(colors.id)),
    db.select().from(colorShades).where(eq(colorShades.guildId, guildId)).orderBy(asc(colorShades.id)),
  ]);
  return {
    groups: groupRows.map(({ id, name, position, isExpanded }) => ({ id, name, position, isExpanded })),
    colors: colorRows.map(({ id, groupId, name, hexCode, position }) => ({
      id,
      groupId,
      name,
      hex: hexCode,
      position,
    })),
    shades: shadeRows.map(({ id, colorId, name, hexCode, position }) => ({
      id,
      colorId,
      name,
      hex: hexCode,
      position,
    })),
  };
}

/** The ids of the guild's colours now (empty: no palette). */
export async function paletteColorIds(db: Db, guildId: string): Promise<number[]> {
  const rows = await db.select({ id: colors.id }).from(colors).where(eq(colors.guildId, guildId));
  return rows.map((row) => row.id);
}

/**
 * Writes a snapshot's palette back with its ids, without roles (Generate Roles makes them), in
 * one transaction. Rows already there are kept as they are (a rerun after a crash keeps the
 * roles the first run stored).
 */
export async function restorePaletteRows(db: Db, guildId: string, palette: PaletteRows): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`color-palette:${guildId}`}))`);
    if (palette.groups.length > 0)
      await tx
        .insert(colorGroups)
        .values(palette.groups.map((group) => ({ ...group, guildId })))
        .onConflictDoNothing();
    if (palette.colors.length > 0)
      await tx
        .insert(colors)
        .values(palette.colors.map(({ hex, ...color }) => ({ ...color, hexCode: hex, guildId })))
        .onConflictDoNothing();
    if (palette.shades.length > 0)
      await tx
        .insert(colorShades)
        .values(palette.shades.map(({ hex, ...shade }) => ({ ...shade, hexCode: hex, guildId })))
        .onConflictDoNothing();
  });
}

/** Members' recorded colour picks (`member_role_picks`), by target key. */
export async function colorPicksByKey(db: Db, guildId: string): Promise<Record<string, string[]>> {
  const rows = await db
    .select({ userId: memberRolePicks.userId, targetKey: memberRolePicks.targetKey })
    .from(memberRolePicks)
    .where(and(eq(memberRolePicks.guildId, guildId), eq(memberRolePicks.scope, COLOR_PICK_SCOPE)))
    .orderBy(memberRolePicks.targetKey, memberRolePicks.userId);
  const byKey: Record<string, string[]> = {};
  for (const row of rows) byKey[row.targetKey] = [...(byKey[row.targetKey] ?? []), row.userId];
  return byKey;
}

/** How many members have a recorded pick in scopes starting with `scopePrefix` (`color`, `personality:`). */
export async function countPickHolders(db: Db, guildId: string, scopePrefix: string): Promise<number> {
  const [row] = await db
    .select({ n: countDistinct(memberRolePicks.userId) })
    .from(memberRolePicks)
    .where(and(eq(memberRolePicks.guildId, guildId), like(memberRolePicks.scope, `${scopePrefix}%`)));
  return row?.n ?? 0;
}
