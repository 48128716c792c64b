import {
  colorRolesModeOf,
  DEFAULT_COLOR_PALETTE,
  isNaturalColorName,
  NATURALS_GROUP_NAME,
  type PanelColor,
  RAINBOW_GROUP_NAME,
} from '@spacecadet/core';
import type { Db } from '@spacecadet/db';
import { colorGroups, colorPanels, colorShades, colors, guildConfigs } from '@spacecadet/db/schema';
import { asc, eq, sql } from 'drizzle-orm';

export type ColorRolesMode = 'basic' | 'shades';

export interface StoredShade {
  id: number;
  name: string;
  hex: string;
  roleId: string | null;
}

export interface StoredColor extends StoredShade {
  groupId: number;
  shades: StoredShade[];
}

/** A guild's palette in stored order (group, then colour position); the panel re-sorts it. */
export async function loadPalette(db: Db, guildId: string): Promise<StoredColor[]> {
  const colorRows = await db
    .select({
      id: colors.id,
      groupId: colors.groupId,
      name: colors.name,
      hex: colors.hexCode,
      roleId: colors.roleId,
    })
    .from(colors)
    .innerJoin(colorGroups, eq(colorGroups.id, colors.groupId))
    .where(eq(colors.guildId, guildId))
    .orderBy(asc(colorGroups.position), asc(colors.position), asc(colors.id));
  const shadeRows = await db
    .select()
    .from(colorShades)
    .where(eq(colorShades.guildId, guildId))
    .orderBy(asc(colorShades.position), asc(colorShades.id));
  return colorRows.map((color) => ({
    ...color,
    shades: shadeRows
      .filter((shade) => shade.colorId === color.id)
      .map((shade) => ({ id: shade.id, name: shade.name, hex: shade.hexCode, roleId: shade.roleId })),
  }));
}

/** The palette in the shape the shared panel layout takes. */
export function toPanelColors(palette: readonly StoredColor[]): PanelColor[] {
  return palette.map((color) => ({
    name: color.name,
    hex: color.hex,
    roleId: color.roleId,
    shades: color.shades.map((shade) => ({ name: shade.name, hex: shade.hex, roleId: shade.roleId })),
  }));
}

/** Every Discord role id the palette holds (colours and shades). */
export function paletteRoleIds(palette: readonly StoredColor[]): Set<string> {
  const ids = new Set<string>();
  for (const color of palette) {
    if (color.roleId) ids.add(color.roleId);
    for (const shade of color.shades) if (shade.roleId) ids.add(shade.roleId);
  }
  return ids;
}

export async function colorRolesModeFor(db: Db, guildId: string): Promise<ColorRolesMode> {
  const [config] = await db
    .select({ data: guildConfigs.data })
    .from(guildConfigs)
    .where(eq(guildConfigs.guildId, guildId))
    .limit(1);
  return colorRolesModeOf(config?.data);
}

/**
 * Seeds the default palette unless the guild has colours. The advisory lock makes two
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
      if (!color) throw new Error(`colour ${family.name} was not created`);
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
    return true;
  });
}

export async function setColorRoleId(db: Db, colorId: number, roleId: string | null): Promise<void> {
  await db.update(colors).set({ roleId }).where(eq(colors.id, colorId));
}

export async function setShadeRoleId(db: Db, shadeId: number, roleId: string | null): Promise<void> {
  await db.update(colorShades).set({ roleId }).where(eq(colorShades.id, shadeId));
}

/** Removes every group, colour and shade of the guild (shades and colours cascade). */
export async function deletePalette(db: Db, guildId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(colorShades).where(eq(colorShades.guildId, guildId));
    await tx.delete(colors).where(eq(colors.guildId, guildId));
    await tx.delete(colorGroups).where(eq(colorGroups.guildId, guildId));
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
}

export async function loadPanelLocation(db: Db, guildId: string): Promise<ColorPanelLocation> {
  const [panel] = await db
    .select({
      channelId: colorPanels.channelId,
      messageId: colorPanels.messageId,
      messageChannelId: colorPanels.messageChannelId,
    })
    .from(colorPanels)
    .where(eq(colorPanels.guildId, guildId))
    .limit(1);
  const messageId = panel?.messageId ?? null;
  return {
    channelId: panel?.channelId ?? null,
    messageId,
    messageChannelId: messageId ? (panel?.messageChannelId ?? panel?.channelId ?? null) : null,
  };
}

/** Records the posted panel message and the channel it lives in (both null: no panel). */
export async function savePanelMessage(
  db: Db,
  guildId: string,
  message: { id: string; channelId: string } | null,
): Promise<void> {
  const set = { messageId: message?.id ?? null, messageChannelId: message?.channelId ?? null };
  await db
    .insert(colorPanels)
    .values({ guildId, ...set })
    .onConflictDoUpdate({ target: colorPanels.guildId, set: { ...set, updatedAt: sql`now()` } });
}
