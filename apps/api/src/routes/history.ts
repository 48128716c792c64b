import { routes } from '@spacecadet/contract';
import { listHistory } from '@spacecadet/db/queries/history';
import type { FastifyInstance } from 'fastify';
import { undoEntry } from '../history/undo.ts';
import { toHistoryEntry } from '../history/wire.ts';
import { defineRoute } from './define.ts';

/** The server's history and its undo. */
export function registerHistoryRoutes(app: FastifyInstance): void {
  const { reads } = app.services;

  // The read replica's, once it has the guild's last write: an undo shows in the list at once.
  defineRoute(app, routes.listHistory, async ({ params, query }) => {
    const rows = await reads.read({ guildId: params.guildId }, (db) =>
      listHistory(db, params.guildId, { limit: query.limit + 1, before: query.before, area: query.area }),
    );
    const page = rows.slice(0, query.limit);
    return {
      entries: page.map(toHistoryEntry),
      next_before: rows.length > query.limit ? (page.at(-1)?.id ?? null) : null,
    };
  });

  defineRoute(app, routes.undoHistory, async ({ params, body, history, requester, request, reply }) => {
    const { guildId, entryId } = params;
    const context = { app, guildId, requester, request };
    const { jobId, row } = await undoEntry(context, entryId, body.confirm, history);
    if (jobId) {
      reply.code(202);
      return { job_id: jobId, entry: toHistoryEntry(row) };
    }
    return { entry: toHistoryEntry(row) };
  });
}
