import type { ReactNode } from 'react';

/**
 * The red banner of every dashboard page: a failed load (no onDismiss: nothing else to show)
 * or a failed action the admin can Dismiss. Renders nothing without a message.
 */
export function ErrorBox({ children, onDismiss }: { children: ReactNode; onDismiss?: () => void }) {
  if (children === null || children === undefined || children === false || children === '') return null;
  return (
    <div className={onDismiss ? 'alert alert-error dismissible' : 'alert alert-error'} role="alert">
      <span>{children}</span>
      {onDismiss ? (
        <button type="button" className="link-button" onClick={onDismiss}>
          Dismiss
        </button>
      ) : null}
    </div>
  );
}
