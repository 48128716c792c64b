import type { HistoryEntry } from '@spacecadet/contract';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../lib/api.ts';
import { errorText, isApiError } from '../../lib/api-error.ts';
import { ErrorAlert } from '../../ui/Field.tsx';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { namedText, UNDO_FAILURE } from './history-model.ts';

export const UNDO_ANYWAY = 'Undo anyway';

/**
 * Undo's confirmation. The API refuses with 409 `changed_since` when a newer change touched the
 * same thing: its sentence is shown with "Undo anyway", which sends the undo again confirmed.
 * Done (200) or queued (202, with the job that brings Discord back in line) closes it.
 */
export function UndoDialog({
  guildId,
  entry,
  onClose,
  onDone,
}: {
  guildId: string;
  entry: HistoryEntry;
  onClose: () => void;
  onDone: (jobId: string | null) => void;
}) {
  const undo = useMutation({
    mutationFn: (confirm: boolean) =>
      apiCall('undoHistory', { params: { guildId, entryId: entry.id }, body: { confirm } }),
    onSuccess: (answer) => onDone('job_id' in answer ? answer.job_id : null),
  });
  const changedSince = undo.isError && isApiError(undo.error) && undo.error.code === 'changed_since';
  return (
    <ConfirmDialog
      title="Undo this change?"
      confirmLabel={undo.isPending ? 'Undoing…' : changedSince ? UNDO_ANYWAY : 'Undo'}
      busy={undo.isPending}
      onCancel={onClose}
      // Once the API said something changed since, the button sends the undo confirmed.
      onConfirm={() => undo.mutate(changedSince)}
    >
      <p className="history-summary">{namedText(entry.summary, entry.refs)}</p>
      <p className="muted small">
        {entry.changes.length > 0
          ? 'The values before this change come back.'
          : 'What this change removed comes back as it was.'}{' '}
        The undo is listed in History too.
      </p>
      {changedSince ? (
        <p className="alert alert-warning" role="alert">
          {errorText(undo.error)}
        </p>
      ) : undo.isError ? (
        <ErrorAlert>{errorText(undo.error, UNDO_FAILURE)}</ErrorAlert>
      ) : null}
    </ConfirmDialog>
  );
}
