import type { FastifyInstance, FastifyRequest } from 'fastify';
import { followUpGuildJob, type JobRequester } from '../jobs.ts';

/**
 * The leveling jobs a stored change queues after it: Sync Roles and Apply Rewards. Both are
 * follow-ups (a queue that is down does not turn the stored change into an error).
 */

/** After a stored change, Sync Roles brings the Discord roles and members' rewards in line. */
export function queueSyncRoles(
  app: FastifyInstance,
  guildId: string,
  requester: JobRequester,
  request: FastifyRequest,
  later: string,
): Promise<string | null> {
  return followUpGuildJob(app.services.queue, request.log, 'leveling.sync-roles', guildId, requester, later);
}

/** Reward roles follow the new XP: the job adds and removes them (a courtesy if the queue is down). */
export function queueApplyRewards(
  app: FastifyInstance,
  guildId: string,
  requester: JobRequester,
  request: FastifyRequest,
): Promise<string | null> {
  return followUpGuildJob(
    app.services.queue,
    request.log,
    'leveling.apply-rewards',
    guildId,
    requester,
    'the next XP tool or Sync Roles applies the rewards',
  );
}
