import type { JobStatus } from '@spacecadet/contract';
import { ErrorAlert } from '../../ui/Field.tsx';
import { JOB_LABELS, jobResultOf } from './color-roles-model.ts';

/** A running or finished job: label, progress bar, the worker's summary or error. */
export function JobProgress({ job }: { job: JobStatus }) {
  const result = jobResultOf(job);
  return (
    <div className="job-status" aria-live="polite">
      <div className="job-status-head">
        <span>
          {JOB_LABELS[job.name] ?? job.name}
          {job.state === 'completed' ? ': done' : job.state === 'failed' ? ': failed' : '…'}
        </span>
        <span className="muted small">{Math.round(job.progress)}%</span>
      </div>
      <progress className="job-progress" max={100} value={job.progress} aria-label="Job progress" />
      {result?.summary ? <p className="small">{result.summary}</p> : null}
      {job.state === 'failed' && job.error ? <ErrorAlert>{job.error}</ErrorAlert> : null}
    </div>
  );
}
