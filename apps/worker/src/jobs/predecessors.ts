import { JOB_PREDECESSORS, type JobName, jobIdFor, parseJobFailure } from '@spacecadet/contract';
import type { WorkerQueue } from '../deps.ts';
import { JobFailure } from './types.ts';

/** States in which a job is still going to run, or running. */
const PENDING = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/** What the admin calls the jobs others publish the result of. */
const PREDECESSOR_LABELS: Partial<Record<JobName, string>> = {
  'color-roles.generate': 'Generate Roles',
  'personality-roles.generate': 'Generate Roles',
};

/**
 * Before a job that publishes another job's result (`JOB_PREDECESSORS`: the color panel shows
 * the roles Generate Roles makes) runs: 'wait' while a predecessor in the guild is still to run
 * or running (it may be waiting for Discord), so the follow-up never publishes half its work.
 * A predecessor that failed after the follow-up was queued fails the follow-up too (a
 * JobFailure, naming why); one that failed before it was queued does not: the admin asked to
 * publish what there is.
 */
export async function checkPredecessors(
  queue: WorkerQueue,
  name: JobName,
  guildId: string,
  queuedAt: number,
): Promise<'run' | 'wait'> {
  for (const predecessor of JOB_PREDECESSORS[name] ?? []) {
    const jobId = jobIdFor(predecessor, guildId);
    for (const id of [jobId, `${jobId}.followup`]) {
      const state = await queue.getJobState(id);
      if (PENDING.has(state)) return 'wait';
      if (state !== 'failed') continue;
      const failed = await queue.getJob(id);
      if (!failed || (failed.finishedOn ?? 0) < queuedAt) continue;
      const label = PREDECESSOR_LABELS[predecessor] ?? predecessor;
      const why = parseJobFailure(failed.failedReason ?? '').message;
      throw new JobFailure(
        'predecessor_failed',
        `${label} did not finish (${why.replace(/\.$/, '')}), so nothing was posted. Run ${label} again, then post.`,
      );
    }
  }
  return 'run';
}
