/**
 * Reading an XP import (`POST …/leveling/import`): a CSV with a header naming `user_id` and `xp`,
 * or MEE6's leaderboard JSON. The API imports what these read; the dashboard previews the first
 * rows with the same functions, so the preview shows exactly what will be imported or skipped.
 */
import { SNOWFLAKE_PATTERN } from '../ids.ts';
import { MEMBER_XP_MAX } from './schemas.ts';

/** One member's XP as the file gives it. */
export interface XpImportRow {
  /** 1-based: the CSV record (the header is row 1), or the JSON player's index + 1. */
  row: number;
  userId: string;
  xp: number;
  /** The name the file gives, when it gives one (the preview shows it; the import names members as the server does). */
  username: string | null;
}

export interface XpImportSkip {
  row: number;
  reason: string;
}

export interface XpImportRead {
  /** One row per member: a member listed again replaces the earlier row (the last row counts). */
  rows: XpImportRow[];
  /** Rows not imported, in file order. */
  skipped: XpImportSkip[];
  /** Every data row the file holds (header and blank lines not counted). */
  total: number;
}

/** The header does not name both columns: the whole file is refused. */
export class XpImportHeaderError extends Error {
  override name = 'XpImportHeaderError';
}

const USERNAME_MAX = 100;
const WELL_FORMED = /^(?:[^\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;
const MAX_TEXT = MEMBER_XP_MAX.toLocaleString('en-US');

/** A name the file gives, if it is one Postgres can store (no NUL, no lone surrogate). */
function usernameOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const name = value.trim().slice(0, USERNAME_MAX);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what Postgres text refuses.
  if (name === '' || /\u0000/.test(name) || !WELL_FORMED.test(name)) return null;
  return name;
}

/** The XP of a cell or JSON value, or why it is not one. */
function xpOf(value: unknown): number | string {
  let xp: number;
  if (typeof value === 'number') xp = value;
  else if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) xp = Number(value);
  else return 'xp is not a whole number of at least 0';
  if (!Number.isInteger(xp) || xp < 0) return 'xp is not a whole number of at least 0';
  if (xp > MEMBER_XP_MAX) return `xp is above ${MAX_TEXT}`;
  return xp;
}

/** Collects rows, keeping the last row of a member listed twice and skipping the earlier ones. */
class Collector {
  private readonly byUser = new Map<string, XpImportRow>();
  readonly skipped: XpImportSkip[] = [];
  total = 0;

  add(row: number, id: unknown, xpValue: unknown, username: unknown, idField: string): void {
    this.total++;
    const userId = typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : id;
    if (typeof userId !== 'string' || !SNOWFLAKE_PATTERN.test(userId.trim())) {
      this.skipped.push({ row, reason: `${idField} is not a Discord id` });
      return;
    }
    const xp = xpOf(xpValue);
    if (typeof xp === 'string') {
      this.skipped.push({ row, reason: xp });
      return;
    }
    const id_ = userId.trim();
    const earlier = this.byUser.get(id_);
    if (earlier) {
      this.skipped.push({
        row: earlier.row,
        reason: `${idField} ${id_} is listed again on row ${row}; the last row counts`,
      });
      this.byUser.delete(id_);
    }
    this.byUser.set(id_, { row, userId: id_, xp, username: usernameOf(username) });
  }

  read(): XpImportRead {
    const skipped = [...this.skipped].sort((a, b) => a.row - b.row);
    return { rows: [...this.byUser.values()], skipped, total: this.total };
  }
}

/**
 * The records of an RFC 4180 CSV: fields separated by commas, records by CRLF or LF, fields in
 * double quotes may hold commas, line breaks and doubled quotes. A leading BOM is dropped.
 * Calls `onRecord` with each record's fields and its 1-based number; blank lines are skipped.
 */
export function readCsvRecords(
  text: string,
  onRecord: (fields: string[], record: number) => boolean | undefined,
): void {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  let record = 0;
  while (i < n) {
    const fields: string[] = [];
    let field = '';
    let ended = false;
    while (!ended) {
      if (text.charCodeAt(i) === 34 /* " */) {
        // A quoted field: up to the closing quote; "" is one quote.
        i++;
        let start = i;
        for (;;) {
          const quote = text.indexOf('"', i);
          if (quote === -1) {
            field += text.slice(start);
            i = n;
            break;
          }
          field += text.slice(start, quote);
          if (text.charCodeAt(quote + 1) === 34) {
            field += '"';
            i = quote + 2;
            start = i;
          } else {
            i = quote + 1;
            break;
          }
        }
      }
      // The rest of an unquoted field (or anything after a closing quote) up to , or a line end.
      let j = i;
      while (j < n) {
        const c = text.charCodeAt(j);
        if (c === 44 || c === 10 || c === 13) break;
        j++;
      }
      field += text.slice(i, j);
      fields.push(field);
      field = '';
      i = j;
      const c = text.charCodeAt(i);
      if (c === 44) {
        i++;
        if (i >= n) {
          fields.push('');
          ended = true;
        }
      } else {
        if (c === 13 && text.charCodeAt(i + 1) === 10) i += 2;
        else if (i < n) i++;
        ended = true;
      }
    }
    if (fields.length === 1 && fields[0] === '') continue;
    record++;
    if (onRecord(fields, record) === false) return;
  }
}

/**
 * Reads an import CSV. The header (the first record) must name `user_id` and `xp`, in any
 * order and case; a `username` column is kept, others are ignored. Stops counting past
 * `maxRows` data rows (the caller refuses the file then).
 */
export function readXpCsv(text: string, maxRows = Number.POSITIVE_INFINITY): XpImportRead {
  const collector = new Collector();
  let columns: { id: number; xp: number; username: number } | null = null;
  let sawHeader = false;
  readCsvRecords(text, (fields, record) => {
    if (!sawHeader) {
      sawHeader = true;
      const names = fields.map((name) => name.trim().toLowerCase());
      const id = names.indexOf('user_id');
      const xp = names.indexOf('xp');
      if (id === -1 || xp === -1) {
        const found =
          fields.length > 0 && fields.some((f) => f.trim() !== '') ? fields.join(', ') : 'nothing';
        throw new XpImportHeaderError(
          `The CSV's first line must be a header naming the columns user_id and xp (it has: ${found.slice(0, 200)})`,
        );
      }
      columns = { id, xp, username: names.indexOf('username') };
      return true;
    }
    if (columns === null) return false;
    if (collector.total >= maxRows) {
      collector.total++;
      return false;
    }
    collector.add(
      record,
      fields[columns.id] ?? '',
      fields[columns.xp] ?? '',
      columns.username === -1 ? null : fields[columns.username],
      'user_id',
    );
    return true;
  });
  if (!sawHeader) {
    throw new XpImportHeaderError('The CSV is empty: its first line must be a header naming user_id and xp');
  }
  return collector.read();
}

/** Reads MEE6's leaderboard players (`{ id, xp, username? }`, other fields ignored). */
export function readMee6Players(players: readonly unknown[]): XpImportRead {
  const collector = new Collector();
  players.forEach((player, index) => {
    const fields = typeof player === 'object' && player !== null ? (player as Record<string, unknown>) : {};
    collector.add(index + 1, fields.id, fields.xp, fields.username, 'id');
  });
  return collector.read();
}
