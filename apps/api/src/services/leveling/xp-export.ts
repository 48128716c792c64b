import { XP_EXPORT_COLUMNS } from '@spacecadet/contract';
import { levelForTotalXp } from '@spacecadet/core';
import { loadLevelCurve } from '@spacecadet/db/queries/leveling';
import { loadRankedXp } from '@spacecadet/db/queries/xp-tools';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { membersAmong } from '../guild-members.ts';

/** The XP export: every ranked member of the server as a CSV file a spreadsheet opens safely. */

/** A spreadsheet runs a cell starting with one of these as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** One CSV field (RFC 4180): quoted when it must be, with quotes doubled. */
function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A name an admin's spreadsheet shows as text, never runs: a formula start gets a leading '. */
export function spreadsheetSafe(name: string): string {
  return FORMULA_START.test(name) ? `'${name}` : name;
}

/**
 * The server's names of ranked members with no stored name (ranked by an XP tool or an
 * import, never seen chatting). Best effort: the export does not fail for want of a name.
 */
async function serverNamesOf(
  app: FastifyInstance,
  guildId: string,
  userIds: readonly string[],
  request: FastifyRequest,
): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  try {
    const members = await membersAmong(app.services.discord, guildId, userIds);
    return new Map([...(members ?? [])].map(([id, member]) => [id, member.name]));
  } catch (error) {
    request.log.warn({ err: error, guildId }, "export: could not read members' names from Discord");
    return new Map();
  }
}

/** The export file's text: a header line, then one line per ranked member, CRLF-ended. */
export async function xpExportCsv(
  app: FastifyInstance,
  guildId: string,
  request: FastifyRequest,
): Promise<string> {
  // Every ranked member at once: the read replica's, once it has the guild's last write.
  const [rows, curve] = await app.services.reads.read({ guildId }, (db) =>
    Promise.all([loadRankedXp(db, guildId), loadLevelCurve(db, guildId)]),
  );
  const unnamed = rows.flatMap((row) => (row.username === null ? [row.userId] : []));
  const serverNames = await serverNamesOf(app, guildId, unnamed, request);
  const lines = [XP_EXPORT_COLUMNS.join(',')];
  rows.forEach((row, index) => {
    const username = row.username ?? serverNames.get(row.userId) ?? null;
    const name = username === null ? '' : csvField(spreadsheetSafe(username));
    lines.push(`${row.userId},${name},${row.xp},${levelForTotalXp(row.xp, curve)},${index + 1}`);
  });
  return `${lines.join('\r\n')}\r\n`;
}
