import { type ReactNode, useId } from 'react';

/**
 * A button that is turned off at a limit (rows, options, menus) and then says why beside it,
 * the reason tied to the button for screen readers.
 */
export function LimitedButton({
  className,
  onClick,
  full,
  reason,
  children,
}: {
  className: string;
  onClick: () => void;
  full: boolean;
  reason: ReactNode;
  children: ReactNode;
}) {
  const reasonId = useId();
  return (
    <>
      <button
        type="button"
        className={className}
        onClick={onClick}
        disabled={full}
        aria-describedby={full ? reasonId : undefined}
      >
        {children}
      </button>
      {full ? (
        <span id={reasonId} className="muted small">
          {reason}
        </span>
      ) : null}
    </>
  );
}
