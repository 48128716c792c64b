import { HISTORY_SNAPSHOT_DAYS, type ImpactPreview, type RouteParams } from '@spacecadet/contract';
import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { apiCall } from '../../lib/api.ts';
import '../../styles/confirm-dialog.css';
import { queryKeys } from './queries.ts';

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The dashboard's confirmation dialog: a question, what it will do, and Cancel / the action.
 * It sits over the page (a portal on body) as a modal: the focus starts on Cancel, so Enter never
 * destroys by accident; Tab stays inside; Escape and Cancel close it; closing gives the focus back
 * to the button that opened it. While `busy` (the action runs) both buttons wait.
 */
export function ConfirmDialog({
  title,
  confirmLabel,
  busy = false,
  onConfirm,
  onCancel,
  children,
}: {
  title: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  const titleId = useId();
  const bodyId = useId();
  const { dialogRef, cancelRef, keepFocusInside } = useDialogFocus(busy);
  return createPortal(
    <div className="confirm-backdrop">
      <div
        ref={dialogRef}
        className="confirm-dialog card"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        aria-busy={busy || undefined}
        tabIndex={-1}
        onKeyDown={(event) => {
          // The page under the dialog (a menu, a form) must not see its keys.
          event.stopPropagation();
          if (event.key === 'Escape') {
            event.preventDefault();
            if (!busy) onCancel();
          } else if (event.key === 'Tab') keepFocusInside(event);
        }}
      >
        <h2 id={titleId}>{title}</h2>
        <div id={bodyId} className="confirm-body">
          {children}
        </div>
        <div className="button-row confirm-buttons">
          <button
            ref={cancelRef}
            type="button"
            className="btn btn-secondary"
            disabled={busy}
            onClick={onCancel}
          >
            Cancel
          </button>
          <button type="button" className="btn btn-danger" disabled={busy} onClick={onConfirm}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>,
    document.body,
  );
}

/**
 * The dialog's focus: on Cancel when it opens, back to the opener when it closes, on the dialog
 * while `busy`, and Tab kept inside.
 */
function useDialogFocus(busy: boolean) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    cancelRef.current?.focus();
    return () => {
      // The opener may be gone (a menu closed meanwhile): then the page keeps its focus.
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  useEffect(() => {
    // A disabled button loses the focus: keep it in the dialog while the action runs.
    if (busy) dialogRef.current?.focus();
  }, [busy]);
  const keepFocusInside = (event: KeyboardEvent<HTMLDivElement>) => {
    const focusable = [...(dialogRef.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    if (
      event.shiftKey &&
      (document.activeElement === first || document.activeElement === dialogRef.current)
    ) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };
  return { dialogRef, cancelRef, keepFocusInside };
}

/** The routes that count what a destructive button will do (their answer is an ImpactPreview). */
export type PreviewRoute =
  | 'previewColorReset'
  | 'previewPersonalityReset'
  | 'previewLevelingReset'
  | 'previewPruneLeavers'
  | 'previewLevelingRoleDelete';

export interface PreviewCall {
  route: PreviewRoute;
  params: Record<string, string | number>;
}

export function previewCall<N extends PreviewRoute>(route: N, params: RouteParams<N>): PreviewCall {
  return { route, params: params as Record<string, string | number> };
}

export const COUNTING = 'Counting…';
export const COUNT_FAILED = 'The count could not be read; you can still go ahead.';
export const UNDO_NOTE = `You can undo this from History for ${HISTORY_SNAPSHOT_DAYS} days.`;

/**
 * The preview's sentence ("Delete 38 roles held by 412 members."), counted when the dialog
 * opens, and what else uses those roles ("Also used by 2 role menus and the Color Roles
 * reaction list. …") when the route says.
 */
function ImpactLine({ preview }: { preview: PreviewCall }) {
  const impact = useQuery({
    queryKey: queryKeys.impactPreview(preview.route, preview.params),
    queryFn: () => apiCall(preview.route, { params: preview.params as never }) as Promise<ImpactPreview>,
    // Counted afresh each time the dialog opens: the numbers are what the action will do now.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  if (impact.isPending) {
    return (
      <p className="confirm-impact muted" aria-busy="true">
        {COUNTING}
      </p>
    );
  }
  if (impact.isError) return <p className="confirm-impact alert alert-warning small">{COUNT_FAILED}</p>;
  const usedBy = impact.data.used_by;
  return (
    <>
      <p className="confirm-impact">{impact.data.summary}</p>
      {/* The resets name the menus, reaction lists and leveling settings that use the roles. */}
      {usedBy ? <p className="confirm-impact confirm-used-by">{usedBy.summary}</p> : null}
    </>
  );
}

/** Said under a confirmation whose change can be undone from the History page. */
export const UNDO_FROM_HISTORY = 'You can undo this from History.';

export interface ConfirmQuestion {
  title: string;
  /** What the button does, in the page's words. */
  question: string;
  confirmLabel: string;
  /** The route that counts what a destructive action removes, shown as a sentence with numbers. */
  preview?: PreviewCall;
  /** How to take it back (UNDO_NOTE, UNDO_FROM_HISTORY), or null when it cannot be. */
  undoNote: string | null;
  /** The action. A promise (a mutation's mutateAsync) keeps the dialog open and busy until it settles. */
  onConfirm: () => unknown;
}

/**
 * A button's confirmation: `ask(...)` opens it; with a `preview` it counts what the action will
 * remove through the action's preview route. Render `dialog` somewhere on the page.
 */
export function useConfirm() {
  const [asked, setAsked] = useState<ConfirmQuestion | null>(null);
  const [busy, setBusy] = useState(false);
  const close = useCallback(() => {
    setAsked(null);
    setBusy(false);
  }, []);
  const confirm = (question: ConfirmQuestion) => {
    const running = question.onConfirm();
    if (!(running instanceof Promise)) {
      close();
      return;
    }
    setBusy(true);
    // A failure is the page's to show (its mutation's error box): the dialog only closes.
    running.then(close, close);
  };
  const dialog = asked ? (
    <ConfirmDialog
      title={asked.title}
      confirmLabel={asked.confirmLabel}
      busy={busy}
      onCancel={close}
      onConfirm={() => confirm(asked)}
    >
      <p>{asked.question}</p>
      {asked.preview ? <ImpactLine preview={asked.preview} /> : null}
      {asked.undoNote ? <p className="muted small">{asked.undoNote}</p> : null}
    </ConfirmDialog>
  ) : null;
  return { ask: setAsked, dialog };
}
