import { HISTORY_SNAPSHOT_DAYS, type ImpactPreview, type RouteParams } from '@spacecadet/contract';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import '../../styles/confirm-dialog.css';
import { queryKeys } from './queries.ts';

/**
 * The dashboard's confirmation dialog: a question, what it will do, and Cancel / the action.
 * Escape and Cancel close it; the focus starts on Cancel, so Enter never destroys by accident.
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
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelRef.current?.focus(), []);
  return (
    <div className="confirm-backdrop">
      <div
        className="confirm-dialog card"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onCancel();
        }}
      >
        <h2 id={titleId}>{title}</h2>
        <div id={bodyId} className="confirm-body">
          {children}
        </div>
        <div className="button-row confirm-buttons">
          <button ref={cancelRef} type="button" className="btn btn-secondary" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="btn btn-danger" disabled={busy} onClick={onConfirm}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
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

/** The preview's sentence ("Delete 38 roles held by 412 members."), counted when the dialog opens. */
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
  return <p className="confirm-impact">{impact.data.summary}</p>;
}

export interface ImpactQuestion {
  title: string;
  /** What the button does, in the page's words. */
  question: string;
  confirmLabel: string;
  preview: PreviewCall;
  onConfirm: () => void;
}

/**
 * A destructive button's confirmation with numbers: `ask(...)` opens it, and it counts what the
 * action will remove through the action's preview route. Render `dialog` somewhere on the page.
 */
export function useImpactConfirm() {
  const [asked, setAsked] = useState<ImpactQuestion | null>(null);
  const close = useCallback(() => setAsked(null), []);
  const dialog = asked ? (
    <ConfirmDialog
      title={asked.title}
      confirmLabel={asked.confirmLabel}
      onCancel={close}
      onConfirm={() => {
        close();
        asked.onConfirm();
      }}
    >
      <p>{asked.question}</p>
      <ImpactLine preview={asked.preview} />
      <p className="muted small">{UNDO_NOTE}</p>
    </ConfirmDialog>
  ) : null;
  return { ask: setAsked, dialog };
}
