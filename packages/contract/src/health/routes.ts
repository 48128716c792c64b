/** Liveness and readiness probes. */
import { z } from 'zod';
import { ok, route } from '../route-definition.ts';

export const healthRoutes = {
  healthz: route({
    method: 'GET',
    path: '/healthz',
    auth: 'public',
    tag: 'health',
    summary: 'Liveness',
    errors: [],
    responses: ok(z.object({ status: z.literal('ok') })),
  }),
  readyz: route({
    method: 'GET',
    path: '/readyz',
    auth: 'public',
    tag: 'health',
    summary: 'Readiness: Postgres and Redis answering',
    errors: [503],
    responses: ok(
      z.object({ status: z.enum(['ok', 'degraded']), postgres: z.boolean(), redis: z.boolean() }),
    ),
  }),
} as const;
