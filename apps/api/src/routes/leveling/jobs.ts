import { routes } from '@spacecadet/contract';
import type { FastifyInstance } from 'fastify';
import { enqueueGuildJob } from '../../services/jobs.ts';
import { defineRoute } from '../define.ts';

/** The leveling jobs an admin starts: Sync Roles, resend the daily overview, prune leavers. */
export function registerLevelingJobRoutes(app: FastifyInstance): void {
  const { queue } = app.services;

  defineRoute(app, routes.syncLevelingRoles, async ({ params, requester, history }) => {
    history.describe({ subject: 'leveling:roles' });
    return { job_id: await enqueueGuildJob(queue, 'leveling.sync-roles', params.guildId, requester) };
  });
  defineRoute(app, routes.resendLevelingOverview, async ({ params, requester, history }) => {
    history.describe({ subject: 'leveling:overview' });
    return { job_id: await enqueueGuildJob(queue, 'leveling.resend-overview', params.guildId, requester) };
  });
  // The job keeps the XP rows it deletes in this entry (apps/worker `prune.ts`) before deleting.
  defineRoute(app, routes.pruneLeavers, async ({ params, requester, history }) => {
    history.snapshotByJob('leveling:xp');
    return { job_id: await enqueueGuildJob(queue, 'leveling.prune-leavers', params.guildId, requester) };
  });
}
