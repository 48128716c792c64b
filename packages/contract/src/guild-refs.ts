/**
 * Ids in a request body that name something of the guild in the path: a channel, a role or a
 * member. The route table declares them per route (`guildRefs`), and the API checks every one
 * against that guild before the handler runs, so an admin of one server can never make the bot
 * post, assign or count in another. The format check alone once let that happen.
 */

/** channel: a text or announcement channel of the guild; role: a role of the guild other than
 * @everyone; member: a user who is a member of the guild. */
export type GuildRefKind = 'channel' | 'role' | 'member';

/**
 * Where the ids sit in the body: `field` for a top-level field, `list[].field` for the field of
 * every row of a list, `list[]` for every id of a list of ids, `list[].field[]` for every id of
 * a list of ids in every row. Empty, null and absent values
 * name nothing and are not checked.
 */
export type GuildRefSpec = Readonly<Record<string, GuildRefKind>>;

export interface GuildRef {
  /** The field as the admin would find it: `channel_id`, `color_roles[2].role_id`. */
  field: string;
  kind: GuildRefKind;
  id: string;
}

function fieldOf(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return (value as Record<string, unknown>)[key];
}

/** Every id the spec points at in `body`, in the spec's order then row order. */
export function collectGuildRefs(body: unknown, spec: GuildRefSpec): GuildRef[] {
  const refs: GuildRef[] = [];
  const add = (field: string, kind: GuildRefKind, value: unknown) => {
    if (typeof value !== 'string') return;
    const id = value.trim();
    if (id !== '') refs.push({ field, kind, id });
  };
  for (const [path, kind] of Object.entries(spec)) {
    const list = /^([A-Za-z_]+)\[\]$/.exec(path)?.[1];
    if (list) {
      const ids = fieldOf(body, list);
      if (!Array.isArray(ids)) continue;
      ids.forEach((id, index) => {
        add(`${list}[${index}]`, kind, id);
      });
      continue;
    }
    const nested = /^([A-Za-z_]+)\[\]\.([A-Za-z_]+)\[\]$/.exec(path);
    if (nested?.[1] && nested[2]) {
      const [, list, key] = nested;
      const rows = fieldOf(body, list);
      if (!Array.isArray(rows)) continue;
      rows.forEach((item, index) => {
        const ids = fieldOf(item, key);
        if (!Array.isArray(ids)) return;
        ids.forEach((id, at) => {
          add(`${list}[${index}].${key}[${at}]`, kind, id);
        });
      });
      continue;
    }
    const row = /^([A-Za-z_]+)\[\]\.([A-Za-z_]+)$/.exec(path);
    if (row?.[1] && row[2]) {
      const [, list, key] = row;
      const rows = fieldOf(body, list);
      if (!Array.isArray(rows)) continue;
      rows.forEach((item, index) => {
        add(`${list}[${index}].${key}`, kind, fieldOf(item, key));
      });
    } else {
      add(path, kind, fieldOf(body, path));
    }
  }
  return refs;
}

const KIND_WORDS: Record<GuildRefKind, string> = {
  channel: 'a text channel of this server',
  role: 'a role of this server',
  member: 'a member of this server',
};

/**
 * The field as an admin finds it in a message: `color_roles[2].role_id` is `color_roles row 3:
 * role_id` (rows count from 1, as the editors number them); a top-level field stays as it is.
 */
export function refFieldWords(field: string): string {
  const rowItem = /^([A-Za-z_]+)\[(\d+)\]\.([A-Za-z_]+)\[(\d+)\]$/.exec(field);
  if (rowItem)
    return `${rowItem[1]} row ${Number(rowItem[2]) + 1}: ${rowItem[3]} item ${Number(rowItem[4]) + 1}`;
  const row = /^([A-Za-z_]+)\[(\d+)\]\.([A-Za-z_]+)$/.exec(field);
  if (row) return `${row[1]} row ${Number(row[2]) + 1}: ${row[3]}`;
  const item = /^([A-Za-z_]+)\[(\d+)\]$/.exec(field);
  return item ? `${item[1]} item ${Number(item[2]) + 1}` : field;
}

/** The 400's sentence for an id that is not the guild's own; an id of a list is named with it. */
export function foreignRefMessage(ref: Pick<GuildRef, 'field' | 'kind'> & { id?: string }): string {
  const item = /^([A-Za-z_]+)\[\d+\]$/.exec(ref.field)?.[1];
  if (item && ref.id !== undefined) return `${item}: ${ref.id} is not ${KIND_WORDS[ref.kind]}`;
  return `${refFieldWords(ref.field)} is not ${KIND_WORDS[ref.kind]}`;
}

/** The 400's sentence for @everyone (its id is the guild's) where a role to give is expected. */
export function everyoneRefMessage(ref: Pick<GuildRef, 'field'>): string {
  return `${refFieldWords(ref.field)} is @everyone, which every member already has; pick another role`;
}
