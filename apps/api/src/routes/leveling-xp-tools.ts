import {
  Mee6LeaderboardBody,
  readMee6Players,
  readXpCsv,
  routes,
  XP_EXPORT_COLUMNS,
  XP_IMPORT_BODY_LIMIT,
  XP_IMPORT_MAX_ROWS,
  XP_IMPORT_SKIPPED_LISTED,
  XpImportHeaderError,
  type XpImportRead,
  type XpImportSkip,
} from '@spacecadet/contract';
import { levelForTotalXp } from '@spacecadet/core';
import {
  changeMemberXp,
  hasMemberXp,
  type ImportedXp,
  importMemberXp,
  loadRankedXp,
} from '@spacecadet/db/queries/xp-tools';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, notFound } from '../errors.ts';
import { LOOKUPS_WITHOUT_LIST_MAX, membersAmong } from '../services/guild-members.ts';
import { followUpGuildJob, type JobRequester } from '../services/jobs.ts';
import { defineRoute } from './define.ts';

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

/** Reward roles follow the new XP: the job adds and removes them (a courtesy if the queue is down). */
export function queueApplyRewards(
  app: FastifyInstance,
  guildId: string,
  requester: JobRequester,
  request: FastifyRequest,
): Promise<string | null> {
  return followUpGuildJob(
    app.services.queue,
    request.log,
    'leveling.apply-rewards',
    guildId,
    requester,
    'the next XP tool or Sync Roles applies the rewards',
  );
}

/** The admins' XP tools: set or reset one member's XP, import a file of XP, export it all. */
export function registerLevelingXpToolRoutes(app: FastifyInstance): void {
  const { db } = app.services;

  const applyRewards = (guildId: string, requester: JobRequester, request: FastifyRequest) =>
    queueApplyRewards(app, guildId, requester, request);

  /**
   * The file's rows of the server's members, named as the server names them (a file's names
   * are often another bot's lowercase usernames); rows of non-members and bots (the file's
   * leavers, this bot itself) are skipped with the reason, in file order among the others.
   */
  const keepServerMembers = async (
    guildId: string,
    read: XpImportRead,
    idField: string,
  ): Promise<{ rows: ImportedXp[]; skipped: XpImportSkip[] }> => {
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
  };

  defineRoute(app, routes.setMemberXp, async ({ params, body, requester, request, history }) => {
    const { guildId, userId } = params;
    const member = (await membersAmong(app.services.discord, guildId, [userId]))?.get(userId);
    if (!member || member.bot) {
      const message = member ? botMemberMessage(userId) : notAMemberMessage(userId);
      throw new ApiError('invalid_input', message, [{ path: 'userId', message }]);
    }
    const changed = await changeMemberXp(db, guildId, userId, { set: body.xp });
    history.state(
      `leveling:xp:${userId}`,
      { xp: changed.previousXp },
      { xp: changed.xp },
      `Set the XP of <@${userId}>: ${changed.previousXp} → ${changed.xp}`,
    );
    await applyRewards(guildId, requester, request);
    return { user_id: userId, xp: changed.xp, level: changed.level };
  });

  // A member who left can be reset too (their row stays until pruned): no membership check.
  defineRoute(app, routes.resetMemberXp, async ({ params, requester, request, history }) => {
    const { guildId, userId } = params;
    if (!(await hasMemberXp(db, guildId, userId))) throw notFound(NO_MEMBER_XP_MESSAGE);
    const changed = await changeMemberXp(db, guildId, userId, { set: 0 });
    history.state(
      `leveling:xp:${userId}`,
      { xp: changed.previousXp },
      { xp: 0 },
      `Reset the XP of <@${userId}> (${changed.previousXp} XP)`,
    );
    await applyRewards(guildId, requester, request);
  });

  defineRoute(
    app,
    routes.importXp,
    async ({ params, query, body, requester, request, history }) => {
      const read = readImport(request, body);
      const { rows, skipped } = await keepServerMembers(
        params.guildId,
        read,
        isCsv(request) ? 'user_id' : 'id',
      );
      // `previous`: what the import overwrote, read under its locks, kept for its undo.
      const { imported, previous } = await importMemberXp(db, params.guildId, rows, query.mode);
      // The XP is written: a queue that is down must not turn that into an error (a retry of
      // mode=add would add it twice). The marks stay; the next XP tool or Sync Roles applies them.
      const jobId = imported === 0 ? null : await applyRewards(params.guildId, requester, request);
      history.snapshot(
        'leveling:xp',
        { ...previous },
        `Imported the XP of ${imported} member${imported === 1 ? '' : 's'} (${query.mode})`,
      );
      return {
        imported,
        skipped: skipped.length,
        skipped_rows: skipped.slice(0, XP_IMPORT_SKIPPED_LISTED),
        job_id: jobId,
      };
    },
    { bodyLimit: XP_IMPORT_BODY_LIMIT },
  );

  /**
   * The server's names of ranked members with no stored name (ranked by an XP tool or an
   * import, never seen chatting). Best effort: the export does not fail for want of a name.
   */
  const serverNamesOf = async (
    guildId: string,
    userIds: readonly string[],
    request: FastifyRequest,
  ): Promise<Map<string, string>> => {
    if (userIds.length === 0) return new Map();
    try {
      const members = await membersAmong(app.services.discord, guildId, userIds);
      return new Map([...(members ?? [])].map(([id, member]) => [id, member.name]));
    } catch (error) {
      request.log.warn({ err: error, guildId }, "export: could not read members' names from Discord");
      return new Map();
    }
  };

  defineRoute(app, routes.exportXp, async ({ params, reply, request }) => {
    const rows = await loadRankedXp(db, params.guildId);
    const unnamed = rows.flatMap((row) => (row.username === null ? [row.userId] : []));
    const serverNames = await serverNamesOf(params.guildId, unnamed, request);
    const lines = [XP_EXPORT_COLUMNS.join(',')];
    rows.forEach((row, index) => {
      const username = row.username ?? serverNames.get(row.userId) ?? null;
      const name = username === null ? '' : csvField(spreadsheetSafe(username));
      lines.push(`${row.userId},${name},${row.xp},${levelForTotalXp(row.xp)},${index + 1}`);
    });
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="leveling-${params.guildId}.csv"`)
      .header('cache-control', 'private, no-store')
      .send(Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8'));
    return '';
  });
}
