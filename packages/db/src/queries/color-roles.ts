import type { ColorRolesMode } from '@spacecadet/contract';
import {
  colorRolesModeOf,
  DEFAULT_COLOR_PALETTE,
  isNaturalColorName,
  NATURALS_GROUP_NAME,
  RAINBOW_GROUP_NAME,
} from '@spacecadet/core';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db, DbTransaction } from '../client.ts';
import { colorGroups, colorRemovedRoles, colorShades, colors } from '../schema/color-roles.ts';
import { guildConfigs } from '../schema/guilds.ts';
import { COLOR_PICK_SCOPE, forgetFeaturePicks } from './member-picks.ts';

/**
 * The color roles reads and writes both the API and the worker make, in one shape: what the
 * dashboard shows and what the bot posts and hands out come from the same functions.
 */

export interface StoredShade {
  id: number;
  name: string;
  hex: string;
  roleId: string | null;
}

export interface StoredColor extends StoredShade {
  groupId: number;
  /** Place in the whole palette (across groups): the panel's order. */
  position: number;
  shades: StoredShade[];
}

export interface StoredColorGroup {
  id: number;
  name: string;
  isExpanded: boolean;
  colors: StoredColor[];
}

/** The guild's palette by group, each in stored order (position, then id). */
export async function loadColorGroups(db: Db, guildId: string): Promise<StoredColorGroup[]> {
  const [groupRows, colorRows, shadeRows] = await Promise.all([
    db
      .select()
      .from(colorGroups)
      .where(eq(colorGroups.guildId, guildId))
      .orderBy(asc(colorGroups.position), asc(colorGroups.id)),
    db.select().from(colors).where(eq(colors.guildId, guildId)).orderBy(asc(colors.position), asc(colors.id)),
    db
      .select()
      .from(colorShades)
      .where(eq(colorShades.guildId, guildId))
      .orderBy(asc(colorShades.position), asc(colorShades.id)),
  ]);
  return groupRows.map((group) => ({
    id: group.id,
    name: group.name,
    isExpanded: group.isExpanded,
    colors: colorRows
      .filter((color) => color.groupId === group.id)
      .map((color) => ({
        id: color.id,
        groupId: color.groupId,
        position: color.position,
        name: color.name,
        hex: color.hexCode,
        roleId: color.roleId,
        shades: shadeRows
          .filter((shade) => shade.colorId === color.id)
          .map((shade) => ({ id: shade.id, name: shade.name, hex: shade.hexCode, roleId: shade.roleId })),
      })),
  }));
}

/**
 * The palette's colors in the admin's order (position across groups, then id): the order the
 * panel shows them in.
 */
export async function loadPalette(db: Db, guildId: string): Promise<StoredColor[]> {
  return sortByPosition((await loadColorGroups(db, guildId)).flatMap((group) => group.colors));
}

/** Colors in palette order (position, then id), whatever group they are in. */
export function sortByPosition<T extends { position: number; id: number }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => a.position - b.position || a.id - b.id);
}

/** The color mode stored in the guild's config (`color_roles_mode`); basic when unset. */
export async function loadColorRolesMode(db: Db, guildId: string): Promise<ColorRolesMode> {
  const [config] = await db
    .select({ data: guildConfigs.data })
    .from(guildConfigs)
    .where(eq(guildConfigs.guildId, guildId))
    .limit(1);
  return colorRolesModeOf(config?.data);
}

/**
 * Sets the guild's color mode (`color_roles_mode` in its config, the other keys kept), as
 * Reset Color Roles' undo does with the mode the palette had. True when it changed; the caller
 * tells the API's config copies to go.
 */
export async function saveColorRolesMode(db: Db, guildId: string, mode: ColorRolesMode): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [config] = await tx
      .select({ data: guildConfigs.data })
      .from(guildConfigs)
      .where(eq(guildConfigs.guildId, guildId))
      .for('update');
    if (colorRolesModeOf(config?.data) === mode) return false;
    const data = { ...(config?.data ?? {}), color_roles_mode: mode };
    await tx
      .insert(guildConfigs)
      .values({ guildId, data, updatedAt: new Date() })
      .onConflictDoUpdate({ target: guildConfigs.guildId, set: { data, updatedAt: new Date() } });
    return true;
  });
}

