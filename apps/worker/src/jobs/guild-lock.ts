import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * One job per feature and guild at a time: "Generate Roles" and "Reset" clicked together
 * must not interleave (reset deleting roles generate just made). The lock lives in Redis so it
 * holds across worker processes, expires with its holder if that process dies, and is renewed
 * while the job runs.
 */
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;

export function guildLockKey(redisPrefix: string, feature: string, guildId: string): string {
  return `${redisPrefix}:job-lock:${feature}:${guildId}`;
}

export type LockedRun<T> = { acquired: true; value: T } | { acquired: false };

export async function withGuildLock<T>(
  redis: Redis,
  key: string,
  ttlMs: number,
  run: () => Promise<T>,
): Promise<LockedRun<T>> {
  const token = randomUUID();
  const acquired = await redis.set(key, token, 'PX', ttlMs, 'NX');
  if (acquired !== 'OK') return { acquired: false };
  const renewal = setInterval(
    () => {
      redis.eval(RENEW, 1, key, token, String(ttlMs)).catch(() => {
        // A missed renewal only shortens the lock; the next tick tries again.
      });
    },
    Math.max(100, Math.floor(ttlMs / 2)),
  );
  try {
    return { acquired: true, value: await run() };
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
  redis: Redis,
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
