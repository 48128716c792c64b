import type { ReactNode } from 'react';

/** The "Add a …" card of the leveling screens: a form grid of fields and one add button. */
export function AddCard({
  titleId,
  title,
  button,
  busy,
  onAdd,
  disabled = false,
  hint,
  children,
}: {
  titleId: string;
  title: ReactNode;
  button: string;
  busy: boolean;
  onAdd: () => void;
  /** Add cannot work now (a cap reached, a clash the form can see); `hint` says why. */
  disabled?: boolean;
  hint?: ReactNode;
  children: ReactNode;
}) {
  const hintId = `${titleId}-hint`;
  return (
    <section className="card form-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <div className="form-grid">{children}</div>
      {hint ? (
        <p id={hintId} className="alert alert-warning small" role="status">
          {hint}
        </p>
      ) : null}
      <button
        type="button"
        className="btn btn-primary"
        disabled={busy || disabled}
        onClick={onAdd}
        {...(hint ? { 'aria-describedby': hintId } : {})}
      >
        {button}
      </button>
    </section>
  );
}
