import { memberPickLockKey, memberPicksKey } from '@spacecadet/contract';
import type { WorkerDeps } from '../deps.ts';
import { withGuildLock } from '../jobs/guild-lock.ts';
import { errorFields } from '../logger.ts';
import type { DeferFirst, EphemeralAnswer } from './respond.ts';
import type { PanelInteraction } from './types.ts';

/**
 * One member's role picks, the last click winning. Two quick clicks must not each compute their
 * change from the roles the member had before either (the second would undo the first: two
 * colours, or a single-choice question with two answers), and a member who clicks Red, Blue,
 * Green quickly wants Green, not three role changes in a row.
 *
 * So a click only records its pick in the member's Redis hash (`memberPicksKey`, field
 * `p:<interaction id>`), and whoever holds the member's lock (`memberPickLockKey`, in any worker
 * process) applies the picks waiting there: the feature folds them (oldest first, by interaction
 * id, Discord's order of the clicks) into one change, and records the answer each group of
 * picks now has. Picks recorded while a change is in flight are applied by the same holder
 * right after it, together. Every click is answered with that outcome once none of the member's
 * picks is waiting, so the clicks a later one superseded are answered with what the member
 * ends with. A click waits as long as that takes (it is acknowledged before: `deferFirst`);
 * nothing is refused for being busy.
 */

/** The lock is renewed while its holder runs; this is how long a crashed holder keeps it. */
export const MEMBER_PICK_LOCK_TTL_MS = 15_000;
/** A member's hash outlives any click that could still be answered (Discord's 15 minutes need not apply: clicks settle in seconds). */
const PICKS_TTL_MS = 5 * 60_000;
/** How often a click whose member's lock is held by another process looks for the outcome. */
const POLL_MS = 25;
/**
 * A click whose own pick was applied is answered once none of the member's picks waits; should
 * the member keep clicking for this long after that, it is answered with what they have by then.
 */
const SETTLE_AFTER_MS = 10_000;
/** Beyond a crashed holder's lock (15 s): a click never applied by then ends in an error answer. */
const GIVE_UP_AFTER_MS = 30_000;

/** One recorded pick: the click's interaction id (a snowflake) and what the feature stored. */
export interface MemberPick<P> {
  id: string;
  pick: P;
}

/**
 * A feature's picks on one panel. `apply` runs under the member's lock with every waiting pick,
 * oldest first (`doneId`: the newest click applied before, null if none is known; a pick older
 * than it reached Redis late, and the newer click already won) and returns the answer of each
 * group it changed (a feature with one group, like colours, uses one key). It may throw: the
 * clicks of its picks then get the router's error answer.
 */
export interface PickFeature<P> {
  /** The job names' part before the dot, as in `memberPickLockKey`. */
  feature: string;
  apply(
    deps: WorkerDeps,
    picks: readonly MemberPick<P>[],
    doneId: string | null,
  ): Promise<Record<string, EphemeralAnswer>>;
}

/** What a group's answer is recorded as: the answer, or that applying it failed. */
type RecordedAnswer = EphemeralAnswer | { error: string };

/**
 * Records the click's pick and answers it with the member's outcome for `group` once the lock
 * holder applied it (or a newer one) and nothing else of theirs waits.
 */
export async function lastPickWins<P>(
  interaction: PanelInteraction,
  deps: WorkerDeps,
  feature: PickFeature<P>,
  group: string,
  pick: P,
  deferFirst: DeferFirst,
): Promise<EphemeralAnswer> {
  const guildId = interaction.guildId;
  if (!guildId) throw new Error('a member pick outside a guild');
  // Acknowledged first: the answer may wait behind role changes queued for the global limit.
  await deferFirst();
  const userId = interaction.user.id;
  const picksKey = memberPicksKey(feature.feature, guildId, userId);
  await deps.redis
    .multi()
    .hset(picksKey, `p:${interaction.id}`, JSON.stringify(pick))
    .pexpire(picksKey, PICKS_TTL_MS)
    .exec();
  return new Promise<EphemeralAnswer>((resolve, reject) => {
    const waiter: Waiter = { id: BigInt(interaction.id), group, since: Date.now(), resolve, reject };
    let driver = drivers.get(picksKey);
    if (!driver) {
      driver = { waiters: new Set() };
      drivers.set(picksKey, driver);
      const lockKey = memberPickLockKey(feature.feature, guildId, userId);
      void drive(deps, picksKey, lockKey, feature as PickFeature<unknown>, driver);
    }
    driver.waiters.add(waiter);
  });
}

interface Waiter {
  id: bigint;
  group: string;
  since: number;
  /** When the holder was first seen to have applied this click's pick or a newer one. */
  appliedAt?: number;
  resolve: (answer: EphemeralAnswer) => void;
  reject: (error: Error) => void;
}

/**
 * The clicks of a member waiting in this process. One loop per member applies (holding the
 * lock) or watches (another process holds it) for all of them, so a member clicking 100 times
 * costs one Redis read per round, not 100.
 */
interface Driver {
  waiters: Set<Waiter>;
}
const drivers = new Map<string, Driver>();

interface PicksState {
  pending: MemberPick<unknown>[];
  fields: string[];
  doneId: string | null;
  answers: Record<string, RecordedAnswer>;
}

