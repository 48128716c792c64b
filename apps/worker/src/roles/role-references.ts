import { type RemappedReferences, remapRoleReferences } from '@spacecadet/db/queries/role-references';
import { queueRepair } from '../features/repairs/queue.ts';
import type { JobContext } from '../jobs/types.ts';

/**
 * A role recreated under a new id (`mapping`: old id → new id, from the undo of a reset or Sync
 * Roles): every menu, reaction list, reward, no-XP list and boost that named the old role names
 * the new one (`remapRoleReferences`, one transaction), and the posted menus that show it are
 * brought in line by the role-menus repair (queued, as after any menu change). Answers what
 * moved, for the job's summary.
 */
export async function moveRoleReferences(
  context: JobContext,
  mapping: ReadonlyMap<string, string>,
): Promise<RemappedReferences> {
  const guildId = context.payload.guild_id;
  const moved = await remapRoleReferences(context.deps.db, guildId, mapping);
  if (moved.menuIds.length > 0) {
    const jobId = await queueRepair(context.deps, 'menus', guildId, 0);
    context.log.info({ menus: moved.menuIds.length, jobId }, 'role menus moved to recreated roles');
  }
  return moved;
}

/** " Moved to the new roles: 2 role menus, 1 reward role." when anything moved. */
export function movedReferencesSummary(moved: RemappedReferences): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const parts = [
    moved.menuIds.length > 0 ? plural(moved.menuIds.length, 'role menu') : '',
    moved.rewardRoles > 0 ? plural(moved.rewardRoles, 'reward role') : '',
    moved.noXpRoles > 0 ? plural(moved.noXpRoles, 'no-XP role') : '',
    moved.boosts > 0 ? plural(moved.boosts, 'role boost') : '',
  ].filter(Boolean);
  return parts.length > 0 ? ` Moved to the new roles: ${parts.join(', ')}.` : '';
}
