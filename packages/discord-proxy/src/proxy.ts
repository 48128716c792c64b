import { AsyncLocalStorage } from 'node:async_hooks';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { populateErrorResponse, populateSuccessfulResponse } from '@discordjs/proxy';
import { DefaultRestOptions, REST, type RequestMethod, type RouteLike } from '@discordjs/rest';
import {
  type MetricsListen,
  type MetricsServer,
  startMetricsServer,
} from '@spacecadet/runtime/metrics-server';
import { type Logger, pino } from 'pino';
import { INVALID_REQUEST_WINDOW_MS, InvalidRequestBudget, isInvalidAnswer } from './invalid-budget.ts';
import { createProxyMetrics, type ProxyMetrics } from './metrics.ts';
import { routeLabel } from './route-label.ts';

/**
 * One process that holds the bot token's Discord rate limits for every process of the product:
 * the global 50 a second, the per-route buckets @discordjs/rest learns from Discord's
 * `X-RateLimit-*` headers, and the invalid-request budget. The API and the workers send their bot
 * requests here (`DISCORD_PROXY_URL`) and keep no rate-limit state of their own, so the limits
 * are exact however many processes there are, with no Redis round trip per request. When it is
 * down their requests fail (connection refused) and jobs retry with backoff: nothing runs
 * unlimited.
 */
export interface DiscordProxyOptions {
  /** Discord's API base, e.g. `https://discord.com/api` (DISCORD_API_BASE). */
  upstream: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Invalid answers (401/403/429) in 10 minutes at which forwarding stops; Discord bans at 10,000. */
  invalidRequestBudget?: number;
  /** The bot's global limit (50 for most bots); the proxy sends GLOBAL_SHARE of it. */
  globalRequestsPerSecond?: number;
  /** `/metrics` on its own listener; null: none. */
  metrics?: MetricsListen | null;
  logger?: Logger;
  /** Sliding window of the invalid-request count (tests shorten it). */
  invalidRequestWindowMs?: number;
}

export interface DiscordProxy {
  /** What DISCORD_PROXY_URL is set to, e.g. `http://127.0.0.1:4200/api`. */
  readonly url: string;
  readonly port: number;
  /** The metrics listener's URL, or null when there is none. */
  readonly metricsUrl: string | null;
  readonly metrics: ProxyMetrics;
  /** Invalid answers counted in the current window. */
  invalidRequests(): number;
  close(): Promise<void>;
}

export const DEFAULT_INVALID_REQUEST_BUDGET = 9_000;
/**
 * The share of the global limit the proxy sends a second. Discord's second starts when the first
 * request arrives, the proxy's when it leaves: a request sent at the end of one second can land
 * in Discord's next one (measured against the sandbox under load: 50 of 50 gave 429s, 45 none).
 */
export const GLOBAL_SHARE = 0.9;
/** Says a 429 came from the proxy's invalid-request budget, not from Discord. */
export const BUDGET_HEADER = 'x-spacecadet-proxy-limit';

interface InFlight {
  route: string;
  receivedAt: number;
  sent: boolean;
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : Buffer.concat(chunks);
}

