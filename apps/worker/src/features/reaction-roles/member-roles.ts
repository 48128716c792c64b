import { memberPickLockKey } from '@spacecadet/contract';
import type { MenuPickPlan } from '@spacecadet/core';
import { menuPickScope } from '@spacecadet/db/queries/member-picks';
import type { RoleMenuRow } from '@spacecadet/db/schema';
import type { WorkerDeps } from '../../deps.ts';
import { DiscordCodes, discordApi, isDiscordError } from '../../discord-rest.ts';
import { MEMBER_PICK_LOCK_TTL_MS } from '../../interactions/member-lock.ts';
import { withLockWhenFree } from '../../jobs/guild-lock.ts';
import { errorFields } from '../../logger.ts';
import { recordMemberPick } from '../../roles/member-picks.ts';

const REASON = 'Space Cadet: reaction role';
/**
 * Every pick of one member on any role menu shares this lock (`memberPickLockKey`) and, for
 * clicks, this hash of waiting picks (`memberPicksKey`): reactions, button and select clicks and
 * the reconcile, so two of them are never applied at once.
 */
export const MENU_PICK_FEATURE = 'role-menus';
/** A member's lock is held for one role change at a time: seconds at most. */
const LOCK_WAIT_MS = 30_000;

/** Per member, in this process: the work waiting for the member's lock, in arrival order. */
const queues = new Map<string, Promise<void>>();

/**
 * Per member, in this process: the role changes this process made, each with when it landed.
 * A reaction packet carries the member's roles as Discord had them when they reacted; one that
 * arrived before a change of ours landed (it waited behind it) does not show that change yet.
 */
const recentChanges = new Map<string, Map<string, { held: boolean; at: number }>>();
/** Long enough for any packet queued behind a change to be applied. */
const RECENT_CHANGE_MS = 60_000;

function memberKey(guildId: string, userId: string): string {
  return `${guildId}:${userId}`;
}

/**
 * Drops the notes no packet or reconcile can need any more, at most once a minute, so members
 * who reacted once are not kept for the life of the process (called as notes are made).
 */
let lastSweep = 0;
function sweepStaleNotes(now: number): void {
  if (now - lastSweep < RECENT_CHANGE_MS) return;
  lastSweep = now;
  const sweep = <V>(notes: Map<string, Map<string, V>>, at: (value: V) => number, keepMs: number) => {
    for (const [member, byId] of notes) {
      for (const [id, value] of byId) if (now - at(value) > keepMs) byId.delete(id);
      if (byId.size === 0) notes.delete(member);
    }
  };
  sweep(recentChanges, (change) => change.at, RECENT_CHANGE_MS);
  sweep(liveReactions, (when) => when, LIVE_REACTION_MS);
}

function noteChange(guildId: string, userId: string, roleId: string, held: boolean): void {
  sweepStaleNotes(performance.now());
  const key = memberKey(guildId, userId);
  const changes = recentChanges.get(key) ?? new Map<string, { held: boolean; at: number }>();
  changes.set(roleId, { held, at: performance.now() });
  recentChanges.set(key, changes);
}

/**
 * The member's roles for a packet that arrived at `arrivedAt` (performance.now()): the roles it
 * carries, with every change of ours that landed after it arrived laid over them.
 */
export function rolesSeenBy(
  guildId: string,
  userId: string,
  packetRoles: readonly string[],
  arrivedAt: number,
): Set<string> {
  const held = new Set(packetRoles);
  const key = memberKey(guildId, userId);
  const changes = recentChanges.get(key);
  if (!changes) return held;
  const now = performance.now();
  for (const [roleId, change] of changes) {
    if (now - change.at > RECENT_CHANGE_MS) changes.delete(roleId);
    else if (change.at > arrivedAt) {
      if (change.held) held.add(roleId);
      else held.delete(roleId);
    }
  }
  if (changes.size === 0) recentChanges.delete(key);
  return held;
}

/** Whether this process took `roleId` from the member after `since` (and has not given it back). */
export function removedSince(guildId: string, userId: string, roleId: string, since: number): boolean {
  const change = recentChanges.get(memberKey(guildId, userId))?.get(roleId);
  return change !== undefined && !change.held && change.at > since - RECENT_CHANGE_MS;
}

/**
 * Per member, in this process: when a live reaction packet on each message arrived (noted on
 * arrival, before its work waits its turn), so a reconcile that read the reactions earlier
 * leaves that member to the live handler instead of applying its older snapshot.
 */
const liveReactions = new Map<string, Map<string, number>>();
/** As long as a reconcile may run after reading a panel's reactions. */
const LIVE_REACTION_MS = 15 * 60_000;

