import { type JobName, JobResult, type JobStatus, parseJobId, type RouteName } from '@spacecadet/contract';
import { isApiError } from '../../../lib/api-error.ts';

/**
 * The shared job tracker (useGuildJob + JobProgress) of every page with job buttons: polling,
 * labels, results, a job being recovered after its worker stopped, and a job the queue no
 * longer knows (Redis restarted without persistence, or the job was trimmed) with a way to run
 * the same action again.
 */

/** After a job finishes, wait this long before reloading the page's data. */
export const RELOAD_AFTER_JOB_MS = 800;
export const JOB_POLL_MS = 500;

export const JOB_LABELS = {
  'color-roles.generate': 'Generating roles',
  'color-roles.post-panel': 'Posting the panel',
  'color-roles.reset': 'Resetting color roles',
  'color-roles.repair': 'Repairing color roles',
  'personality-roles.generate': 'Generating roles',
  'personality-roles.post': 'Posting the messages',
  'personality-roles.refresh': 'Refreshing personality roles',
  'personality-roles.reset': 'Resetting personality roles',
  'personality-roles.onboarding': 'Updating Discord Onboarding',
  'personality-roles.delete-roles': 'Deleting roles',
  'leveling.sync-roles': 'Syncing roles',
  'leveling.resend-overview': 'Resending the overview',
  'leveling.daily-overview': 'Posting the daily overview',
  'leveling.prune-leavers': 'Pruning leavers',
  'leveling.apply-rewards': 'Applying reward roles',
  'leveling.recompute-levels': 'Recomputing levels',
  'leveling.decay': "Decaying inactive members' XP",
  'leveling.season-end': 'Ending the season on schedule',
  'linked-roles.push': 'Pushing levels to Linked Roles',
  'reaction-roles.post-panel': 'Posting the reaction panels',
  'role-menus.post': 'Posting the role menu',
  'role-menus.repair': 'Repairing the reaction panels',
  'role-menus.reconcile': 'Catching up on reactions',
  'color-roles.restore': 'Restoring color roles',
  'personality-roles.restore': 'Restoring personality roles',
  'history.prune': 'Pruning old history',
  'member-picks.apply': "Applying members' saved picks",
  'guild-data.delete': "Deleting this server's data",
  'guild-data.purge': "Purging a removed server's data",
  'temp-roles.grant': 'Giving temporary roles',
  'temp-roles.expire': 'Taking back expired temporary roles',
  'auto-roles.give': 'Giving a new member their roles',
  'auto-roles.purge-sticky': "Forgetting old leavers' sticky roles",
  'welcome.greet': 'Welcoming a member',
  'welcome.raid-batch': 'Welcoming a burst of members',
  'welcome.goodbye': 'Saying goodbye to a member',
} as const satisfies Record<JobName, string>;

/** A job's label; the raw name for one this dashboard does not know yet. */
export function jobLabel(name: string): string {
  return (JOB_LABELS as Record<string, string>)[name] ?? name;
}

export function isJobFinished(job: JobStatus | undefined): boolean {
  return job?.state === 'completed' || job?.state === 'failed';
}

/** The job's own result, when it has the shape the worker reports. */
export function jobResultOf(job: JobStatus | undefined): JobResult | null {
  const parsed = JobResult.safeParse(job?.result);
  return parsed.success ? parsed.data : null;
}

export const JOB_RECOVERING_MESSAGE = 'Recovering: a worker stopped; another is taking over this job…';
/** The job cannot reach Discord (or the Discord proxy): it retries and goes on once it can. */
export const JOB_WAITING_FOR_DISCORD_MESSAGE =
  'Waiting for Discord… It cannot be reached right now; this job goes on by itself once it is back.';
export const JOB_LOST_MESSAGE = 'This job was lost (the queue restarted). It is safe to run it again.';
export const RUN_AGAIN_LABEL = 'Run it again';
/** The tracker's own code for a job the API answered 404 for while it was being followed. */
export const JOB_LOST_CODE = 'job_lost';

/**
 * The route that starts each job; null for jobs no button starts (schedules, background refresh)
 * and for the Onboarding job, whose route takes the switch's value: the switch runs it again.
 * Deleting a question's roles is asked per question: its confirmation asks again.
 */
export const JOB_ACTION_ROUTES = {
  'color-roles.generate': 'generateColorRoles',
  'color-roles.post-panel': 'postColorPanel',
  'color-roles.reset': 'resetColorRoles',
  'color-roles.repair': null,
  'personality-roles.generate': 'generatePersonalityRoles',
  'personality-roles.post': 'postPersonalityMessages',
  'personality-roles.refresh': null,
  'personality-roles.reset': 'resetPersonalityRoles',
  'personality-roles.onboarding': null,
  'personality-roles.delete-roles': null,
  'leveling.sync-roles': 'syncLevelingRoles',
  'leveling.resend-overview': 'resendLevelingOverview',
  'leveling.daily-overview': null,
  'leveling.prune-leavers': 'pruneLeavers',
  // Queued by an XP change (set, reset, import): the change itself is not run again.
  'leveling.apply-rewards': null,
  // Queued by a curve change; the daily decay runs on its own.
  'leveling.recompute-levels': null,
  'leveling.decay': null,
  'leveling.season-end': null,
  'linked-roles.push': null,
  'reaction-roles.post-panel': 'postReactionPanels',
  // Its route names the menu: the menu's own Post button runs it again.
  'role-menus.post': null,
  'role-menus.repair': null,
  'role-menus.reconcile': null,
  // Queued by an undo on the History page: its entry's Undo is not offered again.
  'color-roles.restore': null,
  'personality-roles.restore': null,
  'history.prune': null,
  'member-picks.apply': null,
  // Asked again only through its confirmation.
  'guild-data.delete': null,
  'guild-data.purge': null,
  // Queued by giving or ending a temporary role (and by the sweep): the role's row is the action.
  'temp-roles.grant': null,
  'temp-roles.expire': null,
  // Queued by the worker for a join, and daily.
  'auto-roles.give': null,
  'auto-roles.purge-sticky': null,
  // Queued by a member joining or leaving, never by a button.
  'welcome.greet': null,
  'welcome.raid-batch': null,
  'welcome.goodbye': null,
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
    waiting_for_discord: false,
  };
}

export function isLostJob(job: JobStatus): boolean {
  return job.error_code === JOB_LOST_CODE;
}
