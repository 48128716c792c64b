import { tempRoleEndSummary } from '@spacecadet/core';
import { endTempRole, memberTempRoles, settleAbsentExpiry } from '@spacecadet/db/queries/temp-roles';
import type { WorkerDeps } from '../../deps.ts';
import { onGateway } from '../feature.ts';
import { recordTempRoleHistory, takeTempRole } from './roles.ts';

/**
 * A member's roles as Discord sends them (GUILD_MEMBER_UPDATE, GUILD_MEMBER_ADD), against their
 * temporary roles:
 * - a held one whose role is gone from an update was removed by hand (or by another bot): it is
 *   ended as such and never touched again (our own take-backs claim the row first, so they never
 *   read as by hand);
 * - one that expired while they were away (`expired_absent`) is taken back if they come back
 *   holding it (sticky roles given back at the join, or just after it).
 */
async function checkMemberRoles(
  deps: WorkerDeps,
  guildId: string,
  userId: string,
  roles: readonly string[],
  update: boolean,
): Promise<void> {
  for (const row of await memberTempRoles(deps.db, guildId, userId)) {
    const held = roles.includes(row.roleId);
    if (row.state === 'active' && !held && update) {
      const ended = await endTempRole(deps.db, row.id, 'removed_by_hand', ['active']);
      if (ended) {
        await recordTempRoleHistory(
          deps,
          ended,
          'temp_roles.end',
          tempRoleEndSummary('removed_by_hand', userId, row.roleId),
        );
      }
    } else if (row.state === 'ended' && row.endReason === 'expired_absent' && held) {
      const outcome = await takeTempRole(deps, guildId, userId, row.roleId);
      if (outcome !== 'refused' && (await settleAbsentExpiry(deps.db, row.id))) {
        await recordTempRoleHistory(
          deps,
          row,
          'temp_roles.end',
          `<@${userId}> came back holding the expired temporary role <@&${row.roleId}>; took it back`,
        );
      }
    }
  }
}

export const tempRoleEvents = [
  onGateway('raw', 'check temporary roles against a member update', async (deps, packet) => {
    if (packet.t !== 'GUILD_MEMBER_UPDATE' && packet.t !== 'GUILD_MEMBER_ADD') return;
    const { guild_id: guildId, user, roles } = packet.d;
    if (!user || user.bot) return;
    await checkMemberRoles(deps, guildId, user.id, roles, packet.t === 'GUILD_MEMBER_UPDATE');
  }),
];
