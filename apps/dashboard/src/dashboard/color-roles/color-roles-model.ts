import {
  type Color,
  type ColorGroup,
  type ColorRolesMode,
  MAX_PALETTE_COLORS,
  MESSAGES,
  type PutPaletteBody,
} from '@spacecadet/contract';
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

/** The palette's colours in the admin's order (position, across groups): the panel's order. */
export function paletteColorsOf(groups: readonly ColorGroup[]): Color[] {
  // Array sort is stable: equal positions keep the server's order.
  return groups.flatMap((group) => group.colors).sort((a, b) => a.position - b.position);
}

/** The palette as the shared panel layout takes it (palette order). */
export function panelColorsOf(groups: readonly ColorGroup[]): PanelColor[] {
  return draftPanelColors(draftOf(groups));
}

/** One shade in the palette editor: `shade_id` when it is stored (keeps its role). */
export interface DraftShade {
  key: string;
  shade_id?: number;
  name: string;
  hex: string;
}

/** One colour in the palette editor: `color_id` when it is stored (keeps its role and members). */
export interface DraftColor {
  key: string;
  color_id?: number;
  name: string;
  hex: string;
  shades: DraftShade[];
  /** The stored colour as the server sent it (role badges); none for a new colour. */
  stored?: Color;
}

let nextKey = 0;
/** A key for a row the admin added (React identity only; never sent). */
export const newDraftKey = () => `new-${++nextKey}`;

/** The editor's starting point: the stored palette, in palette order. */
export function draftOf(groups: readonly ColorGroup[]): DraftColor[] {
  return paletteColorsOf(groups).map((color) => ({
    key: `color-${color.color_id}`,
    color_id: color.color_id,
    name: color.color_name,
    hex: color.hex_code,
    stored: color,
    shades: color.shades.map((shade) => ({
      key: `shade-${color.color_id}-${shade.shade_id}`,
      shade_id: shade.shade_id,
      name: shade.shade_name,
      hex: shade.hex_code,
    })),
  }));
}

/** What the editor would save: the contract's palette body. */
export function paletteBody(draft: readonly DraftColor[]): PutPaletteBody {
  return {
    colors: draft.map((color) => ({
      ...(color.color_id === undefined ? {} : { color_id: color.color_id }),
      name: color.name,
      hex: color.hex,
      shades: color.shades.map((shade) => ({
        ...(shade.shade_id === undefined ? {} : { shade_id: shade.shade_id }),
        name: shade.name,
        hex: shade.hex,
      })),
    })),
  };
}

/** Whether the draft differs from the stored palette. */
export function draftChanged(draft: readonly DraftColor[], groups: readonly ColorGroup[]): boolean {
  return JSON.stringify(paletteBody(draft)) !== JSON.stringify(paletteBody(draftOf(groups)));
}

/** The draft as the shared panel layout takes it, so the preview follows every edit. */
export function draftPanelColors(draft: readonly DraftColor[]): PanelColor[] {
  return draft.map((color) => ({
    name: color.name,
    hex: color.hex,
    roleId: color.stored?.role_id ?? null,
    shades: color.shades.map((shade) => ({ name: shade.name, hex: shade.hex })),
  }));
}

/** `#RRGGBB` for the colour picker, which takes nothing else (black while the text is not a hex yet). */
export function pickerHex(hex: string): string {
  const digits = hex.trim().replace(/^#/, '');
  return /^[0-9a-f]{6}$/i.test(digits) ? `#${digits.toLowerCase()}` : '#000000';
}

export const PALETTE_FULL = `A panel holds ${MAX_PALETTE_COLORS} colors: remove one to add another.`;
export const PALETTE_SAVED =
  'Palette saved. Press Generate Roles to create, rename, recolor and delete the roles in Discord; a posted panel is updated then.';

/** What removing a colour (or shade) asks first. */
export function removeColorConfirm(name: string, hasRole: boolean): string {
  const shown = name.trim() || 'this color';
  return hasRole
    ? `Remove ${shown}? After you save, Generate Roles deletes its role from Discord and members wearing it lose it.`
    : `Remove ${shown}?`;
}

/** Said under Remove's question: the removal is a draft until Save, and a saved palette can be undone. */
export const REMOVE_COLOR_UNDO = 'After you save, you can undo this from History.';

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
