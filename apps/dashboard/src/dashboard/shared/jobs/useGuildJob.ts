import type { JobStatus } from '@spacecadet/contract';
import { type QueryKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { apiCall } from '../../../lib/api.ts';
import { queryKeys } from '../queries.ts';
import { isJobFinished, isJobGone, JOB_POLL_MS, lostJobStatus, RELOAD_AFTER_JOB_MS } from './job-model.ts';

interface TrackedJob {
  id: string;
  /** Job ids repeat per guild and action; the run number keeps each run's polling apart. */
  run: number;
}

/**
 * Polls GET /api/jobs/:id until the job finishes, then waits ~800 ms and reloads `reloadKey`
 * (the page's own query). Every page with job buttons uses it with JobProgress, which shows
 * progress, a recovery in progress, and a lost job with its "Run it again" button.
 */
export function useGuildJob(reloadKey: QueryKey) {
  const queryClient = useQueryClient();
  const [tracked, setTracked] = useState<TrackedJob | null>(null);
  const job = useQuery({
    queryKey: [...queryKeys.job(tracked?.id ?? ''), tracked?.run ?? 0],
    queryFn: () => apiCall('getJob', { params: { jobId: tracked?.id ?? '' } }),
    enabled: tracked !== null,
    // A lost job stops the polling; running it again (JobProgress) invalidates the query.
    refetchInterval: (query) =>
      isJobFinished(query.state.data) || isJobGone(query.state.error) ? false : JOB_POLL_MS,
    staleTime: 0,
    retry: (failures, error) => !isJobGone(error) && failures < 1,
  });
  const finished = isJobFinished(job.data);
  // The queue forgot the job (e.g. Redis restarted without persistence): JobProgress says so
  // and offers to run the same action again.
  const lost = tracked !== null && isJobGone(job.error);
  // Callers pass a fresh key array each render; only its latest value matters.
  const reloadRef = useRef(reloadKey);
  reloadRef.current = reloadKey;

  useEffect(() => {
    if (!finished) return;
    const timer = window.setTimeout(() => {
      void queryClient.invalidateQueries({ queryKey: reloadRef.current });
    }, RELOAD_AFTER_JOB_MS);
    return () => window.clearTimeout(timer);
  }, [finished, queryClient]);

  return {
    job: tracked ? (lost ? lostJobStatus(tracked.id) : (job.data as JobStatus | undefined)) : undefined,
    pollError: job.error,
    running: tracked !== null && !finished && !job.isError,
    track: (id: string) => setTracked((current) => ({ id, run: (current?.run ?? 0) + 1 })),
    dismiss: () => setTracked(null),
  };
}
