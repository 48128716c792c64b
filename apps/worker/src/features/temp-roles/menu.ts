import { tempRoleGrantSummary } from '@spacecadet/core';
import { recordTempRole } from '@spacecadet/db/queries/temp-roles';
import type { WorkerDeps } from '../../deps.ts';
import { errorFields } from '../../logger.ts';
import { recordTempRoleHistory, scheduleExpiry } from './roles.ts';

/**
 * A member picked a temporary option of a role menu (`expires_after_s`) and was given its role:
 * it is recorded as held (`source` menu) until then, its expiry queued, the grant in History with
 * the member as the actor. Picking it again moves the expiry. The role stands when this fails
 * (logged): the member keeps a role the menu gives anyway.
 */
export async function recordMenuTempRole(
  deps: WorkerDeps,
  guildId: string,
  userId: string,
  roleId: string,
  seconds: number,
): Promise<void> {
  try {
    const row = await recordTempRole(deps.db, {
      guildId,
      userId,
      roleId,
      expiresAt: new Date(Date.now() + seconds * 1000),
      grantedBy: userId,
      source: 'menu',
      state: 'active',
    });
    await scheduleExpiry(deps, row);
    const user = deps.client.users.cache.get(userId);
    await recordTempRoleHistory(
      deps,
      row,
      'temp_roles.grant',
      `${tempRoleGrantSummary(userId, roleId, seconds)} (picked on a role menu)`,
      { id: userId, name: user?.username ?? userId, avatar: user?.avatar ?? null },
    );
  } catch (error) {
    deps.logger.error(
      { guildId, roleId, ...errorFields(error) },
      'temporary role of a menu pick not recorded',
    );
  }
}
