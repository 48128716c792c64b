import {
  type ChannelUseSpec,
  ErrorBody,
  errorResponses,
  type GuildRefSpec,
  type RouteAuth,
  type RouteDef,
} from '@spacecadet/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../errors.ts';
import { type HistoryNote, HistoryRecorder } from '../history/recorder.ts';
import type { JobRequester } from '../services/jobs.ts';
import type { SessionContext } from '../services/sessions.ts';

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;
/** A status without a body (204) returns nothing: a handler with no `return`, hence void. */
// biome-ignore lint/suspicious/noConfusingVoidType: handlers of 204 routes end without a return statement
type ResultOf<S> = S extends z.ZodType ? z.output<S> : void;
type SuccessStatus<R extends RouteDef> = Extract<keyof R['responses'], 200 | 201 | 202 | 204>;

/** What a handler returns: the success body, or the Location of a redirect route. */
export type RouteResult<R extends RouteDef> = R extends { redirect: true }
  ? string
  : ResultOf<R['responses'][SuccessStatus<R>]>;

export interface RouteContext<R extends RouteDef> {
  params: R extends { params: infer P } ? Output<P> : undefined;
  query: R extends { query: infer Q } ? Output<Q> : undefined;
  body: R extends { body: infer B } ? Output<B> : undefined;
  /** The signed-in session; present on every route whose auth is not `public`. */
  session: R['auth'] extends 'public' ? SessionContext | null : SessionContext;
  /** The user and request a job queued by this handler is for. */
  requester: JobRequester;
  request: FastifyRequest;
  reply: FastifyReply;
  /** A recorded route's history entry (`def.history`): what the handler tells it. */
  history: R extends { history: string } ? HistoryNote : undefined;
}

export interface RouteOptions {
  bodyLimit?: number;
  /** A stricter limit for this route, or false for none (health checks). */
  rateLimit?: { max: number; timeWindow: number } | false;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    needsBot?: boolean;
    guildRefs?: GuildRefSpec;
    channelUses?: ChannelUseSpec;
    /** The body's content types when not only JSON (the route reads the body itself). */
    bodyMediaTypes?: readonly string[];
    /** The success body's content type when not JSON (OpenAPI). */
    responseMediaType?: string;
  }
}

export const NO_BODY_MESSAGE = 'This request takes no body';

/**
 * A route without a body schema (reset, generate, post-panel, ...) takes no body: one sent anyway
 * is a client mistake (or a guess at options the route does not have), so it is refused before
 * anything is done rather than ignored. An empty body, even sent as application/json, is no body.
 * It runs after the guard (app-level preValidation), so 401 and 403 still come first.
 */
async function refuseBody(request: FastifyRequest): Promise<void> {
  if (request.body !== undefined) throw new ApiError('invalid_input', NO_BODY_MESSAGE);
}

/** Statuses without a body still appear in the OpenAPI document (a `null` schema has no content). */
function noContent(status: number) {
  return z.null().meta({ description: status === 302 ? 'Redirect' : 'No content' });
}

/**
 * Registers one route of the contract table: its method, path, params, query, body and responses
 * become the Fastify schema, so the one zod schema validates, documents and types the route.
 * Authentication, guild authorization and the bot check run from hooks that read `config`.
 */
export function defineRoute<R extends RouteDef>(
  app: FastifyInstance,
  def: R,
  handler: (context: RouteContext<R>) => Promise<RouteResult<R>>,
  options: RouteOptions = {},
): void {
  const mediaTypes = Object.keys(def.bodyMediaTypes ?? {});
  const textTypes = mediaTypes.filter((type) => type.startsWith('text/'));
  const binaryTypes = mediaTypes.filter((type) => type.startsWith('image/'));
  if (textTypes.length > 0 || binaryTypes.length > 0) {
    // Text bodies (a CSV upload) are read as a string, images (a rank card background) as bytes,
    // for this route only: the parser lives in a scope of its own, so every other route still
    // takes JSON alone (415 otherwise).
    app.register(async (scope) => {
      if (textTypes.length > 0) {
        scope.addContentTypeParser(textTypes, { parseAs: 'string' }, (_request, body, done) => {
          done(null, typeof body === 'string' ? body : body.toString('utf8'));
        });
      }
      if (binaryTypes.length > 0) {
        scope.addContentTypeParser(binaryTypes, { parseAs: 'buffer' }, (_request, body, done) => {
          done(null, body);
        });
      }
      registerRoute(scope, def, handler, options);
    });
    return;
  }
  registerRoute(app, def, handler, options);
}

