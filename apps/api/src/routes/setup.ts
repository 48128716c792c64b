import { routes } from '@spacecadet/contract';
import type { FastifyInstance } from 'fastify';
import { SetupChecklistService } from '../services/setup-checklist.ts';
import { defineRoute } from './define.ts';

/** The overview's setup checklist and its dismissal (services/setup-checklist.ts). */
export function registerSetupRoutes(app: FastifyInstance): void {
  const { db, redis, discord } = app.services;
  const setup = new SetupChecklistService(db, redis, discord);
  defineRoute(app, routes.getSetupChecklist, ({ params }) => setup.checklist(params.guildId));
  defineRoute(app, routes.dismissSetupChecklist, ({ params, session }) =>
    setup.setDismissed(params.guildId, session.user.id, true),
  );
  defineRoute(app, routes.restoreSetupChecklist, ({ params, session }) =>
    setup.setDismissed(params.guildId, session.user.id, false),
  );
}
