import type { MenuPickPlan } from '@spacecadet/core';
import { menuPickScope } from '@spacecadet/db/queries/member-picks';
import type { RoleMenuRow } from '@spacecadet/db/schema';
import type { WorkerDeps } from '../../deps.ts';
import { DiscordCodes, discordApi, isDiscordError } from '../../discord-rest.ts';
import { MEMBER_PICK_LOCK_TTL_MS } from '../../interactions/member-lock.ts';
import { withLockWhenFree } from '../../jobs/guild-lock.ts';
import { errorFields } from '../../logger.ts';
import {
  changeMemberColor,
  guildPaletteRoles,
  type MemberColorRequest,
  memberColorLockKey,
  paletteTargetKey,
} from '../../roles/member-color.ts';
import { recordMemberPick } from '../../roles/member-picks.ts';
import { noteRoleChange } from '../../roles/recent-changes.ts';

const REASON = 'Space Cadet: reaction role';
/**
 * The hash of a member's waiting clicks on role menus (`memberPicksKey`). Every pick of one
 * member on any role menu (reactions, button and select clicks, the reconcile) holds the
 * member's colour lock (`memberColorLockKey`), as colour panel clicks do: any menu may list
 * palette roles, so two of them are never applied at once.
 */
export const MENU_PICK_FEATURE = 'role-menus';
/** A member's lock is held for one role change at a time: seconds at most. */
const LOCK_WAIT_MS = 30_000;

/** Per member, in this process: the work waiting for the member's lock, in arrival order. */
const queues = new Map<string, Promise<void>>();

function memberKey(guildId: string, userId: string): string {
  return `${guildId}:${userId}`;
}

/**
 * Per member, in this process: when a live reaction packet on each message arrived (noted on
 * arrival, before its work waits its turn), so a reconcile that read the reactions earlier
 * leaves that member to the live handler instead of applying its older snapshot.
 */
const liveReactions = new Map<string, Map<string, number>>();
/** As long as a reconcile may run after reading a panel's reactions. */
const LIVE_REACTION_MS = 15 * 60_000;
const SWEEP_EVERY_MS = 60_000;

/**
 * Drops the notes no reconcile can need any more, at most once a minute, so members who reacted
 * once are not kept for the life of the process (called as notes are made).
 */
let lastSweep = 0;
function sweepStaleNotes(now: number): void {
  if (now - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = now;
  for (const [member, byMessage] of liveReactions) {
    for (const [messageId, at] of byMessage) if (now - at > LIVE_REACTION_MS) byMessage.delete(messageId);
    if (byMessage.size === 0) liveReactions.delete(member);
  }
}

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
    memberColorLockKey(guildId, userId),
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

/** What a planned change came to. */
export interface RoleChangeOutcome {
  /** Every change went through. */
  ok: boolean;
  /** The roles Discord refused to give or take away (above the bot, deleted meanwhile). */
  notChanged: string[];
  /** The roles taken from the member: the plan's, and any colour a colour pick swapped out. */
  removed: string[];
}

/**
 * Applies a planned change to the member's roles (`held` follows it), under the member's lock.
 * A role of the palette changes through `changeMemberColor`, whatever the menu's mode: giving one
 * swaps out the member's colour (a normal menu listing colours too: one colour at a time is a
 * rule about the member), taking one away records that they have none. `fromMenuId`: the menu
 * picked on, whose reactions and picks of the roles taken away the caller updates. A role Discord
 * refuses (above the bot, deleted meanwhile) is logged and left.
 */
export async function applyRoleChange(
  deps: WorkerDeps,
  guildId: string,
  userId: string,
  plan: Extract<MenuPickPlan, { kind: 'change' }>,
  held: Set<string>,
  fromMenuId?: string,
): Promise<RoleChangeOutcome> {
  const members = discordApi(deps.client).guilds;
  const paletteRoles = await guildPaletteRoles(deps, guildId);
  const outcome: RoleChangeOutcome = { ok: true, notChanged: [], removed: [] };
  const notChanged = (roleId: string, error: unknown) => {
    outcome.ok = false;
    outcome.notChanged.push(roleId);
    deps.logger.warn({ ...errorFields(error), guildId, roleId }, 'reaction role not changed');
  };
  const change = async (roleId: string, add: boolean) => {
    try {
      if (add) await members.addRoleToMember(guildId, userId, roleId, { reason: REASON });
      else await members.removeRoleFromMember(guildId, userId, roleId, { reason: REASON });
    } catch (error) {
      if (!isDiscordError(error, DiscordCodes.MissingPermissions, DiscordCodes.UnknownRole)) throw error;
      notChanged(roleId, error);
      return;
    }
    if (add) held.add(roleId);
    else {
      held.delete(roleId);
      outcome.removed.push(roleId);
    }
    noteRoleChange(guildId, userId, roleId, add);
  };
  const changeColor = async (request: MemberColorRequest) => {
    const color = await changeMemberColor(
      deps,
      { guildId, userId, paletteRoles, held, reason: REASON, fromMenuId },
      request,
    );
    if (color.result !== 'done') return notChanged(color.roleId, color.result);
    outcome.removed.push(...color.removed);
    for (const kept of color.kept) notChanged(kept, 'missing-permissions');
  };
  for (const roleId of plan.add) {
    if (!paletteRoles.has(roleId)) await change(roleId, true);
    else await changeColor({ pick: roleId, pickKey: await paletteTargetKey(deps, guildId, roleId) });
  }
  for (const roleId of plan.remove) {
    // A colour the pick swapped out already.
    if (outcome.removed.includes(roleId)) continue;
    if (!paletteRoles.has(roleId)) await change(roleId, false);
    else await changeColor({ drop: [roleId] });
  }
  return outcome;
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
