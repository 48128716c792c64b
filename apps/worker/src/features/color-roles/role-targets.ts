import type { ColorRolesMode } from '@spacecadet/contract';
import { hexToColorInt } from '@spacecadet/core';
import type { StoredColor } from '@spacecadet/db/queries/color-roles';
import type { APIRole } from 'discord.js';

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

/**
 * A role a killed run created but never recorded: exact name and colour, not managed by an
 * integration and not already recorded for another palette entry. The newest one wins.
 */
export function findOrphanRole(
  roles: readonly APIRole[],
  target: Pick<RoleTarget, 'name' | 'color'>,
  claimed: ReadonlySet<string>,
): APIRole | undefined {
  return roles
    .filter(
      (role) =>
        role.name === target.name && role.color === target.color && !role.managed && !claimed.has(role.id),
    )
    .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))[0];
}
