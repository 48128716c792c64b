import type { ColorRolesMode } from '@spacecadet/contract';
import {
  colorRolesModeOf,
  DEFAULT_COLOR_PALETTE,
  isNaturalColorName,
  NATURALS_GROUP_NAME,
  RAINBOW_GROUP_NAME,
} from '@spacecadet/core';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbTransaction } from '../client.ts';
import { colorGroups, colorPanels, colorRemovedRoles, colorShades, colors } from '../schema/color-roles.ts';
import { guildConfigs } from '../schema/guilds.ts';
import { memberRolePicks } from '../schema/member-picks.ts';
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

/** One colour of a palette save: `id` names the stored colour it edits, none for a new one. */
export interface PaletteColorInput {
  id?: number | undefined;
  name: string;
  hex: string;
  shades: ReadonlyArray<{ id?: number | undefined; name: string; hex: string }>;
}

/** Why a palette save was refused: an id that is not the guild's (a colour), or not that colour's (a shade). */
export type PaletteSaveRefusal =
  | { kind: 'unknownColor'; index: number; id: number }
  | { kind: 'unknownShade'; index: number; shadeIndex: number; id: number };

/**
 * Replaces the guild's palette with `input` (already validated: names, hex, counts) in one
 * transaction: stored colours and shades named by id are edited in place, so they keep their
 * Discord role (and members their colour) through a rename or recolor; new ones are added
 * without a role; the rest are removed, their roles recorded in `color_removed_roles` for the
 * next Generate Roles to delete, and members' picks of them forgotten. Positions follow the
 * input's order. Nothing is written when an id is refused.
 */
