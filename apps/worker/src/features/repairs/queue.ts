import type { JobName } from '@spacecadet/contract';
import type { ManagedFeature } from '@spacecadet/db/queries/member-picks';
import { addGuildJob } from '@spacecadet/queue/guild-jobs';
import type { WorkerDeps } from '../../deps.ts';

/** Each feature's repair: the job that puts back its deleted roles and messages. */
export const REPAIR_JOBS: Readonly<Record<ManagedFeature, JobName>> = {
  color: 'color-roles.repair',
  personality: 'personality-roles.refresh',
  leveling: 'leveling.sync-roles',
  menus: 'role-menus.repair',
};

/**
 * Queues the feature's repair for the guild under its repair id (`repairJobIdFor`), to run
 * `delayMs` (REPAIR_DELAY_MS, 1 s by default) from now, so the rest of a burst of deletes (an
 * admin deleting several roles, a purge of messages) joins it instead of queueing more; while
 * one runs (it may have read the roles before this delete) one follow-up is queued, as for an
 * admin's change.
 */
export function queueRepair(
  deps: WorkerDeps,
  feature: ManagedFeature,
  guildId: string,
  delayMs: number,
): Promise<string> {
  return addGuildJob(deps.queue, REPAIR_JOBS[feature], guildId, null, {
    repair: true,
    afterChange: true,
    delayMs,
  });
}
