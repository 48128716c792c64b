import {
  Mee6LeaderboardBody,
  readMee6Players,
  readXpCsv,
  XP_IMPORT_MAX_ROWS,
  XpImportHeaderError,
  type XpImportRead,
  type XpImportSkip,
} from '@spacecadet/contract';
import {
  changeMemberXp,
  hasMemberXp,
  type ImportedXp,
  type ImportWritten,
  importMemberXp,
  type MemberXpChange,
} from '@spacecadet/db/queries/xp-tools';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, notFound } from '../../errors.ts';
import { LOOKUPS_WITHOUT_LIST_MAX, membersAmong } from '../guild-members.ts';
import type { JobRequester } from '../jobs.ts';
import { queueApplyRewards } from './jobs.ts';

/**
 * The admins' XP tools' writes: set or reset one member's XP, and import a file of XP (CSV or
 * MEE6 leaderboard JSON) for the server's members. The export is `xp-export.ts`.
 */

export const NO_MEMBER_XP_MESSAGE = 'No XP is stored for this member';
export const notAMemberMessage = (userId: string) =>
  `User ${userId} is not a member of this server: only members' XP can be set`;
export const TOO_MANY_ROWS_MESSAGE = `An import takes at most ${XP_IMPORT_MAX_ROWS.toLocaleString('en-US')} rows: split the file and import the parts with mode=add.`;
export const botMemberMessage = (userId: string) => `User ${userId} is a bot: bots earn no XP`;
export const notAMemberReason = (idField: string, userId: string) =>
  `${idField} ${userId} is not a member of this server`;
export const botReason = (idField: string, userId: string) =>
  `${idField} ${userId} is a bot: bots earn no XP`;
export const MEMBER_LIST_REFUSED_MESSAGE = `Discord does not let the bot read this server's member list, which an import of more than ${LOOKUPS_WITHOUT_LIST_MAX} rows needs to check who is a member: turn on the Server Members Intent for the bot in the Discord Developer Portal, or import the file in parts of at most ${LOOKUPS_WITHOUT_LIST_MAX} rows.`;
export const EMPTY_IMPORT_MESSAGE =
  'The body is empty: send a CSV file (text/csv) or MEE6 leaderboard JSON (application/json).';

/** Sets a member's XP; only a member of the server who is not a bot has XP (400 otherwise). */
export async function setMemberXp(
  app: FastifyInstance,
  guildId: string,
  userId: string,
  xp: number,
): Promise<MemberXpChange> {
  const member = (await membersAmong(app.services.discord, guildId, [userId]))?.get(userId);
  if (!member || member.bot) {
    const message = member ? botMemberMessage(userId) : notAMemberMessage(userId);
    throw new ApiError('invalid_input', message, [{ path: 'userId', message }]);
  }
  return changeMemberXp(app.services.db, guildId, userId, { set: xp });
}

/**
 * Resets a member's XP to 0 (404 when none is stored). A member who left can be reset too (their
 * row stays until pruned): no membership check.
 */
export async function resetMemberXp(
  app: FastifyInstance,
  guildId: string,
  userId: string,
): Promise<MemberXpChange> {
  const { db } = app.services;
  if (!(await hasMemberXp(db, guildId, userId))) throw notFound(NO_MEMBER_XP_MESSAGE);
  return changeMemberXp(db, guildId, userId, { set: 0 });
}

function isCsv(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').toLowerCase().startsWith('text/csv');
}

/** What the file holds, read by its content type; a header without both columns is a 400. */
function readImport(request: FastifyRequest, body: unknown): XpImportRead {
  if (body === undefined || body === null || (typeof body === 'string' && body.trim() === '')) {
    throw new ApiError('invalid_input', EMPTY_IMPORT_MESSAGE);
  }
  if (isCsv(request) && typeof body === 'string') {
    let read: XpImportRead;
    try {
      read = readXpCsv(body, XP_IMPORT_MAX_ROWS);
    } catch (error) {
      if (error instanceof XpImportHeaderError) throw new ApiError('invalid_input', error.message);
      throw error;
    }
    if (read.total > XP_IMPORT_MAX_ROWS) throw new ApiError('payload_too_large', TOO_MANY_ROWS_MESSAGE);
    return read;
  }
  const parsed = Mee6LeaderboardBody.safeParse(body);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? 'The JSON is not MEE6 leaderboard JSON';
    throw new ApiError('invalid_input', message);
  }
  if (parsed.data.players.length > XP_IMPORT_MAX_ROWS) {
    throw new ApiError('payload_too_large', TOO_MANY_ROWS_MESSAGE);
  }
  return readMee6Players(parsed.data.players);
}

/**
 * The file's rows of the server's members, named as the server names them (a file's names
 * are often another bot's lowercase usernames); rows of non-members and bots (the file's
 * leavers, this bot itself) are skipped with the reason, in file order among the others.
 */
async function keepServerMembers(
  app: FastifyInstance,
  guildId: string,
  read: XpImportRead,
  idField: string,
): Promise<{ rows: ImportedXp[]; skipped: XpImportSkip[] }> {
  const members = await membersAmong(
    app.services.discord,
    guildId,
    read.rows.map((row) => row.userId),
  );
  if (members === null) throw new ApiError('conflict', MEMBER_LIST_REFUSED_MESSAGE);
  const rows: ImportedXp[] = [];
  const skipped = [...read.skipped];
  for (const row of read.rows) {
    const member = members.get(row.userId);
    if (!member) skipped.push({ row: row.row, reason: notAMemberReason(idField, row.userId) });
    else if (member.bot) skipped.push({ row: row.row, reason: botReason(idField, row.userId) });
    else rows.push({ userId: row.userId, xp: row.xp, username: member.name, avatar: member.avatar });
  }
  skipped.sort((a, b) => a.row - b.row);
  return { rows, skipped };
}

/**
 * Imports a file of XP (the request's body) for the server's members, then queues Apply Rewards.
 * `previous`: what the import overwrote, read under its locks, kept for its undo.
 */
export async function importXp(
  app: FastifyInstance,
  guildId: string,
  body: unknown,
  mode: 'replace' | 'add',
  requester: JobRequester,
  request: FastifyRequest,
): Promise<ImportWritten & { skipped: XpImportSkip[]; jobId: string | null }> {
  const read = readImport(request, body);
  const { rows, skipped } = await keepServerMembers(app, guildId, read, isCsv(request) ? 'user_id' : 'id');
  const { imported, previous } = await importMemberXp(app.services.db, guildId, rows, mode);
  // The XP is written: a queue that is down must not turn that into an error (a retry of
  // mode=add would add it twice). The marks stay; the next XP tool or Sync Roles applies them.
  const jobId = imported === 0 ? null : await queueApplyRewards(app, guildId, requester, request);
  return { imported, previous, skipped, jobId };
}
