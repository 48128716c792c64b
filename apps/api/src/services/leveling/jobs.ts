import type { FastifyInstance, FastifyRequest } from 'fastify';
import { followUpGuildJob, type JobRequester } from '../jobs.ts';

/**
 * The leveling jobs a stored change queues after it: Sync Roles, Apply Rewards and Recompute
 * Levels. All are
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

/**
 * After the level curve changed: every member's level is recomputed under it and reward roles
 * follow (a courtesy if the queue is down: the next curve change or Sync Roles catches up).
 */
export function queueRecomputeLevels(
  app: FastifyInstance,
  guildId: string,
  requester: JobRequester,
  request: FastifyRequest,
): Promise<string | null> {
  return followUpGuildJob(
    app.services.queue,
    request.log,
    'leveling.recompute-levels',
    guildId,
    requester,
    "levels follow the new curve once the server's next recompute runs",
  );
}
