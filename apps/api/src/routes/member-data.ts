import { routes } from '@spacecadet/contract';
import type { FastifyInstance } from 'fastify';
import { eraseMember, exportMemberData } from '../services/member-data.ts';
import { defineRoute } from './define.ts';

/** The signed-in user's own data: a JSON download of it, and its erase. */
export function registerMemberDataRoutes(app: FastifyInstance): void {
  defineRoute(app, routes.exportMemberData, async ({ session, reply }) => {
    const data = await exportMemberData(app.services, session.user.id);
    const day = data.exported_at.slice(0, 10);
    reply
      .header('content-disposition', `attachment; filename="spacecadet-my-data-${day}.json"`)
      .header('cache-control', 'private, no-store');
    return data;
  });

  defineRoute(app, routes.eraseMemberData, async ({ session, request }) =>
    eraseMember(app.services, session.user.id, request.log),
  );
}
