/**
 * History's shared rules: the diff a settings change shows, whether an entry can be undone, the
 * sentences a destructive button's confirmation says, and the prune plan the job and its
 * preview both run.
 */
import type { HistoryChange } from '@spacecadet/contract';

const count = new Intl.NumberFormat('en-US');
const plural = (n: number, word: string, words = `${word}s`) =>
  `${count.format(n)} ${n === 1 ? word : words}`;

/** A value as the History page shows it: text as is, anything else as compact JSON. */
export function historyValue(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A field of stored JSON, or undefined when the object does not have it itself: any key is data,
 * so `constructor` or `toString` must not answer with what every object inherits.
 */
function ownField(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * The fields a settings change changed, in the order of the state after it (then the fields it
 * removed). Objects are compared field by field at the top level, a created or deleted one
 * against nothing; anything else (a list, a value) is one change of the whole, named `field`.
 */
export function historyChanges(before: unknown, after: unknown, field = 'value'): HistoryChange[] {
  // A row created or deleted shows each of its fields (set from, or back to, nothing).
  if (before === null && isRecord(after)) return historyChanges({}, after, field);
  if (isRecord(before) && after === null) return historyChanges(before, {}, field);
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(after), ...Object.keys(before)])];
    return keys.flatMap((key) => {
      const was = ownField(before, key);
      const is = ownField(after, key);
      return JSON.stringify(was) === JSON.stringify(is)
        ? []
        : [{ field: key, before: historyValue(was), after: historyValue(is) }];
    });
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  return [{ field, before: historyValue(before), after: historyValue(after) }];
}

/** A Discord id as it stands in a summary or a stored state (never part of a longer number). */
const REFERENCED_ID = /(?<!\d)\d{17,20}(?!\d)/g;

/**
 * The Discord ids an entry's summary and states mention (members, roles, channels: `<@id>`,
 * `-channel:<id>`, a `channel_id` field), each once: the ones whose names it keeps.
 */
export function historyRefIds(...values: unknown[]): string[] {
  const ids = new Set<string>();
  for (const value of values) {
    const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
    for (const match of text.matchAll(REFERENCED_ID)) ids.add(match[0]);
  }
  return [...ids];
}

/** What an entry holds that its undo needs. */
export interface UndoableEntry {
  undoKind: 'state' | 'snapshot' | null;
  undoneBy: number | null;
  /** For a snapshot: it is whole (the job that removed things stored all of them). */
  snapshotReady: boolean;
}

/** An entry can be undone: not undone yet, and what the undo needs is still kept. */
export function isUndoable(entry: UndoableEntry): boolean {
  if (entry.undoneBy !== null || entry.undoKind === null) return false;
  return entry.undoKind === 'state' || entry.snapshotReady;
}

/** "Delete 38 roles held by 412 members." (Reset Color Roles, Reset Personality). */
export function rolesResetImpact(roles: number, members: number): string {
  if (roles === 0) return 'No roles to delete.';
  return `Delete ${plural(roles, 'role')} held by ${plural(members, 'member')}.`;
}

/** What else names the roles a reset deletes (the resets' confirmations). */
export interface RoleUsageParts {
  /** Role menus and reaction lists by name (`reactionList`: one of the Reaction Roles editor's lists). */
  menus: ReadonlyArray<{ name: string; reactionList: boolean }>;
  rewardRoles: number;
  noXpRoles: number;
  boosts: number;
}

/**
 * "Also used by 2 role menus ("Games", "Pings") and the Color Roles reaction list. They stop
 * giving these roles until the reset is undone." — empty when nothing else uses the roles.
 */
export function roleUsageSummary(usage: RoleUsageParts): string {
  const own = usage.menus.filter((menu) => !menu.reactionList).map((menu) => `"${menu.name}"`);
  const parts = [
    own.length === 1
      ? `the role menu ${own[0]}`
      : own.length > 1
        ? `${own.length} role menus (${own.join(', ')})`
        : '',
    ...usage.menus.filter((menu) => menu.reactionList).map((menu) => `the ${menu.name} reaction list`),
    ...counted([
      [usage.rewardRoles, 'level reward'],
      [usage.noXpRoles, 'no-XP role'],
      [usage.boosts, 'role boost'],
    ]),
  ].filter(Boolean);
  if (parts.length === 0) return '';
  return `Also used by ${listed(parts)}. They stop giving these roles until the reset is undone.`;
}

