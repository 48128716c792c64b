import { AsyncLocalStorage } from 'node:async_hooks';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type MetricsListen,
  type MetricsServer,
  startMetricsServer,
} from '@spacecadet/runtime/metrics-server';
import type { RedisClient } from '@spacecadet/runtime/redis-client';
import { type Logger, pino } from 'pino';
import { createForwarder, createUpstream, type InFlight, sendJson, watchBudget } from './forwarder.ts';
import { INVALID_REQUEST_WINDOW_MS, InvalidRequestBudget } from './invalid-budget.ts';
import { DEFAULT_LEASE_TTL_MS, type ProxyLease, startProxyLease } from './lease.ts';
import { createProxyMetrics, type ProxyMetrics } from './metrics.ts';
import { dispatchUnderLease } from './standby.ts';

/**
 * One process that holds the bot token's Discord rate limits for every process of the product:
 * the global 50 a second, the per-route buckets @discordjs/rest learns from Discord's
 * `X-RateLimit-*` headers, and the invalid-request budget. The API and the workers send their bot
 * requests here (`DISCORD_PROXY_URL`) and keep no rate-limit state of their own, so the limits
 * are exact however many processes there are, with no Redis round trip per request. When it is
 * down their requests fail (connection refused) and jobs retry with backoff: nothing runs
 * unlimited.
 *
 * With `lease`, several proxies run and one of them is active (see lease.ts): the others pass
 * every request on to it, and one takes over within 5 s of its death, with every limit reset
 * conservatively (`becomeActive`).
 */
export interface DiscordProxyOptions {
  /** Discord's API base, e.g. `https://discord.com/api` (DISCORD_API_BASE). */
  upstream: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Invalid answers (401/403/429) in 10 minutes at which forwarding stops; Discord bans at 10,000. */
  invalidRequestBudget?: number;
  /** The bot's global limit (50 for most bots); the proxy paces arrivals to it (global-gate.ts). */
  globalRequestsPerSecond?: number;
  /** `/metrics` on its own listener; null: none. */
  metrics?: MetricsListen | null;
  logger?: Logger;
  /** Sliding window of the invalid-request count (tests shorten it). */
  invalidRequestWindowMs?: number;
  /** Several proxies, one active: the lease in Redis. Null: this one is always active. */
  lease?: {
    redis: RedisClient;
    /** Where the other proxies reach this one; default its own `url`. */
    advertiseUrl?: string;
    ttlMs?: number;
  } | null;
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
  /** Whether this proxy is the one sending to Discord (always, without a lease). */
  active(): boolean;
  close(): Promise<void>;
}

export const DEFAULT_INVALID_REQUEST_BUDGET = 9_000;
export { BUDGET_HEADER, GLOBAL_SHARE } from './forwarder.ts';

export async function startDiscordProxy(options: DiscordProxyOptions): Promise<DiscordProxy> {
  const logger = options.logger ?? pino({ name: 'discord-proxy', level: 'silent' });
  const budget = new InvalidRequestBudget(
    options.invalidRequestBudget ?? DEFAULT_INVALID_REQUEST_BUDGET,
    options.invalidRequestWindowMs ?? INVALID_REQUEST_WINDOW_MS,
  );
  const metrics = createProxyMetrics(() => budget.count(Date.now()));
  const inFlight = new AsyncLocalStorage<InFlight>();
  const budgetWait = watchBudget(budget, logger);
  const parts = { logger, budget, budgetWait, metrics, inFlight };
  let lease: ProxyLease | null = null;
  // Each time this proxy becomes active it starts a new term (`becomeActive`): a request queued
  // in an earlier term is refused before sending (NotActiveError) and goes to the active one.
  let term = 0;
  const isActive = (ofTerm: number) => ofTerm === term && (lease === null || lease.view().role === 'active');
  let rest = createUpstream(options, parts, { stillActive: () => isActive(0), takenOver: false });
  const becomeActive = () => {
    term += 1;
    const ofTerm = term;
    rest.clearHashSweeper();
    rest.clearHandlerSweeper();
    // A new REST: every bucket unknown, so @discordjs/rest sends one request a bucket at a time
    // until Discord's headers say more, and the first second at half the global limit. The
    // proxy before stopped sending at least TTL - TTL/3 (2 s) before its lease lapsed (at once
    // when it died; when it stalled, it stops itself a TTL after its last renewal, which Redis
    // stamped later), so none of its requests share Discord's one-second global window with
    // these; the half share covers requests still on the wire and clocks that drift.
    rest = createUpstream(options, parts, { stillActive: () => isActive(ofTerm), takenOver: true });
    metrics.active.set(1);
    metrics.takeovers.inc();
  };
  const forward = createForwarder({ ...parts, rest: () => rest });
  const dispatch = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    if (lease === null) await forward(req, res, url.pathname, url.searchParams);
    else
      await dispatchUnderLease(
        lease,
        forward,
        metrics,
        options.lease?.ttlMs ?? DEFAULT_LEASE_TTL_MS,
      )(req, res, url);
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    if (url.pathname === '/healthz') {
      return sendJson(res, 200, { status: 'ok', active: lease === null || lease.view().role === 'active' });
    }
    if (!/^\/api(\/|$)/.test(url.pathname)) return sendJson(res, 404, { message: '404: Not Found', code: 0 });
    dispatch(req, res, url).catch((error: unknown) => {
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
  const ownUrl = `http://${host}:${address.port}/api`;
  if (options.lease) {
    try {
      lease = await startProxyLease({
        redis: options.lease.redis,
        url: options.lease.advertiseUrl ?? ownUrl,
        ttlMs: options.lease.ttlMs ?? DEFAULT_LEASE_TTL_MS,
        logger,
        onActive: becomeActive,
        onStandby: () => metrics.active.set(0),
      });
    } catch (error) {
      server.close();
      throw error;
    }
  } else {
    metrics.active.set(1);
  }

  let metricsServer: MetricsServer | null = null;
  if (options.metrics) {
    try {
      metricsServer = await startMetricsServer(metrics.registry, options.metrics, (error) =>
        logger.warn({ err: error }, 'metrics failed'),
      );
    } catch (error) {
      await lease?.close();
      server.close();
      throw error;
    }
  }

  return {
    url: ownUrl,
    port: address.port,
    metricsUrl: metricsServer?.url ?? null,
    metrics,
    invalidRequests: () => budget.count(Date.now()),
    active: () => lease === null || lease.view().role === 'active',
    async close() {
      // The lease first: a standby takes over at its next renewal instead of after the TTL.
      await lease?.close();
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
