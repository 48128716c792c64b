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
 * id, Discord's order of the clicks) into one change per group (colours have one group, each
 * personality question is one), and records for each group the newest click applied
 * (`d:<group>`) and the answer the group now has (`a:<group>`). Picks recorded while a change is
 * in flight are applied by the same holder right after it, together. Every click is answered with
 * its group's answer once none of the member's picks waits, so the clicks a later one superseded
 * are answered with what the member ends with. A click waits as long as that takes (it is
 * acknowledged first: `deferFirst`); nothing is refused for being busy.
 */

/** The lock is renewed while its holder runs; this is how long a crashed holder keeps it. */
export const MEMBER_PICK_LOCK_TTL_MS = 15_000;
/** A member's hash outlives any click still waiting for its answer (they settle in seconds). */
const PICKS_TTL_MS = 5 * 60_000;
/** How often a click whose member's lock is held elsewhere (another process, a job) looks again. */
const POLL_MS = 25;
/**
 * A click whose own pick was applied is answered once none of the member's picks waits; should
 * the member keep clicking for this long after that, it is answered with what they have by then.
 */
const SETTLE_AFTER_MS = 10_000;
/** Beyond a crashed holder's lock (15 s): a click never applied by then ends in an error answer. */
const GIVE_UP_AFTER_MS = 30_000;

/** The group of a feature whose picks all share one answer (colours). */
export const DEFAULT_GROUP = 'default';

/** One recorded pick: the click's interaction id (a snowflake) and what the feature stored. */
export interface MemberPick<P> {
  id: string;
  pick: P;
}

/**
 * A feature's picks on one panel. `apply` runs under the member's lock with the waiting picks of
 * one group, oldest first (`doneId`: the group's newest click applied before, null if none is
 * known; a pick older than it reached Redis late, and that newer click already won) and returns
 * the group's answer, or null to keep the one recorded. It may throw: the clicks of its picks
 * then get the router's error answer.
 */
export interface PickFeature<P> {
  /** The job names' part before the dot, as in `memberPicksKey`. */
  feature: string;
  /**
   * The member lock's name in `memberPickLockKey` when the feature shares it with another whose
   * picks must not interleave with its own (colours and role menus); `feature` otherwise.
   */
  lock?: string;
  apply(
    deps: WorkerDeps,
    picks: readonly MemberPick<P>[],
    doneId: string | null,
  ): Promise<EphemeralAnswer | null>;
}

/** What a group's answer is recorded as: the answer, or that applying it failed. */
type RecordedAnswer = EphemeralAnswer | { error: string };

/**
 * Records the click's pick in `group` and answers it with the group's outcome once the lock
 * holder applied it (or a newer one) and nothing else of the member's waits.
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
    .hset(picksKey, `p:${interaction.id}`, JSON.stringify({ group, pick }))
    .pexpire(picksKey, PICKS_TTL_MS)
    .exec();
  return new Promise<EphemeralAnswer>((resolve, reject) => {
    const waiter: Waiter = { id: BigInt(interaction.id), group, since: Date.now(), resolve, reject };
    let driver = drivers.get(picksKey);
    if (!driver) {
      driver = { waiters: new Set() };
      drivers.set(picksKey, driver);
      const lockKey = memberPickLockKey(feature.lock ?? feature.feature, guildId, userId);
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
 * lock) or watches (the lock is held elsewhere) for all of them, so a member clicking 100 times
 * costs one Redis read per round, not 100.
 */
interface Driver {
  waiters: Set<Waiter>;
}
const drivers = new Map<string, Driver>();

interface PicksState {
  /** The waiting picks by group, oldest first. */
  pending: Map<string, MemberPick<unknown>[]>;
  /** Every waiting field, including any that could not be read (removed unapplied). */
  fields: string[];
  /** Per group: the newest click applied. */
  doneIds: Map<string, string>;
  /** Per group: the recorded answer (JSON). */
  answers: Map<string, string>;
}

function readState(hash: Record<string, string>): PicksState {
  const state: PicksState = { pending: new Map(), fields: [], doneIds: new Map(), answers: new Map() };
  for (const [field, value] of Object.entries(hash)) {
    const kind = field.slice(0, 2);
    const rest = field.slice(2);
    if (kind === 'd:') state.doneIds.set(rest, value);
    else if (kind === 'a:') state.answers.set(rest, value);
    else if (kind === 'p:') {
      state.fields.push(field);
      try {
        const { group, pick } = JSON.parse(value) as { group: unknown; pick: unknown };
        if (/^\d{1,20}$/.test(rest) && typeof group === 'string') {
          state.pending.set(group, [...(state.pending.get(group) ?? []), { id: rest, pick }]);
        }
      } catch {
        // Not JSON: removed unapplied.
      }
    }
  }
  for (const picks of state.pending.values()) picks.sort((a, b) => compareIds(a.id, b.id));
  return state;
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
      if (state.fields.length > 0) {
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
    const recorded: Record<string, string> = {};
    for (const [group, picks] of state.pending) {
      const doneId = state.doneIds.get(group) ?? null;
      let answer: RecordedAnswer | null;
      try {
        answer = await feature.apply(deps, picks, doneId);
      } catch (error) {
        deps.logger.error({ ...errorFields(error), feature: feature.feature, group }, 'member pick failed');
        answer = { error: error instanceof Error ? error.message : String(error) };
      }
      const newest = picks.at(-1)?.id;
      if (newest && (doneId === null || compareIds(newest, doneId) > 0)) recorded[`d:${group}`] = newest;
      if (answer) recorded[`a:${group}`] = JSON.stringify(answer);
    }
    const transaction = redis.multi().hdel(picksKey, ...state.fields);
    if (Object.keys(recorded).length > 0) transaction.hset(picksKey, recorded);
    await transaction.pexpire(picksKey, PICKS_TTL_MS).exec();
  }
}

/** Answers the waiting clicks whose pick was applied, once nothing of the member waits. */
function settle(driver: Driver, state: PicksState): void {
  const now = Date.now();
  for (const waiter of driver.waiters) {
    const doneId = state.doneIds.get(waiter.group);
    const applied = doneId !== undefined && BigInt(doneId) >= waiter.id;
    if (applied) waiter.appliedAt ??= now;
    if (applied && (state.fields.length === 0 || now - (waiter.appliedAt ?? now) >= SETTLE_AFTER_MS)) {
      driver.waiters.delete(waiter);
      const answer = parseAnswer(state.answers.get(waiter.group));
      if (!answer) waiter.reject(new Error(`no recorded answer for ${waiter.group}`));
      else if ('error' in answer) waiter.reject(new Error(answer.error));
      else waiter.resolve(answer);
    } else if (now - waiter.since >= GIVE_UP_AFTER_MS) {
      driver.waiters.delete(waiter);
      waiter.reject(new Error('the member pick was not applied within 30 s'));
    }
  }
}

function parseAnswer(stored: string | undefined): RecordedAnswer | null {
  if (stored === undefined) return null;
  try {
    const parsed = JSON.parse(stored) as RecordedAnswer | null;
    return parsed && typeof parsed === 'object' ? parsed : null;
  } catch {
    return null;
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