/** "a", "a and b", "a, b and c". */
function listed(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** The counted parts that are not zero: `[[2, 'reward role'], [0, 'boost']]` -> ["2 reward roles"]. */
function counted(parts: ReadonlyArray<readonly [number, string]>): string[] {
  return parts.flatMap(([n, word]) => (n > 0 ? [plural(n, word)] : []));
}

/** "Remove the XP of 1,204 members and delete 5 reward roles and 2 boosts." (Reset Leveling). */
export function levelingResetImpact(members: number, rewardRoles: number, boosts: number): string {
  const also = counted([
    [rewardRoles, 'reward role'],
    [boosts, 'boost'],
  ]);
  const base = `Remove the XP of ${plural(members, 'member')}`;
  return also.length > 0 ? `${base} and delete ${also.join(' and ')}.` : `${base}.`;
}

/**
 * Reset Leveling's history entry, naming only what there was:
 * "Reset leveling: deleted the XP of 2 members and 1 boost".
 */
export function levelingResetDone(members: number, rewardRoles: number, boosts: number): string {
  const parts = [
    ...(members > 0 ? [`the XP of ${plural(members, 'member')}`] : []),
    ...counted([
      [rewardRoles, 'reward role'],
      [boosts, 'boost'],
    ]),
  ];
  return parts.length === 0
    ? 'Reset leveling: there was nothing to delete'
    : `Reset leveling: deleted ${listed(parts)}`;
}

/** "Remove the XP of 12 members who left." (Prune leavers). */
export function pruneImpact(members: number): string {
  if (members === 0) return 'No leavers to prune: everyone with XP is still in the server.';
  return `Remove the XP of ${plural(members, 'member')} who left.`;
}

/**
 * Prune leavers when Discord refuses the member list: the ones seen leaving and the ones the job
 * will ask about by id, since only Discord knows which of those left.
 * "Remove the XP of up to 40 members: 12 seen leaving, 28 to be checked with Discord."
 */
export function pruneImpactUnchecked(marked: number, unchecked: number): string {
  if (marked + unchecked === 0) return pruneImpact(0);
  return `Remove the XP of up to ${plural(marked + unchecked, 'member')}: ${count.format(marked)} seen leaving, ${count.format(unchecked)} to be checked with Discord.`;
}

/** 'Delete the role "Veteran" held by 40 members.' (deleting a reward role). */
export function rewardRoleDeleteImpact(roleName: string, members: number): string {
  return `Delete the role "${roleName}" held by ${plural(members, 'member')}.`;
}

/** Members holding at least one of the roles. */
export function countHolders(
  roleIds: ReadonlySet<string>,
  members: Iterable<{ roles: readonly string[] }>,
): number {
  let holders = 0;
  for (const member of members) if (member.roles.some((id) => roleIds.has(id))) holders += 1;
  return holders;
}

export interface XpMemberMark {
  userId: string;
  leftAt: Date | null;
}

/**
 * Prune leavers' plan (the job and its preview run this): of the members with XP, given who the
 * member list has (`present`, null when Discord refused the list) and when the run started:
 * - `markedGone`: seen leaving before the run and not in the list: deleted;
 * - `toConfirm`: never seen leaving (or no list): asked about by id, deleted when absent;
 * - `returned`: in the list but carrying a leave mark: the mark is cleared.
 */
export function classifyLeavers(
  withXp: readonly XpMemberMark[],
  present: ReadonlySet<string> | null,
  startedAt: Date,
): { markedGone: string[]; toConfirm: string[]; returned: string[] } {
  const markedGone: string[] = [];
  const toConfirm: string[] = [];
  const returned: string[] = [];
  for (const member of withXp) {
    const marked = member.leftAt !== null && member.leftAt < startedAt;
    if (present?.has(member.userId)) {
      if (marked) returned.push(member.userId);
    } else if (present && marked) {
      markedGone.push(member.userId);
    } else if (!present || member.leftAt === null) {
      toConfirm.push(member.userId);
    }
  }
  return { markedGone, toConfirm, returned };
}
