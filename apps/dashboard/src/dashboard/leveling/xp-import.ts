/**
 * What the import card shows of a picked file before it is sent: its kind (CSV or MEE6 JSON),
 * its first rows, and for each row whether it will be imported or skipped and why. The rows are
 * read with the contract's own readers (`readXpCsv`, `readMee6Players`), the functions the API
 * imports with, so the preview says what the import will do.
 */
import {
  readCsvRecords,
  readMee6Players,
  readXpCsv,
  XP_IMPORT_MAX_ROWS,
  XpImportHeaderError,
  type XpImportRead,
} from '@spacecadet/contract';

export const IMPORT_PREVIEW_ROWS = 5;

export interface PreviewRow {
  /** The CSV record (header is row 1) or the JSON player's 1-based index, as the API counts. */
  row: number;
  userId: string;
  xp: string;
  username: string | null;
  /** Why the import will skip this row, or null when it will be imported. */
  problem: string | null;
}

export type ImportPreview =
  | {
      ok: true;
      kind: 'csv' | 'json';
      type: string;
      rows: PreviewRow[];
      /** Data rows in the file. */
      total: number;
      /** Rows that will be skipped (the first rows' reasons are in `rows`). */
      skipped: number;
    }
  | { ok: false; problem: string };

const cell = (value: unknown) => (value === undefined || value === null ? '' : String(value));

function previewOf(
  kind: 'csv' | 'json',
  read: XpImportRead,
  first: Array<{ row: number; userId: unknown; xp: unknown; username: unknown }>,
): ImportPreview {
  if (read.total > XP_IMPORT_MAX_ROWS) {
    return {
      ok: false,
      problem: `The file has ${read.total.toLocaleString('en-US')} rows; an import takes at most ${XP_IMPORT_MAX_ROWS.toLocaleString('en-US')}.`,
    };
  }
  const reasons = new Map(read.skipped.map((skip) => [skip.row, skip.reason]));
  return {
    ok: true,
    kind,
    type: kind === 'csv' ? 'text/csv' : 'application/json',
    rows: first.map((entry) => ({
      row: entry.row,
      userId: cell(entry.userId),
      xp: cell(entry.xp),
      username: typeof entry.username === 'string' && entry.username !== '' ? entry.username : null,
      problem: reasons.get(entry.row) ?? null,
    })),
    total: read.total,
    skipped: read.skipped.length,
  };
}

function previewCsv(text: string): ImportPreview {
  let read: XpImportRead;
  try {
    read = readXpCsv(text, XP_IMPORT_MAX_ROWS);
  } catch (error) {
    if (error instanceof XpImportHeaderError) return { ok: false, problem: `${error.message}.` };
    throw error;
  }
  // The first data records' cells as written, under the header's column names.
  let header: string[] = [];
  const first: Array<{ row: number; userId: unknown; xp: unknown; username: unknown }> = [];
  readCsvRecords(text, (fields, record) => {
    if (header.length === 0) {
      header = fields.map((name) => name.trim().toLowerCase());
      return true;
    }
    const at = (name: string) => fields[header.indexOf(name)];
    first.push({ row: record, userId: at('user_id'), xp: at('xp'), username: at('username') });
    return first.length < IMPORT_PREVIEW_ROWS;
  });
  return previewOf('csv', read, first);
}

function previewJson(text: string): ImportPreview {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'The file is not valid JSON.' };
  }
  const players = (value as { players?: unknown } | null)?.players;
  if (!Array.isArray(players)) {
    return { ok: false, problem: 'The JSON must be a MEE6 leaderboard page: { "players": [ … ] }.' };
  }
  const first = players.slice(0, IMPORT_PREVIEW_ROWS).map((player: unknown, index) => {
    const fields = (typeof player === 'object' && player !== null ? player : {}) as Record<string, unknown>;
    return { row: index + 1, userId: fields.id, xp: fields.xp, username: fields.username };
  });
  return previewOf('json', readMee6Players(players), first);
}

/** The preview of a picked file, by its name and content (JSON when it looks like JSON). */
export function previewImport(fileName: string, text: string): ImportPreview {
  if (/\.json$/i.test(fileName) || text.trimStart().startsWith('{')) return previewJson(text);
  return previewCsv(text);
}
