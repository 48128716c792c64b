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
    // A job's writes (a reset, an undo, an import) were the worker's: the dashboard reads the
    // guild again once it sees the job end, so that read must not go to a replica behind them.
    if (status.state === 'completed' || status.state === 'failed') {
      await app.services.reads.markWrite({ guildId: parsed.guildId });
    }
    return status;
  });
}
