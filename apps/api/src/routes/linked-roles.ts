import { routes } from '@spacecadet/contract';
import type { FastifyInstance } from 'fastify';
import {
  linkedRolesState,
  linkRoleConnection,
  pickLinkedServer,
  unlinkRoleConnection,
} from '../services/leveling/linked-roles.ts';
import { defineRoute } from './define.ts';

/** The signed-in user's Linked Roles link: its state, link, the server it shows, unlink. */
export function registerLinkedRolesRoutes(app: FastifyInstance): void {
  const { services } = app;
  defineRoute(app, routes.getLinkedRoles, async ({ session }) => linkedRolesState(services, session.user.id));
  defineRoute(
    app,
    routes.linkRoleConnection,
    async ({ session, body, requester, request }) =>
      linkRoleConnection(services, session.user.id, body.code, requester, request.log),
    {
      rateLimit: {
        max: services.config.rateLimit.exchangeMax,
        timeWindow: services.config.rateLimit.windowMs,
      },
    },
  );
  defineRoute(app, routes.pickLinkedServer, async ({ session, body, requester, request }) =>
    pickLinkedServer(services, session.user.id, body.guild_id, requester, request.log),
  );
  defineRoute(app, routes.unlinkRoleConnection, async ({ session, request }) => {
    await unlinkRoleConnection(services, session.user.id, request.log);
  });
}
