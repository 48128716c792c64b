import type { ColorRolesMode } from '@spacecadet/contract';
import {
  colorRolesModeOf,
  DEFAULT_COLOR_PALETTE,
  isNaturalColorName,
  NATURALS_GROUP_NAME,
  RAINBOW_GROUP_NAME,
} from '@spacecadet/core';
import { asc, eq, sql } from 'drizzle-orm';
import type { Db, DbTransaction } from '../client.ts';
import { colorGroups, colorPanels, colorShades, colors } from '../schema/color-roles.ts';
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
        name: color.name,
        hex: color.hexCode,
        roleId: color.roleId,
        shades: shadeRows
          .filter((shade) => shade.colorId === color.id)
          .map((shade) => ({ id: shade.id, name: shade.name, hex: shade.hexCode, roleId: shade.roleId })),
      })),
  }));
}

/** The palette's colors in stored order (group, then color); the panel re-sorts them. */
export async function loadPalette(db: Db, guildId: string): Promise<StoredColor[]> {
  return (await loadColorGroups(db, guildId)).flatMap((group) => group.colors);
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

/** The channel the admin picked; the panel moves there on the next post. */
export async function savePanelChannel(db: Db, guildId: string, channelId: string): Promise<void> {
  const values = { channelId, updatedAt: new Date() };
  await db
    .insert(colorPanels)
    .values({ guildId, ...values })
    .onConflictDoUpdate({ target: colorPanels.guildId, set: values });
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
