/**
 * Per member, in this process: the role changes this process made, each with when it landed. An
 * event carries the member's roles as Discord had them when it was made (a reaction packet, a
 * click); one that arrived before a change of ours landed (it waited behind it) does not show
 * that change yet. Every mechanism that changes a member's picked roles notes its changes here
 * (the colour panel and role menus alike), and reads events' roles through `rolesSeenBy`. A
 * guild's events all arrive on the one process holding its shard, so this process's notes are
 * the ones that matter.
 */
const recentChanges = new Map<string, Map<string, { held: boolean; at: number }>>();
/** Long enough for any event queued behind a change to be applied. */
const RECENT_CHANGE_MS = 60_000;

function memberKey(guildId: string, userId: string): string {
  return `${guildId}:${userId}`;
}

/**
 * Drops the notes no event can need any more, at most once a minute, so members who picked once
 * are not kept for the life of the process (called as notes are made).
 */
let lastSweep = 0;
function sweepStaleChanges(now: number): void {
  if (now - lastSweep < RECENT_CHANGE_MS) return;
  lastSweep = now;
  for (const [member, byRole] of recentChanges) {
    for (const [roleId, change] of byRole) if (now - change.at > RECENT_CHANGE_MS) byRole.delete(roleId);
    if (byRole.size === 0) recentChanges.delete(member);
  }
}

/** Notes that the member now holds (or no longer holds) `roleId`, by a change of ours that landed. */
export function noteRoleChange(guildId: string, userId: string, roleId: string, held: boolean): void {
  const now = performance.now();
  sweepStaleChanges(now);
  const key = memberKey(guildId, userId);
  const changes = recentChanges.get(key) ?? new Map<string, { held: boolean; at: number }>();
  changes.set(roleId, { held, at: now });
  recentChanges.set(key, changes);
}

/**
 * The member's roles for an event that arrived at `arrivedAt` (performance.now()): the roles it
 * carries, with every change of ours that landed after it arrived laid over them.
 */
export function rolesSeenBy(
  guildId: string,
  userId: string,
  eventRoles: readonly string[],
  arrivedAt: number,
): Set<string> {
  const held = new Set(eventRoles);
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
