import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { RequestId } from '@spacecadet/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * One id per request, in the API's log lines, in the `x-request-id` response header (so a bug
 * report can quote it) and in the jobs the request queues (so the worker's lines carry it too).
 */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Fastify's `genReqId`. A caller's (or proxy's) `x-request-id` is kept when it is a plain short
 * id, so one id can follow a request through several services; anything else could forge or
 * break log lines, so it is replaced with a fresh UUID. (Fastify's `requestIdHeader` would take
 * any header value unchecked and skip this function, so it stays off.)
 */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && RequestId.safeParse(incoming).success ? incoming : randomUUID();
}

/** The reply, with the request's id in its `x-request-id` header. */
export function withRequestId(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.header(REQUEST_ID_HEADER, request.id);
}

export function registerRequestId(app: FastifyInstance): void {
  // Set first thing, it stays on every answer (routes, errors, 404s, 429s) except the router's
  // own refusals, which run no hooks: frameworkErrors adds it to those.
  app.addHook('onRequest', (request, reply, done) => {
    withRequestId(request, reply);
    done();
  });
}
