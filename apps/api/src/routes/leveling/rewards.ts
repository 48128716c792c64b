import { routes } from '@spacecadet/contract';
import { loadLevelingRole } from '@spacecadet/db/queries/leveling';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors.ts';
import {
  addRewardRole,
  changeRewardRole,
  NO_LEVEL_ROLE_MESSAGE,
  removeRewardRole,
  rewardHolders,
  roleSummary,
  toRewardRoleSnapshot,
  toRole,
  toRoleState,
} from '../../services/leveling/rewards.ts';
import { defineRoute } from '../define.ts';

/** Reward roles (level roles): add, edit, delete. */
export function registerLevelingRewardRoutes(app: FastifyInstance): void {
  const { db } = app.services;

  defineRoute(app, routes.createLevelingRole, async ({ params, body, history }) => {
    const guildId = params.guildId;
    const role = await addRewardRole(db, guildId, {
      roleName: body.role_name,
      levelRequired: body.level_required,
      isImageRole: body.is_image_role,
    });
    history.state(
      `leveling:role:${role.id}`,
      null,
      toRoleState(role),
      `Added the reward role "${role.roleName}" (level ${role.levelRequired})`,
    );
    return toRole(role, await rewardHolders(db, guildId));
  });

  defineRoute(app, routes.updateLevelingRole, async ({ params, body, requester, request, history }) => {
    const { guildId, roleId } = params;
    const changes = {
      ...(body.role_name === undefined ? {} : { roleName: body.role_name }),
      ...(body.level_required === undefined ? {} : { levelRequired: body.level_required }),
      ...(body.is_image_role === undefined ? {} : { isImageRole: body.is_image_role }),
    };
    const { before, after } = await changeRewardRole(app, guildId, roleId, changes, requester, request);
    history.state(
      `leveling:role:${roleId}`,
      toRoleState(before),
      toRoleState(after),
      roleSummary(before, after),
    );
    return toRole(after, await rewardHolders(db, guildId));
  });

  // A created role's Discord role goes first; if Discord refuses, the reward row is kept and the
  // answer says why, so nothing is lost half-way (a retry finds the role gone and finishes).
  defineRoute(app, routes.deleteLevelingRole, async ({ params, history }) => {
    const row = await loadLevelingRole(db, params.guildId, params.roleId);
    if (!row) throw notFound(NO_LEVEL_ROLE_MESSAGE);
    await removeRewardRole(app, params.guildId, row);
    history.snapshot(
      `leveling:role:${row.id}`,
      { role: toRewardRoleSnapshot(row) },
      `Deleted the reward role "${row.roleName}" (level ${row.levelRequired})`,
    );
  });
}
