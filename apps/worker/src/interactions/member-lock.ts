import type { WorkerDeps } from '../deps.ts';
import { type LockedRun, withLockWhenFree } from '../jobs/guild-lock.ts';
import { interactionAgeMs } from './respond.ts';
import type { PanelInteraction } from './types.ts';

/**
 * One member's role picks, one at a time: two quick clicks would otherwise each compute their
 * change from the roles the member had before either, and the second would undo the first (two
 * colours, or a single-choice question with two answers). Every feature whose panel changes a
 * member's roles takes this lock, keyed by `memberPickLockKey(feature, guild, user)`.
 */

/** The lock is renewed while its holder runs; this is how long a crashed holder keeps it. */
export const MEMBER_PICK_LOCK_TTL_MS = 15_000;
/**
 * A click waits for the member's previous clicks until this long after it was made, then gets
 * `{ acquired: false }` (the feature answers "still busy"): so even a member hammering a panel
 * gets every final answer (not just a deferral) within Discord's 3 seconds. It ends before the
 * 1.5 s safety deferral (`answerEphemeral`), so a click that gives up is answered in one call.
 */
const PICK_LOCK_WAIT_UNTIL_MS = 1_000;

/**
 * Runs `work` once the member's earlier clicks are done and the Redis lock `lockKey` is free.
 * `{ acquired: false }` when that did not happen soon enough to answer in time.
 */
export async function underMemberLock<T>(
  interaction: PanelInteraction,
  deps: WorkerDeps,
  lockKey: string,
  work: () => Promise<T>,
): Promise<LockedRun<T>> {
  // Counted from the click, not from now: time spent reaching us and loading state counts.
  const waitMs = Math.min(
    PICK_LOCK_WAIT_UNTIL_MS,
    Math.max(0, PICK_LOCK_WAIT_UNTIL_MS - interactionAgeMs(interaction)),
  );
  const deadline = Date.now() + waitMs;
  return afterEarlierClicks(lockKey, deadline, (remainingMs) =>
    withLockWhenFree(deps.redis, lockKey, MEMBER_PICK_LOCK_TTL_MS, remainingMs, work),
  );
}

/**
 * The clicks of each member waiting in this process, chained in arrival order. Only the first of
 * them polls the Redis lock (which also holds across processes); without this line every waiting
 * click of a member hammering a panel would poll Redis 40 times a second.
 */
const waitingClicks = new Map<string, Promise<void>>();

/**
 * Runs `attempt` once the member's earlier clicks in this process are done, or gives up with
 * `{ acquired: false }` at `deadline`. `attempt` gets the time left until the deadline.
 */
async function afterEarlierClicks<T>(
  key: string,
  deadline: number,
  attempt: (remainingMs: number) => Promise<LockedRun<T>>,
): Promise<LockedRun<T>> {
  const earlier = waitingClicks.get(key) ?? Promise.resolve();
  let finished = () => {};
  const mine = new Promise<void>((resolve) => {
    finished = resolve;
  });
  const line = earlier.then(() => mine);
  waitingClicks.set(key, line);
  let timer: NodeJS.Timeout | undefined;
  try {
    const myTurn = await Promise.race([
      earlier.then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
      }),
    ]);
    if (!myTurn) return { acquired: false };
    return await attempt(Math.max(0, deadline - Date.now()));
  } finally {
    clearTimeout(timer);
    finished();
    if (waitingClicks.get(key) === line) waitingClicks.delete(key);
  }
}

/**
 * The member's roles as Discord sent them with the click. A click that waited on the lock
 * carries roles from before the changes it waited for: features combine this with what their
 * last change recorded in Redis.
 */
export function clickMemberRoleIds(interaction: PanelInteraction): readonly string[] {
  const member = interaction.member;
  if (!member) return [];
  return Array.isArray(member.roles) ? member.roles : [...member.roles.cache.keys()];
}