/** Notes a reaction packet of the member on `messageId` as it arrives. */
export function noteLiveReaction(guildId: string, userId: string, messageId: string, at: number): void {
  sweepStaleNotes(at);
  const key = memberKey(guildId, userId);
  const seen = liveReactions.get(key) ?? new Map<string, number>();
  seen.set(messageId, at);
  liveReactions.set(key, seen);
}

/** Whether a live reaction packet of the member on one of `messageIds` arrived after `since`. */
export function reactedLiveSince(
  guildId: string,
  userId: string,
  messageIds: readonly string[],
  since: number,
): boolean {
  const seen = liveReactions.get(memberKey(guildId, userId));
  return seen !== undefined && messageIds.some((id) => (seen.get(id) ?? -Infinity) > since);
}

/**
 * Runs `work` for the member after every earlier work of theirs in this process, in the order
 * of the calls (a guild's reactions arrive in order on the one process holding its shard): call
 * it as a packet arrives, before awaiting anything.
 */
export function inMemberOrder(guildId: string, userId: string, work: () => Promise<void>): Promise<void> {
  const key = memberKey(guildId, userId);
  const next = (queues.get(key) ?? Promise.resolve()).then(work);
  const settled = next.catch(() => {});
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return next;
}

/** Runs `work` under the member's Redis lock (a reconcile in another process). */
export async function underMemberLock(
  deps: WorkerDeps,
  guildId: string,
  userId: string,
  work: () => Promise<void>,
): Promise<void> {
  const run = await withLockWhenFree(
    deps.redis,
    memberPickLockKey(MENU_PICK_FEATURE, guildId, userId),
    MEMBER_PICK_LOCK_TTL_MS,
    LOCK_WAIT_MS,
    work,
  );
  if (!run.acquired) throw new Error('the member stayed locked by another process');
}

/**
 * Runs `work` for the member in order (`inMemberOrder`) and under their lock
 * (`underMemberLock`), so two quick reactions are applied one after the other, each reading
 * the roles the one before left.
 */
export function forMember(
  deps: WorkerDeps,
  guildId: string,
  userId: string,
  work: () => Promise<void>,
): Promise<void> {
  return inMemberOrder(guildId, userId, () => underMemberLock(deps, guildId, userId, work));
}

/**
 * Applies a planned change to the member's roles (`held` follows it). A role Discord refuses
 * (above the bot, deleted meanwhile) is logged and left; answers whether all went through.
 */
export async function applyRoleChange(
  deps: WorkerDeps,
  guildId: string,
  userId: string,
  plan: Extract<MenuPickPlan, { kind: 'change' }>,
  held: Set<string>,
): Promise<boolean> {
  const members = discordApi(deps.client).guilds;
  let ok = true;
  const change = async (roleId: string, add: boolean) => {
    try {
      if (add) await members.addRoleToMember(guildId, userId, roleId, { reason: REASON });
      else await members.removeRoleFromMember(guildId, userId, roleId, { reason: REASON });
      if (add) held.add(roleId);
      else held.delete(roleId);
      noteChange(guildId, userId, roleId, add);
    } catch (error) {
      if (!isDiscordError(error, DiscordCodes.MissingPermissions, DiscordCodes.UnknownRole)) throw error;
      ok = false;
      deps.logger.warn({ ...errorFields(error), guildId, roleId }, 'reaction role not changed');
    }
  };
  for (const roleId of plan.add) await change(roleId, true);
  for (const roleId of plan.remove) await change(roleId, false);
  return ok;
}

/** Records whether the member now holds each of these menu roles by their pick. */
export function recordMenuPicks(
  deps: WorkerDeps,
  menu: RoleMenuRow,
  userId: string,
  roleIds: Iterable<string>,
  held: ReadonlySet<string>,
): void {
  for (const roleId of new Set(roleIds)) {
    recordMemberPick(deps, {
      guildId: menu.guildId,
      userId,
      scope: menuPickScope(menu.id, roleId),
      targetKeys: held.has(roleId) ? [roleId] : [],
    });
  }
}

/** Takes the member's reaction away (a refused pick, a swapped-out color); gone already is fine. */
export async function removeMemberReaction(
  deps: WorkerDeps,
  channelId: string,
  messageId: string,
  emoji: string,
  userId: string,
): Promise<void> {
  try {
    await discordApi(deps.client).channels.deleteUserMessageReaction(channelId, messageId, emoji, userId);
  } catch (error) {
    if (!isDiscordError(error, DiscordCodes.UnknownMessage, DiscordCodes.UnknownEmoji)) throw error;
  }
}