export async function savePalette(
  db: Db,
  guildId: string,
  input: readonly PaletteColorInput[],
): Promise<PaletteSaveRefusal | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`color-palette:${guildId}`}))`);
    const [storedColors, storedShades] = await Promise.all([
      tx.select().from(colors).where(eq(colors.guildId, guildId)),
      tx.select().from(colorShades).where(eq(colorShades.guildId, guildId)),
    ]);
    const colorById = new Map(storedColors.map((color) => [color.id, color]));
    const shadeById = new Map(storedShades.map((shade) => [shade.id, shade]));
    for (const [index, color] of input.entries()) {
      if (color.id !== undefined && !colorById.has(color.id))
        return { kind: 'unknownColor', index, id: color.id };
      for (const [shadeIndex, shade] of color.shades.entries()) {
        if (shade.id === undefined) continue;
        if (color.id === undefined || shadeById.get(shade.id)?.colorId !== color.id)
          return { kind: 'unknownShade', index, shadeIndex, id: shade.id };
      }
    }

    const keptColors = new Set(input.flatMap((color) => (color.id === undefined ? [] : [color.id])));
    const keptShades = new Set(
      input.flatMap((color) => color.shades.flatMap((shade) => (shade.id === undefined ? [] : [shade.id]))),
    );
    const removedColors = storedColors.filter((color) => !keptColors.has(color.id));
    // A removed colour's shades go with it (cascade), so their roles are recorded too.
    const removedShades = storedShades.filter((shade) => !keptShades.has(shade.id));
    const removedRoles = [
      ...removedColors.flatMap((color) => (color.roleId ? [{ roleId: color.roleId, name: color.name }] : [])),
      ...removedShades.flatMap((shade) => (shade.roleId ? [{ roleId: shade.roleId, name: shade.name }] : [])),
    ];
    if (removedRoles.length > 0) {
      await tx
        .insert(colorRemovedRoles)
        .values(removedRoles.map((role) => ({ guildId, ...role })))
        .onConflictDoNothing();
    }
    const forgotten = [
      ...removedColors.map((color) => `color:${color.id}`),
      ...removedShades.map((shade) => `shade:${shade.id}`),
    ];
    if (forgotten.length > 0) {
      await tx
        .delete(memberRolePicks)
        .where(and(eq(memberRolePicks.guildId, guildId), inArray(memberRolePicks.targetKey, forgotten)));
    }
    // The posted panel shows the old palette now: the next Generate Roles edits it.
    await tx.update(colorPanels).set({ paletteEdited: true }).where(eq(colorPanels.guildId, guildId));
    if (removedShades.length > 0)
      await tx.delete(colorShades).where(
        inArray(
          colorShades.id,
          removedShades.map((shade) => shade.id),
        ),
      );
    if (removedColors.length > 0)
      await tx.delete(colors).where(
        inArray(
          colors.id,
          removedColors.map((color) => color.id),
        ),
      );

    // Names are unique per guild: park the kept colours' names first so a swap of two names
    // never meets itself halfway.
    if (keptColors.size > 0) {
      await tx
        .update(colors)
        .set({ name: sql`'\u0001renaming:' || ${colors.id}` })
        .where(inArray(colors.id, [...keptColors]));
    }
    const groupIdFor = await paletteGroups(tx, guildId);
    for (const [position, color] of input.entries()) {
      const values = { name: color.name.trim(), hexCode: color.hex, position };
      let colorId: number;
      if (color.id !== undefined) {
        await tx.update(colors).set(values).where(eq(colors.id, color.id));
        colorId = color.id;
      } else {
        const [created] = await tx
          .insert(colors)
          .values({ ...values, guildId, groupId: await groupIdFor(color.name) })
          .returning({ id: colors.id });
        if (!created) throw new Error(`color ${color.name} was not created`);
        colorId = created.id;
      }
      for (const [shadePosition, shade] of color.shades.entries()) {
        const shadeValues = { name: shade.name.trim(), hexCode: shade.hex, position: shadePosition };
        if (shade.id !== undefined)
          await tx.update(colorShades).set(shadeValues).where(eq(colorShades.id, shade.id));
        else await tx.insert(colorShades).values({ ...shadeValues, colorId, guildId });
      }
    }
    return null;
  });
}

/** The group a new colour joins (Naturals for a natural name, else Rainbow), created when missing. */
async function paletteGroups(tx: DbTransaction, guildId: string): Promise<(name: string) => Promise<number>> {
  const known = new Map<string, number>();
  return async (colorName) => {
    const name = isNaturalColorName(colorName) ? NATURALS_GROUP_NAME : RAINBOW_GROUP_NAME;
    const cached = known.get(name);
    if (cached !== undefined) return cached;
    await tx
      .insert(colorGroups)
      .values({ guildId, name, position: name === NATURALS_GROUP_NAME ? 1 : 0 })
      .onConflictDoNothing();
    const [group] = await tx
      .select({ id: colorGroups.id })
      .from(colorGroups)
      .where(and(eq(colorGroups.guildId, guildId), eq(colorGroups.name, name)));
    if (!group) throw new Error(`palette group ${name} was not created`);
    known.set(name, group.id);
    return group.id;
  };
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

export interface ColorPanelLocation {
  /** The channel the admin picked for the panel. */
  channelId: string | null;
  messageId: string | null;
  /**
   * The channel `messageId` was posted in. Rows from before this was stored have none: their
   * message was posted in `channelId`.
   */
  messageChannelId: string | null;
  /** The palette was edited since the panel was posted (see `color_panels.palette_edited`). */
  paletteEdited: boolean;
}

export async function loadPanelLocation(db: Db, guildId: string): Promise<ColorPanelLocation> {
  const [panel] = await db
    .select({
      channelId: colorPanels.channelId,
      messageId: colorPanels.messageId,
      messageChannelId: colorPanels.messageChannelId,
      paletteEdited: colorPanels.paletteEdited,
    })
    .from(colorPanels)
    .where(eq(colorPanels.guildId, guildId))
    .limit(1);
  const messageId = panel?.messageId ?? null;
  return {
    channelId: panel?.channelId ?? null,
    messageId,
    messageChannelId: messageId ? (panel?.messageChannelId ?? panel?.channelId ?? null) : null,
    paletteEdited: panel?.paletteEdited ?? false,
  };
}

/** The channel the admin picked; the panel moves there on the next post. */
export async function savePanelChannel(db: Db, guildId: string, channelId: string | null): Promise<void> {
  const values = { channelId, updatedAt: new Date() };
  await db
    .insert(colorPanels)
    .values({ guildId, ...values })
    .onConflictDoUpdate({ target: colorPanels.guildId, set: values });
}

/**
 * Records the posted panel message and the channel it lives in (both null: no panel). The
 * message shows the palette as it is now, so it is no longer behind an edit.
 */
export async function savePanelMessage(
  db: Db,
  guildId: string,
  message: { id: string; channelId: string } | null,
): Promise<void> {
  const set = {
    messageId: message?.id ?? null,
    messageChannelId: message?.channelId ?? null,
    paletteEdited: false,
  };
  await db
    .insert(colorPanels)
    .values({ guildId, ...set })
    .onConflictDoUpdate({ target: colorPanels.guildId, set: { ...set, updatedAt: sql`now()` } });
}
