import { historySubject, routes } from '@spacecadet/contract';
import { tempRoleEndSummary, tempRoleGrantSummary } from '@spacecadet/core';
import type { FastifyInstance } from 'fastify';
import { createTempRole, endTempRoleEarly, listTempRoles, toTempRole } from '../services/temp-roles.ts';
import { defineRoute } from './define.ts';

/**
 * Temporary roles: list the running ones, give one (the worker's `temp-roles.grant`), end one
 * early (`temp-roles.expire`). The worker records each expiry in History itself.
 */
export function registerTempRoleRoutes(app: FastifyInstance): void {
  defineRoute(app, routes.listTempRoles, async ({ params }) => ({
    temp_roles: await listTempRoles(app.services, params.guildId),
  }));

  defineRoute(app, routes.createTempRole, async ({ params, body, requester, request, history }) => {
    const row = await createTempRole(app.services, params.guildId, body, requester, request.log);
    history.describe({
      subject: historySubject('temp_roles', row.id),
      summary: tempRoleGrantSummary(row.userId, row.roleId, body.duration_s),
    });
    return toTempRole(row);
  });

  defineRoute(app, routes.deleteTempRole, async ({ params, requester, request, history }) => {
    const row = await endTempRoleEarly(
      app.services,
      params.guildId,
      params.tempRoleId,
      requester,
      request.log,
    );
    history.describe({
      subject: historySubject('temp_roles', row.id),
      summary: tempRoleEndSummary('ended_early', row.userId, row.roleId),
    });
  });
}
