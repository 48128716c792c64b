import { routes } from '@spacecadet/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { defineRoute } from './define.ts';

const CHECK_TIMEOUT_MS = 2_000;

async function answers(check: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check().then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export function registerHealthRoutes(app: FastifyInstance): void {
  const { db, redis } = app.services;

  defineRoute(app, routes.healthz, async () => ({ status: 'ok' as const }), { rateLimit: false });

  defineRoute(
    app,
    routes.readyz,
    async () => {
      // The read replica is not asked: while it is down its reads go to the primary, so the API
      // stays ready (`pnpm doctor` reports it).
      const [postgres, redisUp] = await Promise.all([
        answers(() => db.execute(sql`select 1`)),
        answers(() => redis.ping()),
      ]);
      if (!postgres || !redisUp) {
        const down = [postgres ? null : 'Postgres', redisUp ? null : 'Redis'].filter((n) => n !== null);
        throw new ApiError('service_unavailable', `Not ready: ${down.join(' and ')} not answering`);
      }
      return { status: 'ok' as const, postgres, redis: redisUp };
    },
    { rateLimit: false },
  );
}
