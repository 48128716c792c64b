import { isNaturalColorName, NATURALS_GROUP_NAME, RAINBOW_GROUP_NAME } from '@spacecadet/core';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbTransaction } from '../../client.ts';
import {
  colorGroups,
  colorPanels,
  colorRemovedRoles,
  colorShades,
  colors,
} from '../../schema/color-roles.ts';
import { memberRolePicks } from '../../schema/member-picks.ts';

/**
 * Saving a guild's palette from the dashboard: the input checked against the stored ids, the
 * dropped colours and shades removed (their roles recorded for deletion), the rest written.
 */

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
    const refusal = refusalOf(input, storedColors, storedShades);
    if (refusal) return refusal;
    const keptColors = new Set(input.flatMap((color) => (color.id === undefined ? [] : [color.id])));
    const keptShades = new Set(
      input.flatMap((color) => color.shades.flatMap((shade) => (shade.id === undefined ? [] : [shade.id]))),
    );
    await removeDropped(tx, guildId, {
      colors: storedColors.filter((color) => !keptColors.has(color.id)),
      // A removed colour's shades go with it (cascade), so their roles are recorded too.
      shades: storedShades.filter((shade) => !keptShades.has(shade.id)),
    });
    await writeInput(tx, guildId, input, keptColors);
    return null;
  });
}

type StoredColorRow = typeof colors.$inferSelect;
type StoredShadeRow = typeof colorShades.$inferSelect;

/** The first id of the input that is not the guild's colour (or not that colour's shade), if any. */
function refusalOf(
  input: readonly PaletteColorInput[],
  storedColors: readonly StoredColorRow[],
  storedShades: readonly StoredShadeRow[],
): PaletteSaveRefusal | null {
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
  return null;
}

/**
 * Removes the colours and shades the input dropped: their roles recorded for the next Generate
 * Roles to delete, members' picks of them forgotten, the posted panel marked as edited.
 */
async function removeDropped(
  tx: DbTransaction,
  guildId: string,
  removed: { colors: readonly StoredColorRow[]; shades: readonly StoredShadeRow[] },
): Promise<void> {
  const removedColors = removed.colors;
  const removedShades = removed.shades;
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
}

/** Writes the input's colours and shades in its order: kept ones edited in place, new ones added. */
async function writeInput(
  tx: DbTransaction,
  guildId: string,
  input: readonly PaletteColorInput[],
  keptColors: ReadonlySet<number>,
): Promise<void> {
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
