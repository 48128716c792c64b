/**
 * How soon a job whose worker died (SIGKILL, crash, lost host) runs again elsewhere.
 *
 * `JOB_LOCK_DURATION_MS` is the promise made to operators: "another process takes over a
 * dead process's job within this time". BullMQ takes a job over at the first stalled check
 * (run every `stalledInterval` by each live worker) that finds the job's lock expired and the
 * job already marked by an earlier check; the lock outlives its last renewal by
 * `lockDuration`. So the worst case after a death is about `lockDuration + stalledInterval`,
 * and both are derived from the promise with room to spare for timers, a busy event loop and
 * picking the job up. The guild lock (guild-lock.ts) adds nothing: the job's next attempt takes
 * it over from the dead one.
 */
export interface JobTimings {
  /** BullMQ `lockDuration`; renewed every half of it while the job runs. */
  lockDurationMs: number;
  /** BullMQ `stalledInterval`. */
  stalledIntervalMs: number;
  /** Guild-lock TTL: the same as the job lock, renewed on the same rhythm. */
  guildLockTtlMs: number;
}

export function jobTimings(takeoverMs: number): JobTimings {
  const lockDurationMs = Math.floor(takeoverMs / 2);
  // A fraction of the lock: after the lock expires, the next stalled check is at most this far.
  const stalledIntervalMs = Math.floor(takeoverMs / 4);
  return { lockDurationMs, stalledIntervalMs, guildLockTtlMs: lockDurationMs };
}

/** The worst case of the arithmetic above, before timer slack: 3/4 of the promise. */
export function worstTakeoverMs(timings: JobTimings): number {
  return timings.lockDurationMs + timings.stalledIntervalMs;
}
