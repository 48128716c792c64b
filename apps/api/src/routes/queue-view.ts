import { queueViewTicketKey, routes } from '@spacecadet/contract';
import type { FastifyInstance } from 'fastify';
import { isPlatformOwner, ownerOnly, QUEUE_VIEW_PATH } from '../plugins/queue-board.ts';
import { hashSessionToken, newSessionToken } from '../services/crypto.ts';
import { defineRoute } from './define.ts';

/** How long the ticket `openQueueView` hands out may wait to be spent. */
const TICKET_TTL_SEC = 60;

/** The owner's one-time ticket to the queue view (plugins/queue-board.ts spends it). */
export function registerQueueViewRoutes(app: FastifyInstance): void {
  const { config, redis } = app.services;

  defineRoute(app, routes.openQueueView, async ({ session }) => {
    if (!isPlatformOwner(config, session.user.id)) throw ownerOnly();
    const ticket = newSessionToken();
    await redis.set(queueViewTicketKey(hashSessionToken(ticket)), session.id, 'EX', TICKET_TTL_SEC);
    return { url: `${config.publicApiUrl}${QUEUE_VIEW_PATH}?ticket=${ticket}` };
  });
}
