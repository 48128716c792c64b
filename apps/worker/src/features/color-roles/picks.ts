import type { StoredColor } from '@spacecadet/db/queries/color-roles';
import type { WorkerDeps } from '../../deps.ts';
import { recordColorPickKey } from '../../roles/member-color.ts';
import { type GiveBack, givePicksBack } from '../../roles/member-picks.ts';
import { moveMemberColor } from './assign.ts';
import { colorTargetKey } from './palette.ts';

const GIVE_BACK_REASON = 'Space Cadet: color role recreated';

/**
 * Records a member's colour pick (`member_role_picks`, written behind the click) from the role
 * they hold now, or none: for a job that gives roles itself (a move of mode). Picks go through
 * `changeMemberColor`, which records them.
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
