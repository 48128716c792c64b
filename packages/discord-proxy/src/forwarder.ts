import type { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { populateErrorResponse, populateSuccessfulResponse } from '@discordjs/proxy';
import { DefaultRestOptions, REST, type RequestMethod, type RouteLike } from '@discordjs/rest';
import type { Logger } from 'pino';
import { exemptFromGlobalLimit, GlobalGate } from './global-gate.ts';
import { type InvalidRequestBudget, isInvalidAnswer } from './invalid-budget.ts';
import type { ProxyMetrics } from './metrics.ts';
import { routeLabel } from './route-label.ts';

/** How the active proxy sends requests to Discord: its REST client and the forwarder in front of it. */

/**
 * The share of the global limit the proxy sends a second: all of it. It once kept 10% back
 * because it counted seconds from when requests left and Discord from when they arrive; the
 * gate (global-gate.ts) now bounds arrivals, so a full second's worth never meets a 429.
 */
export const GLOBAL_SHARE = 1;
/** @discordjs/rest's own global limiter, lifted: the gate paces instead (see `createUpstream`). */
const UNLIMITED = 1_000_000;
/** Says a 429 came from the proxy's invalid-request budget, not from Discord. */
export const BUDGET_HEADER = 'x-spacecadet-proxy-limit';

export interface InFlight {
  route: string;
  /** The path after the API version, e.g. `/channels/1/messages`. */
  fullRoute: string;
  receivedAt: number;
  sent: boolean;
}

/** Thrown before sending by a proxy that stopped being the active one while the request waited. */
export class NotActiveError extends Error {
  constructor() {
    super('this Discord proxy is no longer the active one');
    this.name = 'NotActiveError';
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : Buffer.concat(chunks);
}

/** What the proxy's parts share: its logger, budget, metrics and the request being forwarded. */
export interface ProxyParts {
  logger: Logger;
  budget: InvalidRequestBudget;
  /** The wait before forwarding is allowed again, 0 when it is (see `watchBudget`). */
  budgetWait: () => number;
  metrics: ProxyMetrics;
  inFlight: AsyncLocalStorage<InFlight>;
}

/** The budget's wait, logging once when the budget runs out and once when it frees again. */
export function watchBudget(budget: InvalidRequestBudget, logger: Logger): () => number {
  let exhausted = false;
  return (): number => {
    const now = Date.now();
    const wait = budget.waitMs(now);
    if (wait > 0 && !exhausted) {
      exhausted = true;
      logger.error(
        { invalidRequests: budget.count(now), budget: budget.budget, retryAfterMs: wait },
        'invalid-request budget spent: the proxy refuses to forward until Discord forgets older 401/403/429 answers',
      );
    } else if (wait === 0 && exhausted) {
      exhausted = false;
      logger.warn(
        { invalidRequests: budget.count(now) },
        'invalid-request budget available again: forwarding resumed',
      );
    }
    return wait;
  };
}

/** The REST client requests go out through, at the proxy's share of the global rate limit. */
export function createUpstream(
  options: { upstream: string; globalRequestsPerSecond?: number | undefined },
  { logger, budget, budgetWait, metrics, inFlight }: ProxyParts,
  term: { stillActive: () => boolean; takenOver: boolean },
): REST {
  const perSecond = Math.max(1, Math.floor((options.globalRequestsPerSecond ?? 50) * GLOBAL_SHARE));
  // Just taken over: half the slots count as answered at the first request, so the first second
  // sends half the share, then the whole share.
  const gate = new GlobalGate(
    perSecond,
    undefined,
    term.takenOver ? perSecond - Math.floor(perSecond / 2) : 0,
  );
  const rest: REST = new REST({
    api: options.upstream,
    version: '10',
    globalRequestsPerSecond: UNLIMITED,
    // Every request goes out here, retries included: the gate paces it, its wait is measured and
    // Discord's answer counted.
    async makeRequest(url, init) {
      const request = inFlight.getStore();
      const counted = !exemptFromGlobalLimit(request?.fullRoute ?? routeOf(url));
      const release = counted ? await gate.acquire() : () => {};
      // @discordjs/rest armed its timeout (init.signal) before calling us, so a long wait in the
      // gate behind a backlog would abort the request unsent: after the gate it is sent with a
      // fresh timeout of the same length. The proxy passes no caller signal of its own.
      const controller = new AbortController();
      const timeout = setTimeout(() => controller.abort(), rest.options.timeout);
      try {
        // Another proxy took over while this request waited: it goes there, unsent (see dispatch).
        if (!term.stillActive()) throw new NotActiveError();
        if (request && !request.sent) {
          request.sent = true;
          metrics.wait.observe({ route: request.route }, (performance.now() - request.receivedAt) / 1000);
        }
        const response = await DefaultRestOptions.makeRequest(url, { ...init, signal: controller.signal });
        const scope =
          response.headers.get('x-ratelimit-scope') ??
          (response.headers.get('x-ratelimit-global') ? 'global' : null);
        if (isInvalidAnswer(response.status, scope)) {
          budget.record(Date.now());
          budgetWait();
        }
        if (response.status === 429) {
          const route = request?.route ?? 'unknown';
          metrics.upstreamRateLimits.inc({ route, scope: scope ?? 'unknown' });
          logger.warn({ route, scope }, 'Discord answered 429 to the proxy');
        }
        return response;
      } finally {
        // Answered, failed or never sent: it arrived, if at all, by now.
        clearTimeout(timeout);
        release();
      }
    },
  });
  return rest;
}

/** The route of a request URL, after the API version (`/v10/channels/1` → `/channels/1`). */
function routeOf(url: string): string {
  return /\/v\d+(\/.*)$/.exec(new URL(url).pathname)?.[1] ?? '/';
}

/** Forwards one `/api` request to Discord through `rest`, or refuses it while the budget is spent. */
export function createForwarder({
  logger,
  budgetWait,
  metrics,
  inFlight,
  rest,
}: Omit<ProxyParts, 'budget'> & { rest: () => REST }) {
  /** False when the request was not sent because this proxy is no longer active (nothing answered). */
  async function forward(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: URLSearchParams,
    received?: Buffer,
  ): Promise<boolean> {
    const method = (req.method ?? 'GET').toUpperCase();
    const fullRoute = (path.replace(/^\/api(\/v\d+)?/, '') || '/') as RouteLike;
    const route = routeLabel(method, fullRoute);
    const wait = budgetWait();
    if (wait > 0) {
      metrics.budgetRefusals.inc();
      metrics.requests.inc({ route, method, status: '429' });
      req.resume();
      // Discord's own 429 shape, so discord.js waits `retry_after` and tries again.
      sendJson(
        res,
        429,
        { message: 'The invalid-request budget is spent.', retry_after: wait / 1000, global: true },
        { 'retry-after': String(Math.ceil(wait / 1000)), [BUDGET_HEADER]: 'invalid-request-budget' },
      );
      return true;
    }
    // Buffered, not streamed: a request rest retries (after a 429 or a 5xx) sends its body again.
    const body = received ?? (await readBody(req));
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'authorization', 'x-audit-log-reason'] as const) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const request: InFlight = { route, fullRoute, receivedAt: performance.now(), sent: false };
    try {
      const answer = await inFlight.run(request, () =>
        rest().queueRequest({
          fullRoute,
          method: method as RequestMethod,
          body,
          // The caller's Authorization header is forwarded as it came.
          auth: false,
          passThroughBody: true,
          query,
          headers,
        }),
      );
      await populateSuccessfulResponse(res, answer);
    } catch (error) {
      if (error instanceof NotActiveError && !request.sent && !res.headersSent) return false;
      if (!populateErrorResponse(res, error)) {
        logger.warn({ route, err: error }, 'Discord did not answer the proxy');
        if (!res.headersSent) {
          res.statusCode = 502;
          res.setHeader('content-type', 'application/json');
          res.write(JSON.stringify({ message: 'Discord did not answer the proxy', code: 0 }));
        }
      }
    }
    res.end();
    metrics.requests.inc({ route, method, status: String(res.statusCode) });
    return true;
  }
  return forward;
}
