import { type JobName, type JobStatus, parseJobId, type RouteName } from '@spacecadet/contract';
import { isApiError } from '../../lib/api-error.ts';

/**
 * What the shared job tracker shows besides progress: a job being recovered after its worker
 * stopped, and a job the queue no longer knows (Redis restarted without persistence, or the
 * job was trimmed) with a way to run the same action again.
 */

export const JOB_RECOVERING_MESSAGE = 'Recovering: a worker stopped; another is taking over this job…';
export const JOB_LOST_MESSAGE = 'This job was lost (the queue restarted). It is safe to run it again.';
export const RUN_AGAIN_LABEL = 'Run it again';
/** The tracker's own code for a job the API answered 404 for while it was being followed. */
export const JOB_LOST_CODE = 'job_lost';

/** The route that starts each job; null for jobs no button starts (schedules, background refresh). */
export const JOB_ACTION_ROUTES = {
  'color-roles.generate': 'generateColorRoles',
  'color-roles.post-panel': 'postColorPanel',
  'color-roles.reset': 'resetColorRoles',
  'personality-roles.generate': 'generatePersonalityRoles',
  'personality-roles.post': 'postPersonalityMessages',
  'personality-roles.refresh': null,
  'personality-roles.reset': 'resetPersonalityRoles',
  'leveling.sync-roles': 'syncLevelingRoles',
  'leveling.resend-overview': 'resendLevelingOverview',
  'leveling.daily-overview': null,
  'leveling.prune-leavers': 'pruneLeavers',
} as const satisfies Record<JobName, RouteName | null>;

export type JobActionRoute = NonNullable<(typeof JOB_ACTION_ROUTES)[JobName]>;

/** How to run a job's action again: its route and guild, or null when no route starts it. */
export function rerunOf(jobId: string): { route: JobActionRoute; guildId: string } | null {
  const parsed = parseJobId(jobId);
  if (!parsed) return null;
  const route = JOB_ACTION_ROUTES[parsed.name];
  return route ? { route, guildId: parsed.guildId } : null;
}

/** GET /api/jobs/:id answered 404: the queue no longer has the job. */
export function isJobGone(error: unknown): boolean {
  return isApiError(error) && error.status === 404;
}

/** The status the tracker shows for a lost job. */
export function lostJobStatus(jobId: string): JobStatus {
  const parsed = parseJobId(jobId);
  return {
    id: jobId,
    name: parsed?.name ?? jobId,
    guild_id: parsed?.guildId ?? '',
    state: 'unknown',
    progress: 0,
    error: JOB_LOST_MESSAGE,
    error_code: JOB_LOST_CODE,
    recovering: false,
  };
}

export function isLostJob(job: JobStatus): boolean {
  return job.error_code === JOB_LOST_CODE;
}
