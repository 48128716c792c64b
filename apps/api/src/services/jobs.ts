import {
  GuildJobPayload,
  type JobName,
  type JobStatus,
  parseJobFailure,
  parseJobId,
  workerConnectionName,
} from '@spacecadet/contract';
import { addGuildJob } from '@spacecadet/queue/guild-jobs';
import type { JobQueues } from '@spacecadet/queue/job-queues';
import type { Job, Queue } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError, QUEUE_UNAVAILABLE_MESSAGE } from '../errors.ts';
import { isDependencyDown } from './dependency-errors.ts';

/** BullMQ's finer states folded into the contract's. */
const REPORTED_STATE: Record<string, JobStatus['state']> = {
  waiting: 'waiting',
  prioritized: 'waiting',
  'waiting-children': 'waiting',
  active: 'active',
  delayed: 'delayed',
  completed: 'completed',
  failed: 'failed',
};

export type GuildJobQueue = Queue<GuildJobPayload, unknown, JobName>;
/** One queue per shard (`JobQueues`): a guild's jobs go to, and are read from, its shard's. */
export type GuildJobQueues = JobQueues<GuildJobQueue>;

function queueUnavailable(cause: unknown): ApiError {
  const error = new ApiError('service_unavailable', QUEUE_UNAVAILABLE_MESSAGE);
  error.cause = cause;
  return error;
}

async function withQueue<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (isDependencyDown(error)) throw queueUnavailable(error);
    throw error;
  }
}

/** Who asks for a job: the signed-in user and the request (its id follows the job into the worker's logs). */
export interface JobRequester {
  userId: string | null;
  requestId: string;
  /** The history entry of the request (a recorded route's): the jobs it queues carry it. */
  historyEntryId?: number;
}

/**
 * Enqueues a guild action under its deterministic id (`addGuildJob`: a pending job of that id
 * is joined, a finished one replaced; with `afterChange`, a running one gets one follow-up run). A job whose worker died counts as pending: another
 * worker takes it over within the worker's JOB_LOCK_DURATION_MS and resumes it, so a click
 * joins it (its status says `recovering`) rather than starting a second run that would race
 * the recovered one. The job carries the id of the request being handled (`request_id`), so the
 * worker's log lines for it can be found from the API's; a joined job keeps the first one's.
 */
export async function enqueueGuildJob(
  queue: GuildJobQueues,
  name: JobName,
  guildId: string,
  by: JobRequester,
  options: { afterChange?: boolean } = {},
): Promise<string> {
  return withQueue(() =>
    addGuildJob(queue, name, guildId, by.userId, {
      ...options,
      requestId: by.requestId,
      ...(by.historyEntryId === undefined ? {} : { historyEntryId: by.historyEntryId }),
    }),
  );
}

/**
 * After a stored change, queues the job that brings Discord in line (`afterChange`). A courtesy:
 * the change stands and the request succeeds when the queue is down; `later` says in the log
 * what catches up instead. Answers the job's id, or null when it could not be queued.
 */
export async function followUpGuildJob(
  queue: GuildJobQueues,
  log: FastifyBaseLogger,
  name: JobName,
  guildId: string,
  by: JobRequester,
  later: string,
): Promise<string | null> {
  try {
    return await enqueueGuildJob(queue, name, guildId, by, { afterChange: true });
  } catch (error) {
    log.warn({ err: error, guildId, job: name }, `${name} not queued after a change; ${later}`);
    return null;
  }
}

function failureOf(reason: string | null): Pick<JobStatus, 'error' | 'error_code'> {
  if (reason === null) return { error: null };
  const { code, message } = parseJobFailure(reason);
  return code === null ? { error: message } : { error: message, error_code: code };
}

function progressOf(job: Job): number {
  const progress = job.progress;
  if (typeof progress === 'number' && Number.isFinite(progress)) return Math.min(100, Math.max(0, progress));
  if (typeof progress === 'object' && progress !== null && 'percent' in progress) {
    const percent = Number(progress.percent);
    if (Number.isFinite(percent)) return Math.min(100, Math.max(0, percent));
  }
  return 0;
}

