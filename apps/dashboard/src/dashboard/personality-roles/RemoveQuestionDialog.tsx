import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import type { QuestionView } from './personality-model.ts';
import { deleteRolesChoice, removeQuestionText } from './question-editor-model.ts';

export interface Removal {
  view: QuestionView;
  /** Members holding its answers (null when they could not be counted). */
  holders: number | null;
  deleteRoles: boolean;
}

/** Remove a question: how many members hold its answers, and whether its created roles go too. */
export function RemoveQuestionDialog({
  removal,
  busy,
  onChange,
  onCancel,
  onConfirm,
}: {
  removal: Removal;
  busy: boolean;
  onChange: (removal: Removal) => void;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const roles = removal.view.createdRoles;
  return (
    <ConfirmDialog
      title={`Remove ${removal.view.title}?`}
      confirmLabel={removal.deleteRoles ? 'Remove question and roles' : 'Remove question'}
      busy={busy}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <p>{removeQuestionText(removal.view.title, removal.holders)}</p>
      {roles > 0 ? (
        <label className="confirm-choice">
          <input
            type="checkbox"
            checked={removal.deleteRoles}
            onChange={(event) => onChange({ ...removal, deleteRoles: event.target.checked })}
          />{' '}
          {deleteRolesChoice(roles)}
        </label>
      ) : null}
      <p className="muted small">
        {roles > 0 ? 'Unticked, its roles stay in Discord with the channels they open.' : ''} You can undo
        this from History.
      </p>
    </ConfirmDialog>
  );
}
