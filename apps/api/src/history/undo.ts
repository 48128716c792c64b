import { HISTORY_SNAPSHOT_DAYS, parseStateSubject } from '@spacecadet/contract';
import {
  claimUndo,
  loadHistoryEntry,
  markRestored,
  newerChangeOn,
  releaseUndo,
} from '@spacecadet/db/queries/history';
import type { HistoryRow } from '@spacecadet/db/schema';
import { ApiError, notFound } from '../errors.ts';
import { SNAPSHOT_RESTORERS, STATE_RESTORERS } from './index.ts';
import type { HistoryNote } from './recorder.ts';
import type { UndoContext, UndoOutcome } from './restorers.ts';
import { rowUndoable } from './wire.ts';

/**
 * Undoing one history entry (the undo route): whether it can be undone now, and the restorer
 * that puts it back, with the sentences a refused undo answers.
 */

export const HISTORY_ENTRY_NOT_FOUND = 'No such history entry';
export const ALREADY_UNDONE_MESSAGE = 'This change was already undone.';
export const SNAPSHOT_EXPIRED_MESSAGE = `What this change removed is kept ${HISTORY_SNAPSHOT_DAYS} days; this one is older, so it cannot be undone.`;
export const SNAPSHOT_PENDING_MESSAGE =
  'The job of this change has not finished saving what it removed. Undo it once the job is done.';
export const notUndoableMessage = (summary: string) =>
  `"${summary}" cannot be undone: do it again, or change it back, instead.`;
export const changedSinceMessage = (newer: HistoryRow) =>
  `This changed since: "${newer.summary}" by ${newer.actorName || newer.actorId} at ${newer.at.toISOString()}. Undo anyway to overwrite that change.`;

/** "Undid: <summary>", and what the admin is to run when the follow-up job was not queued. */
function undoSummary(entry: HistoryRow, outcome: UndoOutcome): string {
  const undid = `Undid: ${entry.summary}`;
  return outcome.catchUp ? `${undid}. ${outcome.catchUp}` : undid;
}

/** Why an entry cannot be undone now (a 409), or null when it can. */
function refusal(row: HistoryRow): ApiError | null {
  if (rowUndoable(row)) return null;
  if (row.undoneBy !== null) return new ApiError('conflict', ALREADY_UNDONE_MESSAGE);
  if (row.undoKind === 'snapshot') {
    return new ApiError(
      'conflict',
      row.snapshot === null && row.snapshotReady === null && row.jobId !== null && isRecent(row)
        ? SNAPSHOT_PENDING_MESSAGE
        : SNAPSHOT_EXPIRED_MESSAGE,
    );
  }
  return new ApiError('conflict', notUndoableMessage(row.summary));
}

function isRecent(row: HistoryRow): boolean {
  return Date.now() - row.at.getTime() < HISTORY_SNAPSHOT_DAYS * 24 * 3600 * 1000;
}

/**
 * Undoes entry `entryId` of the context's guild through its restorer, recorded in `history` (the
 * undo's own entry, completed here): 404 unknown, 409 when it cannot be undone or something
 * changed since (unless `confirm`). Answers the undo's entry and the job that follows, if any.
 */
export async function undoEntry(
  context: UndoContext,
  entryId: number,
  confirm: boolean,
  history: HistoryNote,
): Promise<{ jobId: string | null | undefined; row: HistoryRow }> {
  const { guildId } = context;
  const { db } = context.app.services;
  const entry = await loadHistoryEntry(db, guildId, entryId);
  if (!entry) throw notFound(HISTORY_ENTRY_NOT_FOUND);
  const refused = refusal(entry);
  if (refused) throw refused;
  if (!confirm) {
    const newer = await newerChangeOn(db, guildId, entry.subject, entry.id);
    if (newer) throw new ApiError('changed_since', changedSinceMessage(newer));
  }
  const state = entry.undoKind === 'state' ? parseStateSubject(entry.subject) : null;
  const stateRestorer = state ? STATE_RESTORERS[state.kind] : undefined;
  const snapshotRestorer = entry.undoKind === 'snapshot' ? SNAPSHOT_RESTORERS[entry.action] : undefined;
  if (!stateRestorer && !snapshotRestorer) throw new ApiError('conflict', notUndoableMessage(entry.summary));

  if (
    !(await claimUndo(db, guildId, entry.id, history.entryId, {
      restore: snapshotRestorer?.byJob === true,
    }))
  ) {
    throw new ApiError('conflict', ALREADY_UNDONE_MESSAGE);
  }
  let outcome: UndoOutcome;
  try {
    if (stateRestorer && state) {
      const now = await stateRestorer.read(context, state.id);
      outcome = await stateRestorer.restore(context, state.id, entry.before);
      history.state(entry.subject, now, entry.before, undoSummary(entry, outcome));
    } else {
      const restorer = snapshotRestorer as NonNullable<typeof snapshotRestorer>;
      outcome = await restorer.restore(context, entry);
      // Put back already (a job-run restore marks it when its job is done).
      if (!restorer.byJob) await markRestored(db, guildId, entry.id);
      history.describe({ subject: entry.subject, summary: undoSummary(entry, outcome) });
    }
  } catch (error) {
    await releaseUndo(db, guildId, entry.id, history.entryId);
    throw error;
  }
  history.describe({ area: entry.area, undoOf: entry.id });
  const row = await history.finish(outcome.jobId ? { job_id: outcome.jobId } : undefined);
  return { jobId: outcome.jobId, row };
}
