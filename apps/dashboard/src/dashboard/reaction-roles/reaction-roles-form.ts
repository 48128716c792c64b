import {
  MAX_REACTION_LIST_ROWS,
  PutReactionRolesBody,
  REACTION_LISTS,
  type ReactionList,
  type ReactionPanelLocation,
  type ReactionRoleEntry,
  type ReactionRolesState,
} from '@spacecadet/contract';
import { REACTION_LIST_MENUS } from '@spacecadet/core';

export interface RoleRow {
  emoji: string;
  role_id: string;
  label: string;
  description: string;
}

export type RoleListName = ReactionList;
/** The two lists in the page's order, titled as their panels are (core's REACTION_LIST_MENUS). */
export const ROLE_LISTS: ReadonlyArray<{ name: RoleListName; title: string }> = REACTION_LISTS.map(
  (name) => ({
    name,
    title: REACTION_LIST_MENUS[name].title,
  }),
);
/** The most rows a list takes (the API refuses more). */
export const MAX_ROWS = MAX_REACTION_LIST_ROWS;
export const ROW_LIMIT_NOTE = `A list holds at most ${MAX_REACTION_LIST_ROWS} rows (two panel messages of 20 reactions).`;

export const emptyRow = (): RoleRow => ({ emoji: '', role_id: '', label: '', description: '' });

export function rowsFromEntries(entries: readonly ReactionRoleEntry[]): RoleRow[] {
  return entries.map((entry) => ({
    emoji: entry.emoji,
    role_id: entry.role_id,
    label: entry.label ?? '',
    description: entry.description ?? '',
  }));
}

export function entriesFromRows(rows: readonly RoleRow[]): ReactionRoleEntry[] {
  return rows.map((row) => ({
    emoji: row.emoji.trim(),
    role_id: row.role_id.trim(),
    ...(row.label.trim() ? { label: row.label.trim() } : {}),
    ...(row.description.trim() ? { description: row.description.trim() } : {}),
  }));
}

export type RowField = 'emoji' | 'role_id' | 'label' | 'description';

export interface RowProblem {
  list: RoleListName;
  /** 1-based, as in the message; 0 for a problem of the whole list (too many rows). */
  row: number;
  /** The field the problem is about (null for the whole list). */
  field: RowField | null;
  message: string;
}

/** The required fields of a row the user left blank. */
export function blankRequiredFields(row: RoleRow): Array<'emoji' | 'role_id'> {
  return (['emoji', 'role_id'] as const).filter((key) => row[key].trim() === '');
}

const FIELDS: ReadonlySet<string> = new Set(['emoji', 'role_id', 'label', 'description']);

/**
 * What the API would refuse, checked with the contract's own body schema (so the words are the
 * API's: "Row N: ..."): blank or bad emoji and role ids, an emoji twice in one list, too many
 * rows. One problem per field, the first the schema names.
 */
