import {
  type GuildJobPayload,
  JOB_RETENTION,
  type JobName,
  jobIdFor,
  repairJobIdFor,
} from '@spacecadet/contract';

/**
 * How a guild action is queued, by the API (an admin's click) and by the worker (a follow-up
 * such as the personality refresh a member's click asks for): one place, so both queue it
 * under the same id with the same retries. Typed structurally, so this package needs no BullMQ.
 */
export const GUILD_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: JOB_RETENTION.completed,
  removeOnFail: JOB_RETENTION.failed,
} as const;

/** States in which a job of the same id is still going to run: a second request joins it. */
const PENDING_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/**
 * Whether a job of this guild action (or its follow-up run) is still going to run or running:
 * what must not race a change made outside the worker's guild lock (an undo in the API).
 */
export async function guildJobPending(
  queues: { forGuild(guildId: string): Pick<GuildJobQueueLike, 'getJobState'> },
  name: JobName,
  guildId: string,
): Promise<boolean> {
  const queue = queues.forGuild(guildId);
  const jobId = jobIdFor(name, guildId);
  for (const id of [jobId, `${jobId}.followup`]) {
    if (PENDING_STATES.has(await queue.getJobState(id))) return true;
  }
  return false;
}

export interface GuildJobQueueLike {
  getJobState(jobId: string): Promise<string>;
  remove(jobId: string): Promise<number>;
  add(
    name: JobName,
    data: GuildJobPayload,
    opts: typeof GUILD_JOB_OPTIONS & { jobId: string; delay?: number },
  ): Promise<unknown>;
}

/** The shard queues (`JobQueues`) as guild jobs are queued to them: the guild's shard's. */
export interface GuildJobQueuesLike {
  forGuild(guildId: string): GuildJobQueueLike;
}

/**
 * Queues a guild action under its deterministic id, in the queue of the guild's shard. A job of that id still pending is kept (a
 * double click collapses into one run); a finished one is replaced. Returns the job id.
 *
 * `afterChange`: the job must read a change just stored (a refresh after a toggle). A run
 * already started may have read the state before the change, so then one follow-up run is
 * queued (`<job id>.followup`, itself joined while pending); it waits for the running one
 * through the guild lock.
 *
 * `requestId`: the API request that asked for it, carried to the worker's log lines.
 *
 * `historyEntryId`: the history entry of that request; a destructive job stores what it removes
 * there (a job joined by a second click keeps the first one's).
 *
 * `repair`: the worker's own repair after a delete it heard of (`repairJobIdFor`), run
 * `delayMs` later so the rest of a burst of deletes joins it.
 */
export async function addGuildJob(
  queues: GuildJobQueuesLike,
  name: JobName,
  guildId: string,
  userId: string | null,
  options: {
    afterChange?: boolean;
    requestId?: string;
    repair?: boolean;
    delayMs?: number;
    historyEntryId?: number;
  } = {},
): Promise<string> {
  const queue = queues.forGuild(guildId);
  const jobId = options.repair ? repairJobIdFor(name, guildId) : jobIdFor(name, guildId);
  const data: GuildJobPayload = {
    guild_id: guildId,
    requested_by: userId,
    ...(options.requestId === undefined ? {} : { request_id: options.requestId }),
    ...(options.historyEntryId === undefined ? {} : { history_entry_id: options.historyEntryId }),
  };
  const state = await queue.getJobState(jobId);
  if (state === 'active' && options.afterChange) {
    const followUp = `${jobId}.followup`;
    await addJob(queue, name, followUp, await queue.getJobState(followUp), data, options.delayMs);
  } else {
    await addJob(queue, name, jobId, state, data, options.delayMs);
  }
  return jobId;
}

/** Adds the job unless one of that id is pending (`state`); a finished one is replaced. */
async function addJob(
  queue: GuildJobQueueLike,
  name: JobName,
  jobId: string,
  state: string,
  data: GuildJobPayload,
  delayMs: number | undefined,
): Promise<void> {
  if (PENDING_STATES.has(state)) return;
  // A concurrent request may have replaced a finished one already; then add() finds theirs.
  if (state === 'completed' || state === 'failed') await queue.remove(jobId).catch(() => 0);
  // Two concurrent adds with one id still make one job: BullMQ keeps the first.
  await queue.add(name, data, { ...GUILD_JOB_OPTIONS, jobId, ...(delayMs ? { delay: delayMs } : {}) });
}
