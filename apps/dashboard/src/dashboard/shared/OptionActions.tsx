/**
 * An option's Move up, Move down and Remove buttons (named with its number): a role menu's options
 * and a personality question's.
 */
export function OptionActions({
  number,
  last,
  onMove,
  onRemove,
}: {
  number: number;
  /** The last option's number (it does not move down). */
  last: number;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  return (
    <div className="menu-option-actions">
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        aria-label={`Move option ${number} up`}
        disabled={number === 1}
        onClick={() => onMove(-1)}
      >
        ↑
      </button>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        aria-label={`Move option ${number} down`}
        disabled={number === last}
        onClick={() => onMove(1)}
      >
        ↓
      </button>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        aria-label={`Remove option ${number}`}
        onClick={onRemove}
      >
        Remove
      </button>
    </div>
  );
}
