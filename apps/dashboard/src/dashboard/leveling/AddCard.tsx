import type { ReactNode } from 'react';

/** The "Add a …" card of the leveling screens: a form grid of fields and one add button. */
export function AddCard({
  titleId,
  title,
  button,
  busy,
  onAdd,
  children,
}: {
  titleId: string;
  title: ReactNode;
  button: string;
  busy: boolean;
  onAdd: () => void;
  children: ReactNode;
}) {
  return (
    <section className="card form-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <div className="form-grid">{children}</div>
      <button type="button" className="btn btn-primary" disabled={busy} onClick={onAdd}>
        {button}
      </button>
    </section>
  );
}
