import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { ApiConfig } from '../env.ts';
import { ApiError } from '../errors.ts';

/**
 * CORS for the dashboard only (tokens travel in the Authorization header, never cookies, so no
 * credentials), security headers, and per-IP rate limits counted in Redis so they hold across
 * API replicas. A Redis outage lets requests through rather than failing them all.
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
    errorResponseBuilder: (_request, context) =>
      new ApiError('rate_limited', `Too many requests. Try again in ${context.after}.`),
  });
}