/**
 * Seeds the default palette unless the guild has colors. The advisory lock makes two
 * concurrent seeds (a retry racing a stalled run) produce one palette.
 * Returns true when it seeded.
 */
export async function seedDefaultPaletteIfEmpty(db: Db, guildId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`color-palette:${guildId}`}))`);
    const [existing] = await tx
      .select({ id: colors.id })
      .from(colors)
      .where(eq(colors.guildId, guildId))
      .limit(1);
    if (existing) return false;
    await insertDefaultPalette(tx, guildId);
    return true;
  });
}

async function insertDefaultPalette(tx: DbTransaction, guildId: string): Promise<void> {
  const groups = await tx
    .insert(colorGroups)
    .values([
      { guildId, name: RAINBOW_GROUP_NAME, position: 0 },
      { guildId, name: NATURALS_GROUP_NAME, position: 1 },
    ])
    .onConflictDoUpdate({ target: [colorGroups.guildId, colorGroups.name], set: { isExpanded: true } })
    .returning({ id: colorGroups.id, name: colorGroups.name });
  const groupIdOf = (name: string) => groups.find((group) => group.name === name)?.id;
  for (const [position, family] of DEFAULT_COLOR_PALETTE.entries()) {
    const groupId = groupIdOf(isNaturalColorName(family.name) ? NATURALS_GROUP_NAME : RAINBOW_GROUP_NAME);
    if (groupId === undefined) throw new Error('palette groups were not created');
    const [color] = await tx
      .insert(colors)
      .values({ groupId, guildId, name: family.name, hexCode: family.hex, position })
      .returning({ id: colors.id });
    if (!color) throw new Error(`color ${family.name} was not created`);
    if (family.shades.length > 0) {
      await tx.insert(colorShades).values(
        family.shades.map((shade, shadePosition) => ({
          colorId: color.id,
          guildId,
          name: shade.name,
          hexCode: shade.hex,
          position: shadePosition,
        })),
      );
    }
  }
}

export async function setColorRoleId(db: Db, colorId: number, roleId: string | null): Promise<void> {
  await db.update(colors).set({ roleId }).where(eq(colors.id, colorId));
}

export async function setShadeRoleId(db: Db, shadeId: number, roleId: string | null): Promise<void> {
  await db.update(colorShades).set({ roleId }).where(eq(colorShades.id, shadeId));
}

/** Roles of removed colours and shades still to delete from Discord. */
export async function loadRemovedColorRoles(
  db: Db,
  guildId: string,
): Promise<Array<{ roleId: string; name: string }>> {
  return db
    .select({ roleId: colorRemovedRoles.roleId, name: colorRemovedRoles.name })
    .from(colorRemovedRoles)
    .where(eq(colorRemovedRoles.guildId, guildId))
    .orderBy(asc(colorRemovedRoles.removedAt), asc(colorRemovedRoles.roleId));
}

/** A removed colour's role is gone from Discord: forget it. */
export async function forgetRemovedColorRole(db: Db, guildId: string, roleId: string): Promise<void> {
  await db
    .delete(colorRemovedRoles)
    .where(and(eq(colorRemovedRoles.guildId, guildId), eq(colorRemovedRoles.roleId, roleId)));
}

/**
 * Every change of a guild's colours, shades or panel is announced on this Postgres channel
 * (triggers, migration 0007), the guild id as payload.
 */
export const COLOR_SETUP_CHANNEL = 'color_setup_changed';

/** Removes every group, color and shade of the guild (shades and colors cascade), and members' colour picks. */
export async function deletePalette(db: Db, guildId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(colorShades).where(eq(colorShades.guildId, guildId));
    await tx.delete(colors).where(eq(colors.guildId, guildId));
    await tx.delete(colorGroups).where(eq(colorGroups.guildId, guildId));
    await tx.delete(colorRemovedRoles).where(eq(colorRemovedRoles.guildId, guildId));
    await forgetFeaturePicks(tx, guildId, COLOR_PICK_SCOPE);
  });
}

export * from './color-roles/palette-save.ts';
export * from './color-roles/panel.ts';
