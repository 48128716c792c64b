import type { ColorRolesMode } from '@spacecadet/contract';
import { hexToColorInt } from '@spacecadet/core';
import type { StoredColor } from '@spacecadet/db/queries/color-roles';

/** Names the feature's marks of role creates in flight (`roles/pending-roles.ts`). */
export const COLOR_ROLES_FEATURE = 'color-roles';

/** One Discord role the palette needs: a colour (basic mode) or a shade (shades mode). */
export interface RoleTarget {
  /** Stable key for markers: `color:<id>` or `shade:<id>`. */
  key: string;
  kind: 'color' | 'shade';
  id: number;
  /** The role is named exactly this, so a role created by a killed run can be recognised. */
  name: string;
  color: number;
  roleId: string | null;
}

/**
 * Basic mode: one role per colour. Shades mode: one per shade; a colour without shades is
 * picked directly from the panel, so it keeps a role of its own.
 */
export function roleTargets(palette: readonly StoredColor[], mode: ColorRolesMode): RoleTarget[] {
  return palette.flatMap((color): RoleTarget[] => {
    if (mode === 'shades' && color.shades.length > 0) {
      return color.shades.map((shade) => ({
        key: `shade:${shade.id}`,
        kind: 'shade',
        id: shade.id,
        name: shade.name,
        color: hexToColorInt(shade.hex),
        roleId: shade.roleId,
      }));
    }
    return [
      {
        key: `color:${color.id}`,
        kind: 'color',
        id: color.id,
        name: color.name,
        color: hexToColorInt(color.hex),
        roleId: color.roleId,
      },
    ];
  });
}

/** A role the palette records for the other mode, and the current mode's role its members get. */
export interface RetiredRole {
  /** `color:<id>` or `shade:<id>`, like `RoleTarget.key`. */
  key: string;
  kind: 'color' | 'shade';
  id: number;
  name: string;
  roleId: string;
  /** The closest equivalent in the current mode; null when it has no role (yet). */
  successorRoleId: string | null;
  successorName: string | null;
}

/**
 * The roles of the mode the palette is not in, which a switch of mode leaves behind, in
 * palette order. Shades mode retires the role of each colour that has shades (a colour without
 * shades keeps its role in both modes); its members move to the shade whose hex is closest to
 * the colour's. Basic mode retires every shade's role; its members move to the shade's colour.
 * A role that is also a current target's role is never retired.
 */
export function otherModeRoles(palette: readonly StoredColor[], mode: ColorRolesMode): RetiredRole[] {
  const current = new Set(roleTargets(palette, mode).flatMap((target) => target.roleId ?? []));
  const retired = palette.flatMap((color): RetiredRole[] => {
    if (mode === 'shades') {
      if (color.shades.length === 0 || !color.roleId) return [];
      const successor = closestByHex(
        color.hex,
        color.shades.filter((shade) => shade.roleId),
      );
      return [
        {
          key: `color:${color.id}`,
          kind: 'color',
          id: color.id,
          name: color.name,
          roleId: color.roleId,
          successorRoleId: successor?.roleId ?? null,
          successorName: successor?.name ?? null,
        },
      ];
    }
    return color.shades.flatMap((shade): RetiredRole[] =>
      shade.roleId
        ? [
            {
              key: `shade:${shade.id}`,
              kind: 'shade',
              id: shade.id,
              name: shade.name,
              roleId: shade.roleId,
              successorRoleId: color.roleId,
              successorName: color.roleId ? color.name : null,
            },
          ]
        : [],
    );
  });
  return retired.filter((role) => !current.has(role.roleId));
}

/** The candidate whose hex is closest to `hex` (the first one on a tie; none if empty). */
export function closestByHex<T extends { hex: string }>(
  hex: string,
  candidates: readonly T[],
): T | undefined {
  let best: T | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = hexDistance(hex, candidate.hex);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * How far apart two colours look: RGB distance weighted by the mean red ("redmean"), a cheap
 * stand-in for a perceptual distance. Infinite when either is not a hex colour.
 */
function hexDistance(a: string, b: string): number {
  const x = rgbOf(a);
  const y = rgbOf(b);
  if (!x || !y) return Number.POSITIVE_INFINITY;
  const meanRed = (x[0] + y[0]) / 2;
  const [dr, dg, db] = [x[0] - y[0], x[1] - y[1], x[2] - y[2]];
  return Math.sqrt((2 + meanRed / 256) * dr * dr + 4 * dg * dg + (2 + (255 - meanRed) / 256) * db * db);
}

function rgbOf(hex: string): [number, number, number] | null {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!match?.[1]) return null;
  const n = Number.parseInt(match[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
