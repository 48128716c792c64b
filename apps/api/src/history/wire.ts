import type { HistoryEntry } from '@spacecadet/contract';
import { historyChanges, isUndoable } from '@spacecadet/core';
import type { HistoryRow } from '@spacecadet/db/schema';

/** Whether the entry can be undone now (core's `isUndoable` on the stored row). */
export function rowUndoable(row: HistoryRow): boolean {
  return isUndoable({
    undoKind: row.undoKind,
    undoneBy: row.undoneBy,
    snapshotReady: row.snapshot !== null && row.snapshotReady !== null,
  });
}

/** A stored entry as the API answers it: the diff of a settings change, whether it can be undone. */
export function toHistoryEntry(row: HistoryRow): HistoryEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor_id: row.actorId,
    actor_name: row.actorName,
    actor_avatar: row.actorAvatar,
    area: row.area,
    action: row.action,
    summary: row.summary,
    changes: row.undoKind === 'state' ? historyChanges(row.before, row.after) : [],
    refs: row.refs ?? {},
    undoable: rowUndoable(row),
    undone_by: row.undoneBy,
    undo_of: row.undoOf,
    job_id: row.jobId,
  };
}
