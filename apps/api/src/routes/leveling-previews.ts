import type { FastifyInstance } from 'fastify';

/** What Reset Leveling, Prune leavers and deleting a reward role will remove, for their confirmations. */
export function registerLevelingPreviewRoutes(_app: FastifyInstance): void {}
