/**
 * What the import card reads from a picked file before it is sent: its kind (CSV or MEE6
 * JSON), the first rows as the API will read them, or why the API would refuse it whole. The
 * API parses the file again and is the judge of every row; this is only the preview.
 */
import { isSnowflake } from '@spacecadet/contract';

export const IMPORT_PREVIEW_ROWS = 5;

export interface PreviewRow {
  /** The CSV line (header is line 1) or the JSON player's 1-based index, as the API counts. */
  row: number;
  userId: string;
  xp: string;
  username: string | null;
  /** Why the API will skip this row, or null when it looks fine. */
  problem: string | null;
}

export type ImportPreview =
  | { ok: true; kind: 'csv' | 'json'; type: string; rows: PreviewRow[]; total: number }
  | { ok: false; problem: string };

function rowProblem(userId: string, xp: string): string | null {
  if (!isSnowflake(userId)) return 'user_id is not a Discord id';
  const n = Number(xp);
  if (xp.trim() === '' || !Number.isInteger(n) || n < 0) return 'xp is not a whole number of at least 0';
  return null;
}

/** One CSV line's cells (quotes as RFC 4180: "a,b" and "" for a quote). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  cells.push(cell);
  return cells.map((value) => value.trim());
}

function previewCsv(text: string): ImportPreview {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = csvCells(lines[0] ?? '').map((name) => name.toLowerCase());
  const idColumn = header.indexOf('user_id');
  const xpColumn = header.indexOf('xp');
  if (idColumn < 0 || xpColumn < 0) {
    return { ok: false, problem: 'The CSV header must name the columns user_id and xp.' };
  }
  const nameColumn = header.indexOf('username');
  const rows: PreviewRow[] = [];
  let total = 0;
  lines.slice(1).forEach((line, index) => {
    if (line.trim() === '') return;
    total += 1;
    if (rows.length >= IMPORT_PREVIEW_ROWS) return;
    const cells = csvCells(line);
    const userId = cells[idColumn] ?? '';
    const xp = cells[xpColumn] ?? '';
    rows.push({
      row: index + 2,
      userId,
      xp,
      username: nameColumn >= 0 ? (cells[nameColumn] ?? null) || null : null,
      problem: rowProblem(userId, xp),
    });
  });
  return { ok: true, kind: 'csv', type: 'text/csv', rows, total };
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
  const rows = players.slice(0, IMPORT_PREVIEW_ROWS).map((player: unknown, index) => {
    const entry = (typeof player === 'object' && player !== null ? player : {}) as Record<string, unknown>;
    const userId = entry.id === undefined ? '' : String(entry.id);
    const xp = entry.xp === undefined ? '' : String(entry.xp);
    return {
      row: index + 1,
      userId,
      xp,
      username: typeof entry.username === 'string' ? entry.username : null,
      problem: rowProblem(userId, xp),
    };
  });
  return { ok: true, kind: 'json', type: 'application/json', rows, total: players.length };
}

/** The preview of a picked file, by its name and content (JSON when it looks like JSON). */
export function previewImport(fileName: string, text: string): ImportPreview {
  const trimmed = text.trimStart();
  if (/\.json$/i.test(fileName) || trimmed.startsWith('{')) return previewJson(text);
  return previewCsv(text);
}
