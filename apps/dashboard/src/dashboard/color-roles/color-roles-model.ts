import { type Color, type ColorGroup, type ColorRolesMode, MESSAGES } from '@spacecadet/contract';
import type { PanelColor } from '@spacecadet/core';
import { errorText, isApiError } from '../../lib/api-error.ts';

/** errorText, plus color roles' own rule: any 501 there means the tables are missing. */
export function colorErrorText(error: unknown): string {
  return isApiError(error) && error.status === 501 ? MESSAGES.colorRolesUnavailable : errorText(error);
}

export const COLOR_RESET_CONFIRM =
  'Reset color roles for this server? This will delete all colors and shades.';
export const BLACK_TIP =
  'Pure black (#000000) does not work as a role color: Discord treats it as "no color". Use a near-black such as #0A0A0A.';

export const MODE_OPTIONS = [
  { value: 'basic', label: 'Basic Colors' },
  { value: 'shades', label: 'Color Families + Shades' },
] as const;

/** The palette as the shared panel layout takes it (group order, then colour order). */
export function panelColorsOf(groups: readonly ColorGroup[]): PanelColor[] {
  return groups.flatMap((group) =>
    group.colors.map((color) => ({
      name: color.color_name,
      hex: color.hex_code,
      roleId: color.role_id,
      shades: color.shades.map((shade) => ({ name: shade.shade_name, hex: shade.hex_code })),
    })),
  );
}

export const NO_ROLE_YET = 'No role yet';

/**
 * The role badge a palette colour shows, null for none. Basic mode: the colour's own role.
 * Shades mode: each shade gets the role, so count the shades that have one ("2 of 3 shade
 * roles", No role yet when none has); nothing when the answer does not say (a shade's
 * `role_id` absent) rather than a false No role yet.
 */
export function paletteRoleBadge(
  color: Color,
  mode: ColorRolesMode,
): { text: string; missing: boolean } | null {
  const shades = color.shades;
  if (mode === 'basic' || shades.length === 0) {
    return color.role_id ? null : { text: NO_ROLE_YET, missing: true };
  }
  if (shades.every((shade) => shade.role_id === undefined)) return null;
  const withRole = shades.filter((shade) => shade.role_id).length;
  if (withRole === 0) return { text: NO_ROLE_YET, missing: true };
  return { text: `${withRole} of ${shades.length} shade roles`, missing: withRole < shades.length };
}
