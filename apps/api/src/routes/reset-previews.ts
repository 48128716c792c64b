import type { FastifyInstance } from 'fastify';

/** What Reset Color Roles and Reset Personality will delete, for their confirmations. */
export function registerResetPreviewRoutes(_app: FastifyInstance): void {}
