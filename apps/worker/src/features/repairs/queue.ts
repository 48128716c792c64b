import type { JobName } from '@spacecadet/contract';
import { addGuildJob } from '@spacecadet/db/guild-jobs';
import type { ManagedFeature } from '@spacecadet/db/queries/member-picks';
import type { WorkerDeps } from '../../deps.ts';

/** Each feature's repair: the job that puts back its deleted roles and messages. */
export const REPAIR_JOBS: Readonly<Record<ManagedFeature, JobName>> = {
  color: 'color-roles.repair',
  personality: 'personality-roles.refresh',
  leveling: 'leveling.sync-roles',
};

/**
 * How long a repair waits after the first delete it was queued for: the rest of a burst (an
 * admin deleting several roles, a purge of messages) joins the pending repair instead of
 * queueing more.
 */
export const REPAIR_DEBOUNCE_MS = 1_000;

/**
 * Queues the feature's repair for the guild under its repair id (`repairJobIdFor`), to run
 * `REPAIR_DEBOUNCE_MS` from now; a pending one is joined, and while one runs (it may have read
 * the roles before this delete) one follow-up is queued, as for an admin's change.
 */
export function queueRepair(deps: WorkerDeps, feature: ManagedFeature, guildId: string): Promise<string> {
  return addGuildJob(deps.queue, REPAIR_JOBS[feature], guildId, null, {
    repair: true,
    afterChange: true,
    delayMs: REPAIR_DEBOUNCE_MS,
  });
}
