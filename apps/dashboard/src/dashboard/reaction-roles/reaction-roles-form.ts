import { MESSAGES, type ReactionRoleEntry } from '@spacecadet/contract';

export interface RoleRow {
  emoji: string;
  role_id: string;
  label: string;
  description: string;
}

export type RoleListName = 'color_roles' | 'personality_roles';
export const ROLE_LISTS: ReadonlyArray<{ name: RoleListName; title: string }> = [
  { name: 'color_roles', title: 'Color Roles' },
  { name: 'personality_roles', title: 'Personality Roles' },
];

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

export interface RowProblem {
  list: RoleListName;
  /** 1-based, as in the message. */
  row: number;
  message: string;
}

/** The required fields of a row the user left blank (aria-invalid once a problem names the row). */
export function blankRequiredFields(row: RoleRow): Array<'emoji' | 'role_id'> {
  return (['emoji', 'role_id'] as const).filter((key) => row[key].trim() === '');
}

/** Every row of both lists needs an emoji and a role id (n is 1-based per list). */
export function validateReactionRoles(lists: Record<RoleListName, readonly RoleRow[]>): RowProblem[] {
  const problems: RowProblem[] = [];
  for (const { name } of ROLE_LISTS) {
    lists[name].forEach((row, index) => {
      if (blankRequiredFields(row).length > 0) {
        problems.push({ list: name, row: index + 1, message: MESSAGES.reactionRowRequired(index + 1) });
      }
    });
  }
  return problems;
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
