import {
  bullPrefix,
  GuildJobPayload,
  guildJobLockKey,
  JOB_RETENTION,
  JobName,
  type JobResult,
  jobFailureReason,
  jobLockName,
  jobQueueName,
} from '@spacecadet/contract';
import { DelayedError, type Job, RateLimitError, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { WorkerDeps } from '../deps.ts';
import { DiscordCodes, isDiscordError, isDiscordUnreachable } from '../discord-rest.ts';
import { errorFields } from '../logger.ts';
import { clearDiscordOutageMark, waitForDiscord } from './discord-outage.ts';
import { type LockedRun, withGuildLock } from './guild-lock.ts';
import { checkPredecessors } from './predecessors.ts';
import { jobTimings } from './takeover.ts';
import { type JobContext, JobFailure, type JobHandler } from './types.ts';

export type JobHandlers = ReadonlyMap<JobName, JobHandler>;

/**
 * The BullMQ consumer of one shard's queue (`jobQueueName`), for every job name in the
 * contract: only the process holding the shard runs it, so the guild's jobs read the gateway
 * cache. Each job is validated, dispatched to its feature's handler and reports progress;
 * unknown names or bad payloads fail at once.
 */
export function createJobWorker(
  deps: WorkerDeps,
  connection: Redis,
  handlers: JobHandlers,
  /** This process's name (`workerConnectionName`); BullMQ stores it on each job it takes. */
  instance: string,
  shard: number,
): Worker<unknown, JobResult> {
  const { config } = deps;
  const logger = deps.logger.child({ jobQueue: shard });
  const timings = jobTimings(config.jobLockDurationMs);
  const worker = new Worker<unknown, JobResult>(
    jobQueueName(shard),
    (job, token) => runJob(job, token, deps, handlers),
    {
      connection,
      prefix: bullPrefix(config.redisPrefix),
      concurrency: config.jobConcurrency,
      // Together these keep the takeover of a dead process's job within JOB_LOCK_DURATION_MS.
      lockDuration: timings.lockDurationMs,
      stalledInterval: timings.stalledIntervalMs,
      removeOnComplete: JOB_RETENTION.completed,
      removeOnFail: JOB_RETENTION.failed,
      autorun: false,
      name: instance,
    },
  );
  worker.on('failed', (job, error) => {
    logger.warn({ ...jobFields(job), attempt: job?.attemptsMade, ...errorFields(error) }, 'job failed');
  });
  worker.on('completed', (job, result) => {
    logger.info({ ...jobFields(job), result }, 'job completed');
  });
  worker.on('error', (error) => logger.error(errorFields(error), 'job worker error'));
  worker.on('stalled', (jobId) => {
    logger.warn({ jobId }, 'job stalled: the worker running it stopped; queued again to be taken over');
  });
  return worker;
}

const JobRequest = GuildJobPayload.pick({ request_id: true });

/**
 * What every log line about a job carries: the id of the API request that queued it (none for
 * schedules), so `grep <x-request-id>` finds the request's lines in the API's and worker's logs.
 */
function jobFields(job: Job | undefined) {
  const requestId = JobRequest.safeParse(job?.data).data?.request_id;
  return { ...(requestId === undefined ? {} : { requestId }), jobId: job?.id, job: job?.name };
}

/** How long a job waits before trying again when another job of its feature holds the guild. */
const BUSY_RETRY_MS = 1_000;

/**
 * What BullMQ stores (and the dashboard shows) as the failure of a job that crashed on
 * something unexpected: the real error can carry SQL or internals, so it only goes to the log.
 */
export const INTERNAL_JOB_FAILURE = jobFailureReason('internal_error', 'The job failed. Try again.');

async function runJob(
  job: Job<unknown, JobResult>,
  token: string | undefined,
  deps: WorkerDeps,
  handlers: JobHandlers,
): Promise<JobResult> {
  try {
    return await dispatchJob(job, token, deps, handlers);
  } catch (error) {
    if (error instanceof JobFailure || isBullMqSignal(error)) throw error;
    deps.logger.error(
      { ...jobFields(job), attempt: job.attemptsStarted, ...errorFields(error) },
      'job crashed',
    );
    // Same retry behaviour as the real error: only an unrecoverable one stops the retries.
    throw error instanceof UnrecoverableError
      ? new UnrecoverableError(INTERNAL_JOB_FAILURE)
      : new Error(INTERNAL_JOB_FAILURE);
  }
}

/** Errors BullMQ uses for control flow (delay, wait, rate limit): passed through untouched. */
function isBullMqSignal(error: unknown): boolean {
  if (error instanceof DelayedError || error instanceof RateLimitError) return true;
  return error instanceof Error && ['WaitingError', 'WaitingChildrenError'].includes(error.name);
}

async function dispatchJob(
  job: Job<unknown, JobResult>,
  token: string | undefined,
  deps: WorkerDeps,
  handlers: JobHandlers,
): Promise<JobResult> {
  const name = JobName.safeParse(job.name);
  const handler = name.success ? handlers.get(name.data) : undefined;
  if (!name.success || !handler) throw new JobFailure('unknown_job', `no handler for job name ${job.name}`);
  const payload = GuildJobPayload.safeParse(job.data);
  if (!payload.success) {
    throw new JobFailure('invalid_payload', payload.error.issues.map((issue) => issue.message).join('; '));
  }
  const log = deps.logger.child({ ...jobFields(job), guildId: payload.data.guild_id });
  log.info({ attempt: job.attemptsStarted }, 'job started');
  const queue = deps.queue.forGuild(payload.data.guild_id);
  if ((await checkPredecessors(queue, name.data, payload.data.guild_id, job.timestamp)) === 'wait') {
    log.info('waiting for the job whose result this one publishes');
    return delayWithoutAttempt(job, token);
  }
  const lockKey = guildJobLockKey(jobLockName(name.data, payload.data), payload.data.guild_id);
  let lastProgress = -1;
  let outage = payload.data.discord_outage;
  const { guildLockTtlMs } = jobTimings(deps.config.jobLockDurationMs);
  const owner = { jobId: job.id ?? '', instance: job.timestamp, attempt: job.attemptsStarted };
  let run: LockedRun<JobResult>;
  try {
    run = await withGuildLock(
      deps.redis,
      lockKey,
      guildLockTtlMs,
      ({ tookOver }) => {
        if (tookOver || job.stalledCounter > 0) {
          log.warn({ stalled: job.stalledCounter }, 'recovering a job whose worker stopped');
        }
        return handleGuildJob(handler, {
          name: name.data,
          payload: payload.data,
          deps,
          log,
          attempt: Math.max(1, job.attemptsStarted),
          ...(job.id === undefined ? {} : { jobId: job.id }),
          async progress(percent) {
            const rounded = Math.max(0, Math.min(100, Math.round(percent)));
            if (rounded === lastProgress) return;
            lastProgress = rounded;
            await job.updateProgress(rounded);
            // Past where it stopped: Discord answers again.
            if (outage && rounded > outage.progress) {
              outage = undefined;
              await clearDiscordOutageMark(job, payload.data);
            }
          },
        });
      },
      owner,
    );
  } catch (error) {
    // The guild lock is released: another job of the feature may run meanwhile.
    if (isDiscordUnreachable(error)) return waitForDiscord(job, token, payload.data, log);
    throw error;
  }
  if (run.acquired) return run.value;
  // Another job of this feature is running for the guild: wait without spending an attempt.
  log.info('guild busy with another job of this feature, delaying');
  return delayWithoutAttempt(job, token);
}

/** Puts the job back to run again shortly, without spending one of its attempts. */
async function delayWithoutAttempt(job: Job<unknown, JobResult>, token: string | undefined): Promise<never> {
  await job.moveToDelayed(Date.now() + BUSY_RETRY_MS, token);
  throw new DelayedError();
}

/** Discord answers these when the bot is not (or no longer) in the guild: retrying cannot help. */
async function handleGuildJob(handler: JobHandler, context: JobContext): Promise<JobResult> {
  try {
    return await handler(context);
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownGuild, DiscordCodes.MissingAccess)) {
      throw new JobFailure('bot_not_in_guild', 'The bot is not in this server. Invite it, then try again.');
    }
    throw error;
  }
}
