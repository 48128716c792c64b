import { parseJobId, routes } from '@spacecadet/contract';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.ts';
import { authorizeGuild } from '../plugins/auth.ts';
import { readJobStatus } from '../services/jobs.ts';
import { defineRoute } from './define.ts';

/** Job progress, for users who may manage the job's guild. */
export function registerJobRoutes(app: FastifyInstance): void {
  defineRoute(app, routes.getJob, async ({ params, session }) => {
    const parsed = parseJobId(params.jobId);
    if (!parsed) throw notFound('No such job');
    await authorizeGuild(app.services, session, parsed.guildId);
    const status = await readJobStatus(app.services.queue, app.services.config.redisPrefix, params.jobId);
    if (!status) throw notFound('No such job');
    return status;
  });
}
