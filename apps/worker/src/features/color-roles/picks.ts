import type { StoredColor } from '@spacecadet/db/queries/color-roles';
import { COLOR_PICK_SCOPE } from '@spacecadet/db/queries/member-picks';
import type { WorkerDeps } from '../../deps.ts';
import { type GiveBack, givePicksBack, recordMemberPick } from '../../roles/member-picks.ts';
import { moveMemberColor } from './assign.ts';

const GIVE_BACK_REASON = 'Space Cadet: color role recreated';

/** The palette entry a role belongs to, as a stable key (`color:<id>` / `shade:<id>`). */
export function colorTargetKey(palette: readonly StoredColor[], roleId: string): string | null {
  for (const color of palette) {
    if (color.roleId === roleId) return `color:${color.id}`;
    const shade = color.shades.find((candidate) => candidate.roleId === roleId);
    if (shade) return `shade:${shade.id}`;
  }
  return null;
}

/**
 * The one place a member's colour pick is recorded (`member_role_picks`, written behind the
 * click): the colour role they hold now, or none after Remove color. Called by the assignment
 * code once the role change went through.
 */
export function recordColorPick(
  deps: WorkerDeps,
  guildId: string,
  userId: string,
  palette: readonly StoredColor[],
  roleId: string | null,
): void {
  const key = roleId === null ? null : colorTargetKey(palette, roleId);
  if (roleId !== null && key === null) return;
  recordColorPickKey(deps, guildId, userId, key);
}

/** `recordColorPick` by the palette entry's key (`colorTargetKey`), or null after Remove color. */
export function recordColorPickKey(
  deps: WorkerDeps,
  guildId: string,
  userId: string,
  key: string | null,
): void {
  recordMemberPick(deps, { guildId, userId, scope: COLOR_PICK_SCOPE, targetKeys: key ? [key] : [] });
}

/**
 * After colour roles were recreated (`recreated`: target key → new role id), each member whose
 * recorded pick is one of them gets the new role, as a move of mode does it: under their click
 * lock, unless they picked another colour (or none) since. Returns how many got theirs back.
 */
export function giveColorPicksBack(
  deps: WorkerDeps,
  guildId: string,
  recreated: ReadonlyMap<string, string>,
  currentRoleIds: ReadonlySet<string>,
): Promise<number> {
  const recreatedIds = new Set(recreated.values());
  // A member whose last change is one of the recreated roles cannot have chosen it since.
  const others = new Set([...currentRoleIds].filter((id) => !recreatedIds.has(id)));
  return givePicksBack(deps, guildId, recreated, async (userId, _key, roleId): Promise<GiveBack> => {
    const outcome = await moveMemberColor(deps, guildId, userId, roleId, others, GIVE_BACK_REASON);
    if (outcome === 'moved') return 'given';
    return outcome === 'left' ? 'gone' : 'skipped';
  });
}
