import type { HistoryAction, HistoryArea, HistoryRefs } from '@spacecadet/contract';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

export type HistoryUndoKind = 'state' | 'snapshot';

/**
 * Every change made through the API or an admin's Discord command, per guild (`HISTORY_ACTIONS`
 * in the contract). The API writes a row when a recorded route starts (`recorded_at` null: hidden, its id goes into the
 * jobs the request queues) and completes it when the route succeeded (or deletes it when it
 * failed).
 * - `subject`: what the change touched (see the contract's `subjectsOverlap`).
 * - `before` / `after`: a settings change's state either side (`undo_kind` `state`).
 * - `snapshot`: what a destructive action removed (`undo_kind` `snapshot`), written by the API
 *   or by the job that removed it (`snapshot_ready` once whole); dropped after
 *   `HISTORY_SNAPSHOT_DAYS`, the row after `HISTORY_KEEP_DAYS`.
 * - `refs`: the members, roles and channels the summary and states name by id, with their names
 *   when the change was made (null: an entry recorded before names were kept).
 * - `undone_by`: the undo's entry. `restore_requested_at` / `restored_at`: an undo a worker job
 *   finishes (recreating roles), asked for and done.
 */
export const guildHistory = pgTable(
  'guild_history',
  {
    id: serial('id').primaryKey(),
    guildId: text('guild_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }),
    actorId: text('actor_id').notNull(),
    actorName: text('actor_name').notNull().default(''),
    actorAvatar: text('actor_avatar'),
    area: text('area').$type<HistoryArea>().notNull(),
    action: text('action').$type<HistoryAction>().notNull(),
    subject: text('subject').notNull(),
    summary: text('summary').notNull().default(''),
    undoKind: text('undo_kind').$type<HistoryUndoKind>(),
    before: jsonb('before'),
    after: jsonb('after'),
    refs: jsonb('refs').$type<HistoryRefs>(),
    snapshot: jsonb('snapshot').$type<Record<string, unknown>>(),
    snapshotReady: timestamp('snapshot_ready_at', { withTimezone: true }),
    jobId: text('job_id'),
    undoOf: integer('undo_of'),
    undoneBy: integer('undone_by'),
    restoreRequestedAt: timestamp('restore_requested_at', { withTimezone: true }),
    restoredAt: timestamp('restored_at', { withTimezone: true }),
  },
  (t) => [
    index('guild_history_guild_idx').on(t.guildId, t.id),
    index('guild_history_subject_idx').on(t.guildId, t.subject),
    index('guild_history_at_idx').on(t.at),
    index('guild_history_restore_idx')
      .on(t.guildId)
      .where(sql`${t.restoreRequestedAt} IS NOT NULL AND ${t.restoredAt} IS NULL`),
  ],
);

export type HistoryRow = typeof guildHistory.$inferSelect;
