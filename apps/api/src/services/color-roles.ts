import {
  type ColorGroup,
  type ColorRolesState,
  colorWarningsKey,
  MESSAGES,
  normalizeHex,
  PALETTE_MESSAGES,
  paletteColorLabel,
} from '@spacecadet/contract';
import { colorGroups, colorPanels, colorShades, colors, type Db } from '@spacecadet/db';
import {
  loadColorGroups,
  loadColorRolesMode,
  loadPalette,
  loadPanelLocation,
  savePalette,
  savePanelChannel,
} from '@spacecadet/db/queries/color-roles';
import { and, eq, inArray } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { ApiError, notFound } from '../errors.ts';
import { isUndefinedTable } from './dependency-errors.ts';

/**
 * The color roles' reads and writes, shared by their routes and their undo (history's
 * `restore-color-settings.ts`): the screen's state, the palette, the panel's channel and a
 * group's expanded switch, with the 501 a server without the color tables answers.
 */

/** A server whose database lacks the color tables answers 501, as the dashboard expects. */
export async function withColorTables<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isUndefinedTable(error)) throw error;
    const unavailable = new ApiError('color_roles_unavailable', MESSAGES.colorRolesUnavailable);
    unavailable.cause = error;
    throw unavailable;
  }
}

/** 501 before a job is queued that could only fail: every color table must exist. */
export async function requireColorTables(db: Db): Promise<void> {
  await withColorTables(() =>
    Promise.all([
      db.select({ id: colorGroups.id }).from(colorGroups).limit(1),
      db.select({ id: colors.id }).from(colors).limit(1),
      db.select({ id: colorShades.id }).from(colorShades).limit(1),
      db.select({ guildId: colorPanels.guildId }).from(colorPanels).limit(1),
    ]),
  );
}

/** The palette in the contract's shape, from the one query the worker reads it with too. */
async function readPalette(db: Db, guildId: string): Promise<ColorGroup[]> {
  return (await loadColorGroups(db, guildId)).map((group) => ({
    group_id: group.id,
    group_name: group.name,
    is_expanded: group.isExpanded,
    colors: group.colors.map((color) => ({
      color_id: color.id,
      position: color.position,
      role_id: color.roleId,
      color_name: color.name,
      hex_code: color.hex,
      shades: color.shades.map((shade) => ({
        shade_id: shade.id,
        shade_name: shade.name,
        hex_code: shade.hex,
        role_id: shade.roleId,
      })),
    })),
  }));
}

/**
 * Roles the bot cannot hand out (its role is not above them), recorded by the worker in the
 * hash `colorWarningsKey(guild)`. Losing them while Redis is down is better than failing the page.
 */
async function readWarnings(redis: Redis, guildId: string): Promise<string[]> {
  try {
    return (await redis.hvals(colorWarningsKey(guildId))).sort();
  } catch {
    return [];
  }
}

/** What the color roles screen shows: palette, panel channel and message, mode, warnings. */
export async function readColorRolesState(db: Db, redis: Redis, guildId: string): Promise<ColorRolesState> {
  const [groups, panel, warnings, mode] = await Promise.all([
    readPalette(db, guildId),
    loadPanelLocation(db, guildId),
    readWarnings(redis, guildId),
    loadColorRolesMode(db, guildId),
  ]);
  return { groups, channel_id: panel.channelId, mode, message_id: panel.messageId, warnings };
}

/** The palette as the PUT body gives it, with every stored id: what its history records. */
export interface PaletteState {
  colors: Array<{
    color_id?: number | undefined;
    name: string;
    hex: string;
    shades: Array<{ shade_id?: number | undefined; name: string; hex: string }>;
  }>;
}

/** The palette now, in the shape its history records (501 without the color tables). */
export async function readPaletteState(db: Db, guildId: string): Promise<PaletteState> {
  const palette = await withColorTables(() => loadPalette(db, guildId));
  return {
    colors: palette.map((color) => ({
      color_id: color.id,
      name: color.name,
      hex: color.hex,
      shades: color.shades.map((shade) => ({ shade_id: shade.id, name: shade.name, hex: shade.hex })),
    })),
  };
}

/**
 * Replaces the palette (the PUT route and its undo): the body was checked by the contract, the
 * ids are checked against this guild's palette in the save's transaction (400 naming the color).
 */
export async function writePalette(db: Db, guildId: string, body: PaletteState): Promise<void> {
  await withColorTables(async () => {
    const refused = await savePalette(
      db,
      guildId,
      body.colors.map((color) => ({
        id: color.color_id,
        name: color.name,
        hex: normalizeHex(color.hex),
        shades: color.shades.map((shade) => ({
          id: shade.shade_id,
          name: shade.name,
          hex: normalizeHex(shade.hex),
        })),
      })),
    );
    if (refused) {
      const color = body.colors[refused.index];
      const label = paletteColorLabel(refused.index, color?.name ?? '');
      throw new ApiError(
        'invalid_input',
        refused.kind === 'unknownColor'
          ? PALETTE_MESSAGES.unknownColor(label, refused.id)
          : PALETTE_MESSAGES.unknownShade(label, refused.id),
      );
    }
  });
}

/** The color panel's channel (null: none picked), as the channel route's body gives it. */
export async function readColorChannelState(db: Db, guildId: string): Promise<{ channel_id: string | null }> {
  const panel = await withColorTables(() => loadPanelLocation(db, guildId));
  return { channel_id: panel.channelId };
}

/** Stores the panel's channel (the channel route and its undo); the panel moves on the next post. */
export async function writeColorChannel(db: Db, guildId: string, channelId: string | null): Promise<void> {
  await withColorTables(() => savePanelChannel(db, guildId, channelId));
}

/**
 * Opens or folds a color group on the screen. The group is looked up only among `guildIds` (the
 * user's guilds), so another guild's group and a missing one are the same 404.
 */
export async function setColorGroupExpanded(
  db: Db,
  guildIds: readonly string[],
  groupId: number,
  expanded: boolean,
): Promise<void> {
  await withColorTables(async () => {
    const updated = await db
      .update(colorGroups)
      .set({ isExpanded: expanded })
      .where(and(eq(colorGroups.id, groupId), inArray(colorGroups.guildId, guildIds)))
      .returning({ id: colorGroups.id });
    if (updated.length === 0) throw notFound('No such color group');
  });
}
