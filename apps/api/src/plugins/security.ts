import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Redis } from 'ioredis';
import type { ApiConfig, TrustProxy } from '../env.ts';
import { ApiError } from '../errors.ts';
import { syncedRateLimitStore } from '../services/rate-limit-store.ts';
import { bearerToken } from './auth.ts';

/**
 * TRUST_PROXY as Fastify's `trustProxy`. Fastify itself now ignores a bare hop count (it cannot
 * check who connected), so a count becomes the function proxy-addr always meant by one: the
 * first `hops` addresses from the socket inwards are proxies, the one after is the client. Only
 * safe when the API cannot be reached except through those proxies; addresses/CIDRs are safer.
 */
export function trustedProxies(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

/**
 * Whose budget a request spends. A signed-in request spends its session's, so the users behind
 * one proxy or NAT address do not throttle each other; anything else (no token, a made-up or
 * ended one) spends its address's (`request.ip`, the client's own behind TRUST_PROXY), so a
 * flood of guessed tokens is throttled per address. Public routes always count per address: the
 * code exchange's stricter limit must not be reset by signing in again.
 *
 * Only sessions this replica already holds in memory count as signed in here: deciding the key
 * never waits on Postgres, so a flood of made-up tokens is throttled before any lookup. A
 * session's first request on a replica (and any while the replica serves nothing from memory)
 * spends the address's budget.
 */
function rateLimitKey(app: FastifyInstance) {
  return (request: FastifyRequest): string => {
    const auth = request.routeOptions.config.auth;
    const token = auth === undefined || auth === 'public' ? null : bearerToken(request);
    const session = token === null ? undefined : app.services.sessions.known(token);
    if (session === undefined) return `ip:${normalizeIP(request.ip)}`;
    // The guard (plugins/auth.ts) takes it from here instead of looking the token up again.
    request.session = session;
    return `session:${session.id}`;
  };
}

/**
 * The headers helmet sets, computed once: they depend on the options only, and running helmet's
 * middleware chain (or the Fastify plugin, which also rebuilds it) on every request costs more
 * than the rest of a cached read.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    // Lower-case names, as Fastify keeps them: it then has nothing to convert on each request.
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: () => {},
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * The security headers of the API's answers (`api`) and of its HTML pages (`page`: the docs UI,
 * the queue view), each computed once.
 *
 * Every answer is JSON, CSV or a redirect except those pages. What protects a JSON answer is
 * OWASP's set for REST APIs: nothing may run or be framed (`default-src 'none'; frame-ancestors
 * 'none'`, X-Frame-Options), no sniffing it as something else, HSTS, no embedding by other sites
 * (CORP) and no referrer. The rest of helmet's dozen (COOP, Origin-Agent-Cluster, DNS prefetch,
 * X-Download-Options, X-Permitted-Cross-Domain-Policies, X-XSS-Protection, a page CSP) only mean
 * something to a document, and every answer would carry their ~600 bytes: they go on the pages.
 */
export function securityHeaders(): { api: Record<string, string>; page: Record<string, string> } {
  // No upgrade-insecure-requests: the API (and its docs page) is often reached over plain http
  // on a LAN address, where that directive would break every subresource.
  const page = helmetHeaders({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } });
  const api: Record<string, string> = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-frame-options': 'DENY',
  };
  for (const name of API_HELMET_HEADERS) {
    const value = page[name];
    if (value !== undefined) api[name] = value;
  }
  return { api, page };
}
const API_HELMET_HEADERS = [
  'x-content-type-options',
  'strict-transport-security',
  'cross-origin-resource-policy',
  'referrer-policy',
] as const;

/** An HTML page's plugin scope: its answers carry the document headers (securityHeaders). */
export function servesPages(scope: FastifyInstance): void {
  const { page } = securityHeaders();
  scope.addHook('onRequest', (_request, reply, done) => {
    reply.headers(page);
    done();
  });
}

/**
 * CORS for the dashboard only, with credentials: bearer tokens travel in the Authorization header,
 * and the dashboard's sign-in, refresh and logout calls also carry the refresh cookie (routes/auth.ts);
 * no other origin gets a CORS header at all. Security headers, and rate limits per session or per client address (see
 * rateLimitKey), counted in memory and shared through Redis so they hold across API replicas
 * (services/rate-limit-store.ts). A Redis outage only stops the sharing.
 */
export async function registerSecurity(app: FastifyInstance, config: ApiConfig, redis: Redis): Promise<void> {
  await app.register(cors, {
    // A list (not a string) so other origins get no CORS header at all.
    origin: [config.dashboardUrl],
    credentials: true,
    methods: ['GET', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type'],
    maxAge: 600,
  });
  const headers = securityHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers.api);
    done();
  });
  const counts = syncedRateLimitStore(redis, 'rate-limit:', app.log);
  app.addHook('onClose', async () => counts.close());
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimit.max,
    timeWindow: config.rateLimit.windowMs,
    store: counts.Store,
    keyGenerator: rateLimitKey(app),
    errorResponseBuilder: (_request, context) =>
      new ApiError('rate_limited', `Too many requests. Try again in ${context.after}.`),
  });
}
