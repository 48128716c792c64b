/**
 * Members' role picks applied under one lock per member, the last click winning (described
 * after the imports). Why one file: the click side (`lastPickWins`), the lock holder's loop
 * (`drive`, `applyWaiting`, `settle`) and the outage job (`applySavedPicks`) write the same
 * fields of the member's Redis hash (read by `member-picks-hash.ts`) and share the registry of
 * pick features and the process's drivers; apart, each part would export the others' state.
 */
import { memberPickLockKey, memberPicksKey, memberPicksWaitingKey } from '@spacecadet/contract';
import { addGuildJob } from '@spacecadet/queue/guild-jobs';
import type { WorkerDeps } from '../deps.ts';
import { isDiscordUnreachable } from '../discord-rest.ts';
import { withGuildLock, withLockWhenFree } from '../jobs/guild-lock.ts';
import { errorFields } from '../logger.ts';
import { clickRecorded, newerClickArriving } from './arriving-clicks.ts';
import {
  compareIds,
  type MemberPick,
  type PicksState,
  parseAnswer,
  type RecordedAnswer,
  readState,
} from './member-picks-hash.ts';
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
 * its group's answer once none of the member's picks waits, nor any newer click of theirs this
 * process received but has not recorded yet (`arriving-clicks.ts`), so the clicks a later one
 * superseded are answered with what the member ends with. A click waits as long as that takes (it is
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

/**
 * A member's picks saved while Discord could not be reached outlast the longest wait of the
 * job that applies them (DISCORD_OUTAGE_GIVE_UP_MS).
 */
const SAVED_PICKS_TTL_MS = 60 * 60_000;

/** The answer to a click whose role change could not reach Discord: it is applied later. */
export const PICK_SAVED_MESSAGE =
  "Discord is having trouble right now. Your pick is saved and will be applied when it's back.";

/** The group of a feature whose picks all share one answer (colours). */
export const DEFAULT_GROUP = 'default';

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

/**
 * Every feature's picks by name, so the job that applies picks saved during a Discord outage
 * (`applySavedPicks`, in whichever process runs it) finds the feature that stored them. A
 * feature defines its picks through here.
 */
const pickFeatures = new Map<string, PickFeature<unknown>>();

export function registerPickFeature<P>(feature: PickFeature<P>): PickFeature<P> {
  pickFeatures.set(feature.feature, feature as PickFeature<unknown>);
  return feature;
}

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
  clickRecorded(interaction);
  return new Promise<EphemeralAnswer>((resolve, reject) => {
    const waiter: Waiter = { id: BigInt(interaction.id), group, since: Date.now(), resolve, reject };
    let driver = drivers.get(picksKey);
    if (!driver) {
      driver = { waiters: new Set() };
      drivers.set(picksKey, driver);
      const member = { guildId, userId };
      void drive(deps, member, feature as PickFeature<unknown>, driver);
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

interface PickingMember {
  guildId: string;
  userId: string;
}

async function drive(
  deps: WorkerDeps,
  member: PickingMember,
  feature: PickFeature<unknown>,
  driver: Driver,
): Promise<void> {
  const { redis } = deps;
  const picksKey = memberPicksKey(feature.feature, member.guildId, member.userId);
  const lockKey = memberPickLockKey(feature.lock ?? feature.feature, member.guildId, member.userId);
  try {
    for (;;) {
      const state = readState(await redis.hgetall(picksKey));
      settle(driver, state, member);
      // Checked with nothing awaited since: a click joining from now on starts a new loop.
      if (driver.waiters.size === 0) {
        drivers.delete(picksKey);
        return;
      }
      if (state.unsaved > 0) {
        const held = await withGuildLock(redis, lockKey, MEMBER_PICK_LOCK_TTL_MS, () =>
          applyWaiting(deps, member, feature, 'save'),
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
 * holder took are applied by the next one. A group whose change could not reach Discord keeps
 * its picks: with `save` (a click) they are recorded as saved (`s:<group>`, answered
 * PICK_SAVED_MESSAGE), the member is listed in `memberPicksWaitingKey` and the guild's
 * `member-picks.apply` job queued to apply them later; with `throw` (that job) the error is
 * thrown, after what did apply is recorded, so the job waits for Discord.
 */
async function applyWaiting(
  deps: WorkerDeps,
  member: PickingMember,
  feature: PickFeature<unknown>,
  onUnreachable: 'save' | 'throw',
): Promise<void> {
  const { redis } = deps;
  const picksKey = memberPicksKey(feature.feature, member.guildId, member.userId);
  for (;;) {
    const state = readState(await redis.hgetall(picksKey));
    if (state.fields.length === 0) return;
    const recorded: Record<string, string> = {};
    const kept = new Set<string>();
    const appliedGroups: string[] = [];
    let unreachable: unknown = null;
    for (const [group, picks] of state.pending) {
      const doneId = state.doneIds.get(group) ?? null;
      const newest = picks.at(-1)?.id;
      let answer: RecordedAnswer | null;
      try {
        answer = await feature.apply(deps, picks, doneId);
      } catch (error) {
        if (isDiscordUnreachable(error)) {
          // Kept for the job that applies them once Discord answers again.
          unreachable = error;
          for (const pick of picks) kept.add(`p:${pick.id}`);
          if (newest) recorded[`s:${group}`] = newest;
          recorded[`a:${group}`] = JSON.stringify({ content: PICK_SAVED_MESSAGE } satisfies EphemeralAnswer);
          continue;
        }
        deps.logger.error({ ...errorFields(error), feature: feature.feature, group }, 'member pick failed');
        answer = { error: error instanceof Error ? error.message : String(error) };
      }
      appliedGroups.push(group);
      if (newest && (doneId === null || compareIds(newest, doneId) > 0)) recorded[`d:${group}`] = newest;
      if (answer) recorded[`a:${group}`] = JSON.stringify(answer);
    }
    const done = state.fields.filter((field) => !kept.has(field));
    const transaction = redis.multi();
    if (done.length > 0) transaction.hdel(picksKey, ...done);
    const savedBefore = appliedGroups.map((group) => `s:${group}`);
    if (savedBefore.length > 0) transaction.hdel(picksKey, ...savedBefore);
    if (Object.keys(recorded).length > 0) transaction.hset(picksKey, recorded);
    await transaction.pexpire(picksKey, kept.size > 0 ? SAVED_PICKS_TTL_MS : PICKS_TTL_MS).exec();
    if (kept.size === 0) continue;
    if (onUnreachable === 'throw') throw unreachable;
    deps.logger.warn(
      { ...errorFields(unreachable), feature: feature.feature, picks: kept.size },
      'member pick saved: Discord cannot be reached; applied once it is back',
    );
    await redis.sadd(memberPicksWaitingKey(member.guildId), `${feature.feature}:${member.userId}`);
    await addGuildJob(deps.queue, 'member-picks.apply', member.guildId, null, { afterChange: true });
    return;
  }
}

/**
 * `member-picks.apply`: applies the picks members made while Discord could not be reached
 * (listed in `memberPicksWaitingKey`), each under the member's lock as a click would. While
 * Discord still cannot be reached it throws, and the job waits and retries (`waitForDiscord`).
 * Returns how many members' picks were applied.
 */
export async function applySavedPicks(deps: WorkerDeps, guildId: string): Promise<number> {
  const { redis } = deps;
  const waitingKey = memberPicksWaitingKey(guildId);
  let applied = 0;
  for (const entry of await redis.smembers(waitingKey)) {
    const split = entry.indexOf(':');
    const feature = pickFeatures.get(entry.slice(0, split));
    const userId = entry.slice(split + 1);
    if (split < 0 || !feature || !/^\d{1,20}$/.test(userId)) {
      await redis.srem(waitingKey, entry);
      continue;
    }
    const member = { guildId, userId };
    const lockKey = memberPickLockKey(feature.lock ?? feature.feature, guildId, userId);
    const held = await withLockWhenFree(
      redis,
      lockKey,
      MEMBER_PICK_LOCK_TTL_MS,
      SAVED_PICK_LOCK_WAIT_MS,
      () => applyWaiting(deps, member, feature, 'throw'),
    );
    if (!held.acquired)
      throw new Error(`member ${userId} kept picking; their saved pick is applied on the retry`);
    await redis.srem(waitingKey, entry);
    applied += 1;
  }
  return applied;
}

/** How long the job waits for a member's clicks to finish before it tries again later. */
const SAVED_PICK_LOCK_WAIT_MS = 10_000;

/** Answers the waiting clicks whose pick was applied, once nothing of the member waits or arrives. */
function settle(driver: Driver, state: PicksState, member: PickingMember): void {
  const now = Date.now();
  for (const waiter of driver.waiters) {
    // A newer click of the member is here but not recorded yet: it may change the answer.
    const waits = state.unsaved > 0 || newerClickArriving(member.guildId, member.userId, waiter.id);
    const doneId = state.doneIds.get(waiter.group);
    const applied = doneId !== undefined && BigInt(doneId) >= waiter.id;
    // Saved for later (Discord could not be reached): answered so at once.
    const savedId = state.savedIds.get(waiter.group);
    const saved = !applied && savedId !== undefined && BigInt(savedId) >= waiter.id;
    if (applied) waiter.appliedAt ??= now;
    if (saved || (applied && (!waits || now - (waiter.appliedAt ?? now) >= SETTLE_AFTER_MS))) {
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