function readState(hash: Record<string, string>): PicksState {
  const pending: MemberPick<unknown>[] = [];
  const fields: string[] = [];
  for (const [field, value] of Object.entries(hash)) {
    if (!field.startsWith('p:')) continue;
    const id = field.slice(2);
    fields.push(field);
    try {
      if (/^\d{1,20}$/.test(id)) pending.push({ id, pick: JSON.parse(value) });
    } catch {
      // Not JSON: dropped with the others below.
    }
  }
  pending.sort((a, b) => compareIds(a.id, b.id));
  let answers: Record<string, RecordedAnswer> = {};
  try {
    const parsed: unknown = JSON.parse(hash.answers ?? '{}');
    if (parsed && typeof parsed === 'object') answers = parsed as Record<string, RecordedAnswer>;
  } catch {
    // Treated as no answer yet.
  }
  return { pending, fields, doneId: hash.done ?? null, answers };
}

function compareIds(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

async function drive(
  deps: WorkerDeps,
  picksKey: string,
  lockKey: string,
  feature: PickFeature<unknown>,
  driver: Driver,
): Promise<void> {
  const { redis } = deps;
  try {
    for (;;) {
      const state = readState(await redis.hgetall(picksKey));
      settle(driver, state);
      // Checked with nothing awaited since: a click joining from now on starts a new loop.
      if (driver.waiters.size === 0) {
        drivers.delete(picksKey);
        return;
      }
      if (state.pending.length > 0) {
        const held = await withGuildLock(redis, lockKey, MEMBER_PICK_LOCK_TTL_MS, () =>
          applyWaiting(deps, picksKey, feature),
        );
        if (held.acquired) continue;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } catch (error) {
    drivers.delete(picksKey);
    const failure = error instanceof Error ? error : new Error(String(error));
    for (const waiter of driver.waiters) waiter.reject(failure);
  }
}

/**
 * Under the member's lock: applies the waiting picks, and any recorded meanwhile, until none
 * waits. A pick is removed from the hash only with its outcome recorded, so picks a crashed
 * holder took are applied by the next one.
 */
async function applyWaiting(
  deps: WorkerDeps,
  picksKey: string,
  feature: PickFeature<unknown>,
): Promise<void> {
  const { redis } = deps;
  for (;;) {
    const state = readState(await redis.hgetall(picksKey));
    if (state.fields.length === 0) return;
    const newest = state.pending.at(-1)?.id ?? null;
    const doneId =
      newest !== null && (state.doneId === null || compareIds(newest, state.doneId) > 0)
        ? newest
        : state.doneId;
    let changed: Record<string, RecordedAnswer>;
    try {
      changed = state.pending.length > 0 ? await feature.apply(deps, state.pending, state.doneId) : {};
    } catch (error) {
      deps.logger.error({ ...errorFields(error), feature: feature.feature }, 'member pick failed');
      const message = error instanceof Error ? error.message : String(error);
      changed = {};
      for (const group of groupsOf(state.pending)) changed[group] = { error: message };
    }
    const transaction = redis
      .multi()
      .hdel(picksKey, ...state.fields)
      .hset(picksKey, 'answers', JSON.stringify({ ...state.answers, ...changed }));
    if (doneId !== null) transaction.hset(picksKey, 'done', doneId);
    await transaction.pexpire(picksKey, PICKS_TTL_MS).exec();
  }
}

/** The groups a failed batch touched; features with groups put them in the pick as `group`. */
function groupsOf(picks: readonly MemberPick<unknown>[]): string[] {
  const groups = new Set<string>([DEFAULT_GROUP]);
  for (const { pick } of picks) {
    const group = (pick as { group?: unknown } | null)?.group;
    if (typeof group === 'string') groups.add(group);
  }
  return [...groups];
}

/** The group of a feature whose picks all share one answer (colours). */
export const DEFAULT_GROUP = 'default';

/** Answers the waiting clicks whose pick was applied, once nothing of the member waits. */
function settle(driver: Driver, state: PicksState): void {
  const now = Date.now();
  const doneId = state.doneId === null ? null : BigInt(state.doneId);
  for (const waiter of driver.waiters) {
    const applied = doneId !== null && doneId >= waiter.id;
    if (applied) waiter.appliedAt ??= now;
    if (applied && (state.fields.length === 0 || now - (waiter.appliedAt ?? now) >= SETTLE_AFTER_MS)) {
      driver.waiters.delete(waiter);
      const answer = state.answers[waiter.group];
      if (!answer) waiter.reject(new Error(`no recorded answer for ${waiter.group}`));
      else if ('error' in answer) waiter.reject(new Error(answer.error));
      else waiter.resolve(answer);
    } else if (now - waiter.since >= GIVE_UP_AFTER_MS) {
      driver.waiters.delete(waiter);
      waiter.reject(new Error('the member pick was not applied within 30 s'));
    }
  }
}

/**
 * The member's roles as Discord sent them with the click. A click applied after other changes
 * carries roles from before them: features combine this with what their last change recorded in
 * Redis.
 */
export function clickMemberRoleIds(interaction: PanelInteraction): readonly string[] {
  const member = interaction.member;
  if (!member) return [];
  return Array.isArray(member.roles) ? member.roles : [...member.roles.cache.keys()];
}
