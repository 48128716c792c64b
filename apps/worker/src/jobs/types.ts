import { type GuildJobPayload, type JobName, type JobResult, jobFailureReason } from '@spacecadet/contract';
import { UnrecoverableError } from 'bullmq';
import type { WorkerDeps } from '../deps.ts';
import type { Logger } from '../logger.ts';

export interface JobContext {
  name: JobName;
  payload: GuildJobPayload;
  deps: WorkerDeps;
  log: Logger;
  /** 0..100; written to the BullMQ job so `GET /api/jobs/:id` can show it. */
  progress(percent: number): Promise<void>;
  /** 1 on the first run, higher on a retry (after a failure or a stalled/killed process). */
  attempt: number;
  /** BullMQ's id of the running job (a job that removes a guild's jobs leaves its own). */
  jobId?: string;
}

/**
 * A job handler must be idempotent: it can be retried after a failure or after the process
 * running it was killed, and must then finish the work without repeating side effects.
 */
export type JobHandler = (context: JobContext) => Promise<JobResult>;

/**
 * Fails the job at once, without retries: for problems a retry cannot fix (bad payload,
 * feature not built, a limit reached). The message starts with a stable code.
 */
export class JobFailure extends UnrecoverableError {
  constructor(
    readonly code: string,
    /** The sentence for the admin, without the code. */
    readonly detail: string,
  ) {
    super(jobFailureReason(code, detail));
    this.name = 'JobFailure';
  }
}
