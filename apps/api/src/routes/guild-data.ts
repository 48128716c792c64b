import { routes } from '@spacecadet/contract';
import type { FastifyInstance } from 'fastify';
import { guildDataSummary, ownedGuildDepartures, queueGuildDataDeletion } from '../services/guild-data.ts';
import { defineRoute } from './define.ts';

/** A server's data: what its deletion removes, the deletion (owner only), servers pending purge. */
export function registerGuildDataRoutes(app: FastifyInstance): void {
  defineRoute(app, routes.getGuildData, ({ params, session }) =>
    guildDataSummary(app.services, session, params.guildId),
  );
  defineRoute(app, routes.deleteGuildData, async ({ params, session, body, requester, reply }) => {
    const jobId = await queueGuildDataDeletion(
      app.services,
      session,
      params.guildId,
      body.confirm,
      requester,
    );
    reply.code(202);
    return { job_id: jobId };
  });
  defineRoute(app, routes.listGuildDepartures, ({ session }) => ownedGuildDepartures(app.services, session));
}
