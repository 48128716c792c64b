import type { JobStatus } from '@spacecadet/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api.ts';
import { errorText } from '../../../lib/api-error.ts';
import { ErrorAlert } from '../../../ui/Field.tsx';
import { queryKeys } from '../queries.ts';
import {
  isLostJob,
  JOB_LOST_MESSAGE,
  JOB_RECOVERING_MESSAGE,
  JOB_WAITING_FOR_DISCORD_MESSAGE,
  jobLabel,
  jobResultOf,
  RUN_AGAIN_LABEL,
  rerunOf,
} from './job-model.ts';

/** A running or finished job: label, progress bar, the worker's summary or error. */
export function JobProgress({ job }: { job: JobStatus }) {
  if (isLostJob(job)) return <LostJob job={job} />;
  const result = jobResultOf(job);
  return (
    <div className="job-status" aria-live="polite">
      <div className="job-status-head">
        <span>
          {jobLabel(job.name)}
          {job.state === 'completed' ? ': done' : job.state === 'failed' ? ': failed' : '…'}
        </span>
        <span className="muted small">{Math.round(job.progress)}%</span>
      </div>
      <progress className="job-progress" max={100} value={job.progress} aria-label="Job progress" />
      {job.recovering ? (
        <p className="alert alert-warning small" role="status">
          {JOB_RECOVERING_MESSAGE}
        </p>
      ) : null}
      {job.waiting_for_discord ? (
        <p className="alert alert-warning small" role="status">
          {JOB_WAITING_FOR_DISCORD_MESSAGE}
        </p>
      ) : null}
      {result?.summary ? <p className="small">{result.summary}</p> : null}
      {job.state === 'failed' && job.error ? <ErrorAlert>{job.error}</ErrorAlert> : null}
    </div>
  );
}

/**
 * The queue no longer knows the job (Redis restarted without persistence, or it was trimmed).
 * Every job is safe to run again, so offer that: the action is queued anew under the same id,
 * and the tracker polling that id picks the new run up.
 */
function LostJob({ job }: { job: JobStatus }) {
  const queryClient = useQueryClient();
  const action = rerunOf(job.id);
  const rerun = useMutation({
    mutationFn: async () => {
      if (!action) throw new Error('This job cannot be started from here.');
      return apiCall(action.route, { params: { guildId: action.guildId } });
    },
    onSuccess: (accepted) =>
      Promise.all(
        [...new Set([job.id, accepted.job_id])].map((id) =>
          queryClient.invalidateQueries({ queryKey: queryKeys.job(id) }),
        ),
      ),
  });
  return (
    <div className="job-status" aria-live="polite">
      <div className="job-status-head">
        <span>{jobLabel(job.name)}: lost</span>
      </div>
      <div className="alert alert-warning job-lost" role="alert">
        <span>{JOB_LOST_MESSAGE}</span>
        {action ? (
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={rerun.isPending}
            onClick={() => rerun.mutate()}
          >
            {RUN_AGAIN_LABEL}
          </button>
        ) : null}
      </div>
      {rerun.isError ? <ErrorAlert>{errorText(rerun.error)}</ErrorAlert> : null}
    </div>
  );
}
