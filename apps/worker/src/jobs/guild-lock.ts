import { randomUUID } from 'node:crypto';
import type { RedisClient } from '@spacecadet/runtime/redis-client';

/**
 * One job per feature and guild at a time: "Generate Roles" and "Reset" clicked together
 * must not interleave (reset deleting roles generate just made). The lock lives in Redis so it
 * holds across worker processes, expires with its holder if that process dies, and is renewed
 * while the job runs.
 *
 * A job's lock names the job run holding it (job id, job instance, attempt). When BullMQ
 * hands a job to another worker because the one running it died, that new attempt takes the
 * lock over at once instead of waiting out the dead run's TTL: BullMQ only starts a newer
 * attempt (or a new job of the same id) once the older one lost its job lock, so the holder
 * is gone. Other jobs still wait for the TTL.
 */
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;
/** 1: acquired, 2: taken over from an earlier run of the same job, 0: busy. */
const ACQUIRE = `
if redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return 1 end
if ARGV[3] == '' then return 0 end
local holder = redis.call('get', KEYS[1])
if not holder then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
local job, instance, attempt = string.match(holder, '^job:(.-)|(%d+)|(%d+)|')
if job == ARGV[3] and (instance ~= ARGV[4] or tonumber(attempt) < tonumber(ARGV[5])) then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 2
end
return 0`;

/** The job run asking for the lock: BullMQ's job id, its creation time and attemptsStarted. */
export interface LockOwner {
  jobId: string;
  instance: number;
  attempt: number;
}

/** The value stored in the lock; `ACQUIRE` parses it back. */
export function lockToken(owner: LockOwner | undefined): string {
  const unique = randomUUID();
  return owner ? `job:${owner.jobId}|${owner.instance}|${owner.attempt}|${unique}` : unique;
}

export type LockedRun<T> = { acquired: true; value: T } | { acquired: false };

/** `tookOver`: the lock was taken over from an earlier, dead run of the same job. */
export type LockedWork<T> = (lock: { tookOver: boolean }) => Promise<T>;

export async function withGuildLock<T>(
  redis: RedisClient,
  key: string,
  ttlMs: number,
  run: LockedWork<T>,
  owner?: LockOwner,
): Promise<LockedRun<T>> {
  const token = lockToken(owner);
  const acquired = Number(
    await redis.eval(
      ACQUIRE,
      1,
      key,
      token,
      String(ttlMs),
      owner?.jobId ?? '',
      String(owner?.instance ?? 0),
      String(owner?.attempt ?? 0),
    ),
  );
  if (acquired === 0) return { acquired: false };
  const renewal = setInterval(
    () => {
      redis.eval(RENEW, 1, key, token, String(ttlMs)).catch(() => {
        // A missed renewal only shortens the lock; the next tick tries again.
      });
    },
    Math.max(100, Math.floor(ttlMs / 2)),
  );
  try {
    return { acquired: true, value: await run({ tookOver: acquired === 2 }) };
  } finally {
    clearInterval(renewal);
    await redis.eval(RELEASE, 1, key, token).catch(() => {});
  }
}

/**
 * Like `withGuildLock`, but waits up to `waitMs` for a busy lock to be released (polling)
 * instead of giving up at once. `{ acquired: false }` when it stayed busy that long.
 */
export async function withLockWhenFree<T>(
  redis: RedisClient,
  key: string,
  ttlMs: number,
  waitMs: number,
  run: () => Promise<T>,
): Promise<LockedRun<T>> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const attempt = await withGuildLock(redis, key, ttlMs, run);
    if (attempt.acquired || Date.now() >= deadline) return attempt;
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

const LOCK_POLL_MS = 25;
