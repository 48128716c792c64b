import type { PanelColor } from '@spacecadet/core';
import type { StoredColor } from '@spacecadet/db/queries/color-roles';

/** The palette in the shape the shared panel layout takes. */
export function toPanelColors(palette: readonly StoredColor[]): PanelColor[] {
  return palette.map((color) => ({
    name: color.name,
    hex: color.hex,
    roleId: color.roleId,
    shades: color.shades.map((shade) => ({ name: shade.name, hex: shade.hex, roleId: shade.roleId })),
  }));
}

/** Every Discord role id the palette holds (colors and shades). */
export function paletteRoleIds(palette: readonly StoredColor[]): Set<string> {
  const ids = new Set<string>();
  for (const color of palette) {
    if (color.roleId) ids.add(color.roleId);
    for (const shade of color.shades) if (shade.roleId) ids.add(shade.roleId);
  }
  return ids;
}

/** The palette entry a role belongs to, as a stable key (`color:<id>` / `shade:<id>`). */
export function colorTargetKey(palette: readonly StoredColor[], roleId: string): string | null {
  for (const color of palette) {
    if (color.roleId === roleId) return `color:${color.id}`;
    const shade = color.shades.find((candidate) => candidate.roleId === roleId);
    if (shade) return `shade:${shade.id}`;
  }
  return null;
}