function registerRoute<R extends RouteDef>(
  app: FastifyInstance,
  def: R,
  handler: (context: RouteContext<R>) => Promise<RouteResult<R>>,
  options: RouteOptions,
): void {
  const response: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(def.responses)) {
    response[status] = schema ?? noContent(Number(status));
  }
  // The contract lists every error status the route answers; anything else is a failure of
  // ours (500), in the same error body.
  for (const [status, schema] of Object.entries(errorResponses(def))) response[status] = schema;
  response.default = ErrorBody;
  const successStatus = Number(Object.keys(def.responses)[0] ?? 200);
  const successStatuses = new Set(Object.keys(def.responses).map(Number));

  app.route({
    method: def.method,
    url: def.path,
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
    config: {
      auth: def.auth,
      needsBot: def.needsBot === true,
      ...(def.guildRefs ? { guildRefs: def.guildRefs } : {}),
      ...(def.channelUses ? { channelUses: def.channelUses } : {}),
      ...(def.bodyMediaTypes ? { bodyMediaTypes: Object.keys(def.bodyMediaTypes) } : {}),
      ...(def.responseMediaType ? { responseMediaType: def.responseMediaType } : {}),
      ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
    },
    // GET bodies are never parsed, so only the other methods need the check.
    ...(def.body === undefined && def.method !== 'GET' ? { preValidation: refuseBody } : {}),
    schema: {
      summary: def.summary,
      tags: [def.tag],
      ...(def.auth === 'public' ? {} : { security: [{ session: [] }] }),
      ...(def.params ? { params: def.params } : {}),
      ...(def.query ? { querystring: def.query } : {}),
      ...(def.body ? { body: def.body } : {}),
      // Only read by the OpenAPI transform (plugins/docs.ts).
      ...(def.bodyMediaTypes ? { bodyMediaTypes: def.bodyMediaTypes } : {}),
      response,
    },
    handler: async (request, reply) => {
      // The validator compiler has parsed params, query and body with the route's own schemas.
      // Only recorded routes open a history entry (no await, no promise, on the others).
      const recorder = def.history ? await beginHistory(app, def, request) : null;
      const context = {
        params: request.params,
        query: request.query,
        body: request.body,
        session: request.session,
        requester: {
          userId: request.session?.user.id ?? null,
          requestId: request.id,
          ...(recorder ? { historyEntryId: recorder.entryId } : {}),
        },
        request,
        reply,
        history: recorder ?? undefined,
      } as unknown as RouteContext<R>;
      let result: RouteResult<R>;
      try {
        result = await handler(context);
      } catch (error) {
        await recorder?.drop().catch((dropError: unknown) => {
          request.log.warn({ err: dropError }, 'history entry of a failed request not deleted');
        });
        throw error;
      }
      if (recorder) {
        // The change stands: a history write that fails is logged, the request still succeeds.
        await recorder.complete(result).catch((error: unknown) => {
          request.log.error({ err: error, action: def.history }, 'history entry not completed');
        });
      }
      if (reply.sent) return reply;
      if (def.redirect) return reply.redirect(String(result), 302);
      // A handler may answer another success status of its route (200 or 202) by setting it.
      if (!successStatuses.has(reply.statusCode)) reply.code(successStatus);
      return result === undefined ? reply.send() : reply.send(result);
    },
  });
}

/** Opens the history entry of a recorded route (`def.history`) for the path's guild. */
async function beginHistory(
  app: FastifyInstance,
  def: RouteDef,
  request: FastifyRequest,
): Promise<HistoryRecorder | null> {
  if (!def.history || !request.session) return null;
  const guildId = (request.params as { guildId?: unknown }).guildId;
  if (typeof guildId !== 'string') return null;
  return HistoryRecorder.begin(app.services, def.history, guildId, request.session);
}