export function validateReactionRoles(lists: Record<RoleListName, readonly RoleRow[]>): RowProblem[] {
  const parsed = PutReactionRolesBody.safeParse({
    color_roles: entriesFromRows(lists.color_roles),
    personality_roles: entriesFromRows(lists.personality_roles),
  });
  if (parsed.success) return [];
  const problems: RowProblem[] = [];
  const seen = new Set<string>();
  for (const issue of parsed.error.issues) {
    const [list, index, field] = issue.path;
    if (!REACTION_LISTS.includes(list as RoleListName)) continue;
    const row = typeof index === 'number' ? index + 1 : 0;
    const named = typeof field === 'string' && FIELDS.has(field) ? (field as RowField) : null;
    const key = `${String(list)}:${row}:${named}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ list: list as RoleListName, row, field: named, message: issue.message });
  }
  return problems.sort((a, b) =>
    a.list === b.list ? a.row - b.row : REACTION_LISTS.indexOf(a.list) - REACTION_LISTS.indexOf(b.list),
  );
}

/**
 * The emoji problems to show while the admin types: a typed emoji that is not one, or one a row
 * above already uses (blank fields wait for Save). Keyed by list, then 1-based row.
 */
export function emojiProblems(
  problems: readonly RowProblem[],
  lists: Record<RoleListName, readonly RoleRow[]>,
) {
  const found = new Map<string, string>();
  for (const problem of problems) {
    if (problem.field !== 'emoji') continue;
    if ((lists[problem.list][problem.row - 1]?.emoji.trim() ?? '') === '') continue;
    found.set(`${problem.list}:${problem.row}`, problem.message);
  }
  return found;
}

/** Lists from the raw JSON textarea; null when the text is not `{color_roles: [], personality_roles: []}`. */
export function listsFromJson(text: string): Record<RoleListName, RoleRow[]> | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  const toRows = (list: unknown): RoleRow[] | null => {
    if (!Array.isArray(list)) return null;
    return list.map((item) => {
      const entry = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
      const text = (key: string) => (typeof entry[key] === 'string' ? (entry[key] as string) : '');
      return {
        emoji: text('emoji'),
        role_id: text('role_id'),
        label: text('label'),
        description: text('description'),
      };
    });
  };
  const color = toRows(record.color_roles ?? []);
  const personality = toRows(record.personality_roles ?? []);
  return color && personality ? { color_roles: color, personality_roles: personality } : null;
}

export function listsToJson(lists: Record<RoleListName, readonly RoleRow[]>): string {
  return JSON.stringify(
    {
      color_roles: entriesFromRows(lists.color_roles),
      personality_roles: entriesFromRows(lists.personality_roles),
    },
    null,
    2,
  );
}

/** Said beside Saved when a panel is posted: the API queues their update after a save. */
export const PANELS_WILL_UPDATE = 'The posted panels will update in Discord.';
export const NOTHING_TO_POST = 'Nothing to post yet: save a list with rows and a Panel Channel for it first.';
export const UNSAVED_POST_NOTE = 'Unsaved changes: Post / Update Panels posts the saved lists.';

const channelName = (channelId: string, channels: ReadonlyArray<{ id: string; name: string }>) => {
  const channel = channels.find((item) => item.id === channelId);
  return channel ? `#${channel.name}` : `channel ${channelId}`;
};

/**
 * Where a list's panel is: "Posted in #roles (2 messages)", "Not posted yet", and whether the
 * next Post / Update moves it to a newly saved channel.
 */
export function panelLocationText(
  panel: ReactionPanelLocation | null,
  savedChannelId: string | null,
  channels: ReadonlyArray<{ id: string; name: string }>,
): string {
  if (!panel) return 'Not posted yet';
  const count = panel.message_ids.length;
  const where = `Posted in ${channelName(panel.channel_id, channels)} (${count} ${count === 1 ? 'message' : 'messages'})`;
  return savedChannelId && savedChannelId !== panel.channel_id
    ? `${where}; the next Post / Update moves it to ${channelName(savedChannelId, channels)}`
    : where;
}

/** The saved lists Post / Update Panels would post: rows and a channel. */
export function postableLists(state: ReactionRolesState): RoleListName[] {
  return REACTION_LISTS.filter((list) => state[list].length > 0 && state.channels[list] !== null);
}

/** Saved lists with rows but no channel: their panel is skipped. */
export function listsWithoutChannel(state: ReactionRolesState): RoleListName[] {
  return REACTION_LISTS.filter((list) => state[list].length > 0 && state.channels[list] === null);
}

/**
 * The row fields a refused save names (the API's 400 issues, paths like `color_roles.1.role_id`),
 * as `row:field` (row 1-based) per list, so the rows are marked where the red box says.
 */
export function refusedFields(issues: ReadonlyArray<{ path: string }>): Record<RoleListName, Set<string>> {
  const marked: Record<RoleListName, Set<string>> = { color_roles: new Set(), personality_roles: new Set() };
  for (const issue of issues) {
    const [list, index, field] = issue.path.split('.');
    if (!REACTION_LISTS.includes(list as RoleListName) || !/^\d+$/.test(index ?? '')) continue;
    if (!FIELDS.has(field ?? '')) continue;
    marked[list as RoleListName].add(`${Number(index) + 1}:${field}`);
  }
  return marked;
}
