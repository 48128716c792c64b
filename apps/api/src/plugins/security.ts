import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { ApiConfig, TrustProxy } from '../env.ts';
import { ApiError } from '../errors.ts';

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

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Whose budget a request spends. A signed-in request spends its session's, so the users behind
 * one proxy or NAT address do not throttle each other; anything else (no token, a made-up or
 * ended one) spends its address's (`request.ip`, the client's own behind TRUST_PROXY), so a
 * flood of guessed tokens is throttled per address. Public routes always count per address: the
 * code exchange's stricter limit must not be reset by signing in again.
 */
function rateLimitKey(app: FastifyInstance) {
  return async (request: FastifyRequest): Promise<string> => {
    const address = `ip:${normalizeIP(request.ip)}`;
    const auth = request.routeOptions.config.auth;
    if (auth === undefined || auth === 'public') return address;
    const header = request.headers.authorization;
    const token = typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
    if (token === undefined) return address;
    // Postgres down: counted per address, and the guard answers 503 right after.
    const found = await app.services.sessions.lookup(token).catch(() => null);
    return found?.status === 'valid' ? `session:${found.session.id}` : address;
  };
}

/**
 * CORS for the dashboard only (tokens travel in the Authorization header, never cookies, so no
 * credentials), security headers, and rate limits per session or per client address (see
 * rateLimitKey) counted in Redis so they hold across API replicas. A Redis outage lets requests
 * through rather than failing them all.
 */
export async function registerSecurity(app: FastifyInstance, config: ApiConfig, redis: Redis): Promise<void> {
  await app.register(cors, {
    // A list (not a string) so other origins get no CORS header at all.
    origin: [config.dashboardUrl],
    credentials: false,
    methods: ['GET', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type'],
    maxAge: 600,
  });
  // No upgrade-insecure-requests: the API (and its docs page) is often reached over plain http
  // on a LAN address, where that directive would break every subresource.
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
  });
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimit.max,
    timeWindow: config.rateLimit.windowMs,
    redis,
    nameSpace: 'rate-limit:',
    skipOnError: true,
    keyGenerator: rateLimitKey(app),
    errorResponseBuilder: (_request, context) =>
      new ApiError('rate_limited', `Too many requests. Try again in ${context.after}.`),
  });
}
