import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { queueViewPassKey, queueViewTicketKey } from '@spacecadet/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiConfig } from '../env.ts';
import { ApiError, notAuthenticated, SESSION_EXPIRED_MESSAGE } from '../errors.ts';
import { cookieValue, setCookieHeader } from '../services/cookies.ts';
import { hashSessionToken, newSessionToken } from '../services/crypto.ts';
import type { SessionContext } from '../services/sessions.ts';
import { sendError } from './errors.ts';
import { servesPages } from './security.ts';

/**
 * The job queue view (bull-board) for the platform owner (OWNER_USER_ID) only.
 *
 * API sessions are bearer tokens the dashboard keeps in JS, and a browser opening a page sends no
 * Authorization header. So the signed-in owner asks `openQueueView` (routes/queue-view.ts) for a
 * one-time ticket (60 s, bound to the session); opening `/admin/queues?ticket=` spends it and
 * sets an HttpOnly, SameSite=Strict pass cookie scoped to `/admin/queues`, which maps (in Redis,
 * hashed, expiring with the session) to the session. Every request under `/admin/queues` then checks that the
 * session is still live in Postgres (not logged out, revoked or expired) and its user is still the
 * owner: 401 without a live session, 403 for anyone else.
 *
 * Read-only: pausing, emptying or obliterating the queue, or adding jobs with hand-written data,
 * is not something to do from a browser tab.
 */
export const QUEUE_VIEW_PATH = '/admin/queues';
export const QUEUE_VIEW_COOKIE = 'spacecadet_queue_view';
/** Tickets and passes are `newSessionToken()`s: 32 random bytes, base64url. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const ownerOnly = () => new ApiError('forbidden', 'Only the platform owner may open the queue view');
const sessionEnded = () => new ApiError('session_expired', SESSION_EXPIRED_MESSAGE);

export function isPlatformOwner(config: ApiConfig, userId: string): boolean {
  return config.ownerUserId !== null && userId === config.ownerUserId;
}

function ticketParam(request: FastifyRequest): string | null {
  const query = request.query;
  if (typeof query !== 'object' || query === null || !('ticket' in query)) return null;
  return typeof query.ticket === 'string' && TOKEN_SHAPE.test(query.ticket) ? query.ticket : null;
}

export async function registerQueueBoard(app: FastifyInstance): Promise<void> {
  const { config, redis, queue, sessions } = app.services;

  /** Spends a ticket: its session gets a pass cookie that lives as long as the session. */
  async function spendTicket(ticket: string, reply: FastifyReply): Promise<SessionContext | null> {
    const sessionId = await redis.getdel(queueViewTicketKey(hashSessionToken(ticket)));
    if (sessionId === null) return null;
    const session = await sessions.live(sessionId);
    if (session === null) throw sessionEnded();
    const ttlSec = Math.max(1, Math.floor((session.expiresAt.getTime() - Date.now()) / 1000));
    const pass = newSessionToken();
    await redis.set(queueViewPassKey(hashSessionToken(pass)), session.id, 'EX', ttlSec);
    reply.header(
      'set-cookie',
      setCookieHeader(config, QUEUE_VIEW_COOKIE, pass, {
        path: QUEUE_VIEW_PATH,
        maxAgeSec: ttlSec,
        sameSite: 'Strict',
      }),
    );
    return session;
  }

  async function passSession(request: FastifyRequest): Promise<SessionContext | null> {
    const pass = cookieValue(request, QUEUE_VIEW_COOKIE);
    if (pass === null || !TOKEN_SHAPE.test(pass)) return null;
    const sessionId = await redis.get(queueViewPassKey(hashSessionToken(pass)));
    if (sessionId === null) return null;
    const session = await sessions.live(sessionId);
    if (session === null) throw sessionEnded();
    return session;
  }

  async function guard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const ticket = ticketParam(request);
    // A spent or unknown ticket falls back to the cookie, so reloading the first page still works.
    const session =
      (ticket === null ? null : await spendTicket(ticket, reply)) ?? (await passSession(request));
    if (session === null) throw notAuthenticated();
    if (!isPlatformOwner(config, session.user.id)) throw ownerOnly();
  }

  const serverAdapter = new FastifyAdapter();
  createBullBoard({
    // Every shard's queue, each a queue of its own on the board.
    queues: queue.all().map((shardQueue) => new BullMQAdapter(shardQueue, { readOnlyMode: true })),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Space Cadet jobs' } },
  });
  serverAdapter.setBasePath(QUEUE_VIEW_PATH);

  await app.register(
    async (board) => {
      servesPages(board);
      // Answered here in the API's error body: bull-board's own error handler, which would
      // otherwise see a thrown error, echoes messages in its own shape.
      board.addHook('onRequest', async (request, reply) => {
        try {
          await guard(request, reply);
        } catch (error) {
          return sendError(error, request, reply);
        }
      });
      await board.register(serverAdapter.registerPlugin());
    },
    { prefix: QUEUE_VIEW_PATH },
  );
}