export async function startDiscordProxy(options: DiscordProxyOptions): Promise<DiscordProxy> {
  const logger = options.logger ?? pino({ name: 'discord-proxy', level: 'silent' });
  const budget = new InvalidRequestBudget(
    options.invalidRequestBudget ?? DEFAULT_INVALID_REQUEST_BUDGET,
    options.invalidRequestWindowMs ?? INVALID_REQUEST_WINDOW_MS,
  );
  const metrics = createProxyMetrics(() => budget.count(Date.now()));
  const inFlight = new AsyncLocalStorage<InFlight>();
  const budgetWait = watchBudget(budget, logger);
  const rest = createUpstream(options, { logger, budget, budgetWait, metrics, inFlight });
  const forward = createForwarder({ logger, budgetWait, metrics, inFlight, rest });

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    if (url.pathname === '/healthz') return sendJson(res, 200, { status: 'ok' });
    if (!/^\/api(\/|$)/.test(url.pathname)) return sendJson(res, 404, { message: '404: Not Found', code: 0 });
    forward(req, res, url.pathname, url.searchParams).catch((error: unknown) => {
      logger.error({ err: error }, 'proxy request failed');
      if (!res.headersSent) sendJson(res, 500, { message: 'The proxy failed', code: 0 });
      else res.end();
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(options.port ?? 4200, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let metricsServer: MetricsServer | null = null;
  if (options.metrics) {
    try {
      metricsServer = await startMetricsServer(metrics.registry, options.metrics, (error) =>
        logger.warn({ err: error }, 'metrics failed'),
      );
    } catch (error) {
      server.close();
      throw error;
    }
  }

  return {
    url: `http://${host}:${address.port}/api`,
    port: address.port,
    metricsUrl: metricsServer?.url ?? null,
    metrics,
    invalidRequests: () => budget.count(Date.now()),
    async close() {
      const closed = once(server, 'close');
      server.close();
      server.closeAllConnections();
      await closed;
      await metricsServer?.close();
      rest.clearHashSweeper();
      rest.clearHandlerSweeper();
    },
  };
}

/** What the proxy's parts share: its logger, budget, metrics and the request being forwarded. */
interface ProxyParts {
  logger: Logger;
  budget: InvalidRequestBudget;
  /** The wait before forwarding is allowed again, 0 when it is (see `watchBudget`). */
  budgetWait: () => number;
  metrics: ProxyMetrics;
  inFlight: AsyncLocalStorage<InFlight>;
}

/** The budget's wait, logging once when the budget runs out and once when it frees again. */
function watchBudget(budget: InvalidRequestBudget, logger: Logger): () => number {
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
function createUpstream(
  options: DiscordProxyOptions,
  { logger, budget, budgetWait, metrics, inFlight }: ProxyParts,
): REST {
  return new REST({
    api: options.upstream,
    version: '10',
    globalRequestsPerSecond: Math.max(1, Math.floor((options.globalRequestsPerSecond ?? 50) * GLOBAL_SHARE)),
    // Every request goes out here, after its wait: the wait is measured and Discord's answer counted.
    async makeRequest(url, init) {
      const request = inFlight.getStore();
      if (request && !request.sent) {
        request.sent = true;
        metrics.wait.observe({ route: request.route }, (performance.now() - request.receivedAt) / 1000);
      }
      const response = await DefaultRestOptions.makeRequest(url, init);
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
    },
  });
}

/** Forwards one `/api` request to Discord through `rest`, or refuses it while the budget is spent. */
function createForwarder({
  logger,
  budgetWait,
  metrics,
  inFlight,
  rest,
}: Omit<ProxyParts, 'budget'> & { rest: REST }) {
  async function forward(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) {
    const method = (req.method ?? 'GET').toUpperCase();
    const fullRoute = (path.replace(/^\/api(\/v\d+)?/, '') || '/') as RouteLike;
    const route = routeLabel(method, fullRoute);
    const wait = budgetWait();
    if (wait > 0) {
      metrics.budgetRefusals.inc();
      metrics.requests.inc({ route, method, status: '429' });
      req.resume();
      // Discord's own 429 shape, so discord.js waits `retry_after` and tries again.
      return sendJson(
        res,
        429,
        { message: 'The invalid-request budget is spent.', retry_after: wait / 1000, global: true },
        { 'retry-after': String(Math.ceil(wait / 1000)), [BUDGET_HEADER]: 'invalid-request-budget' },
      );
    }
    // Buffered, not streamed: a request rest retries (after a 429 or a 5xx) sends its body again.
    const body = await readBody(req);
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'authorization', 'x-audit-log-reason'] as const) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const request: InFlight = { route, receivedAt: performance.now(), sent: false };
    try {
      const answer = await inFlight.run(request, () =>
        rest.queueRequest({
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
      if (!populateErrorResponse(res, error)) {
        logger.warn({ route, err: error }, 'Discord did not answer the proxy');
        if (!res.headersSent) {
          res.statusCode = 502;
          res.setHeader('content-type', 'application/json');
          res.write(JSON.stringify({ message: 'Discord did not answer the proxy', code: 0 }));
        }
      }
    } finally {
      res.end();
      metrics.requests.inc({ route, method, status: String(res.statusCode) });
    }
  }
  return forward;
}