/**
 * Whether the worker that ran the job stopped (killed, crashed, cut off from Redis) and the
 * job is waiting to be, or being, taken over by another. Three signs: BullMQ's stalled checker
 * already moved it back (`stalledCounter`); it still shows `active` while no worker holds its
 * lock (before the next stalled check, or when no worker is left to run one); or its lock is
 * still held but the process that took it is gone from Redis' client list. The last one is
 * what shows a killed worker at once, rather than when its lock lapses (up to half of the
 * worker's JOB_LOCK_DURATION_MS later).
 */
async function isRecovering(
  queue: GuildJobQueue,
  redisPrefix: string,
  job: Job,
  rawState: string,
): Promise<boolean> {
  if (rawState === 'completed' || rawState === 'failed') return false;
  if (job.stalledCounter > 0) return true;
  if (rawState !== 'active' || !job.id) return false;
  const client = await queue.getBackend().client;
  // A live worker holds the lock from the moment the job turns active until it leaves that
  // state; the state is read again so a job that finished meanwhile is not reported.
  const locked = (await client.get(`${queue.toKey(job.id)}:lock`)) !== null;
  if (locked && (await holderConnected(client, redisPrefix, job))) return false;
  return (await queue.getJobState(job.id)) === 'active';
}

/**
 * Whether the worker process that took the job is still connected to Redis. Each worker
 * process names its connections `workerConnectionName(prefix, instance)` and runs its BullMQ
 * worker under the name `instance`, which BullMQ stores on the job it takes (`processedBy`).
 * The OS closes a dead process's connections at once; they close last in a graceful stop,
 * after the active jobs finished. True when it cannot be told: a job taken by a worker without
 * a name, or a Redis that refuses `CLIENT LIST` (then only the lock tells).
 */
async function holderConnected(
  client: Awaited<ReturnType<GuildJobQueue['getBackend']>['client']>,
  redisPrefix: string,
  job: Job,
): Promise<boolean> {
  if (!job.processedBy) return true;
  let list: string;
  try {
    list = await client.clientList();
  } catch {
    return true;
  }
  const name = `name=${workerConnectionName(redisPrefix, job.processedBy)}`;
  return list.split('\n').some((line) => line.split(' ').includes(name));
}

/** The worker marks a job that waits for Discord (or the Discord proxy) to answer again. */
const OutageMark = GuildJobPayload.pick({ discord_outage: true });
function waitingForDiscord(job: Job): boolean {
  return OutageMark.safeParse(job.data).data?.discord_outage !== undefined;
}

/**
 * The job's status, or null when no such job exists (never queued, or trimmed). Read from the
 * queue of the job's guild's shard, where it was queued (the guild is part of the id).
 */
export async function readJobStatus(
  queues: GuildJobQueues,
  redisPrefix: string,
  jobId: string,
): Promise<JobStatus | null> {
  const parsed = parseJobId(jobId);
  if (!parsed) return null;
  const queue = queues.forGuild(parsed.guildId);
  return withQueue(async () => {
    // State first: a job read after it shows `completed` already carries its return value.
    const rawState = await queue.getJobState(jobId);
    const job = await queue.getJob(jobId);
    if (!job) return null;
    const state = REPORTED_STATE[rawState] ?? 'unknown';
    return {
      id: jobId,
      name: parsed.name,
      guild_id: parsed.guildId,
      state,
      progress: state === 'completed' ? 100 : progressOf(job),
      ...(job.returnvalue === undefined || job.returnvalue === null ? {} : { result: job.returnvalue }),
      ...failureOf(state === 'failed' ? (job.failedReason ?? 'Job failed') : null),
      recovering: await isRecovering(queue, redisPrefix, job, rawState),
      waiting_for_discord: state !== 'completed' && state !== 'failed' && waitingForDiscord(job),
    };
  });
}
