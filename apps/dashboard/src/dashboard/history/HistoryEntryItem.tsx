import { HISTORY_AREA_LABELS, type HistoryChange, type HistoryEntry } from '@spacecadet/contract';
import { avatarUrl } from '../../lib/cdn.ts';
import { Avatar } from '../../ui/Avatar.tsx';
import { exactTime, fieldLabel, relativeTime } from './history-model.ts';

const NOT_SET = 'not set';

/** One field of a settings change: its name, the value before, an arrow, the value after. */
function ChangeRow({ change }: { change: HistoryChange }) {
  return (
    <div className="history-change">
      <dt>{fieldLabel(change.field)}</dt>
      <dd>
        <span className={change.before === null ? 'history-value is-unset' : 'history-value is-before'}>
          {change.before ?? NOT_SET}
        </span>
        <span className="history-arrow" aria-hidden="true">
          →
        </span>
        <span className="sr-only">changed to</span>
        <span className={change.after === null ? 'history-value is-unset' : 'history-value is-after'}>
          {change.after ?? NOT_SET}
        </span>
      </dd>
    </div>
  );
}

/** One change in the timeline: who, when, where, what, the diff, and its Undo. */
export function HistoryEntryItem({
  entry,
  now,
  undoBusy,
  onUndo,
}: {
  entry: HistoryEntry;
  now: number;
  undoBusy: boolean;
  onUndo: (entry: HistoryEntry) => void;
}) {
  const avatar = avatarUrl({ id: entry.actor_id, avatar: entry.actor_avatar });
  return (
    <li className={entry.undone_by === null ? 'history-entry' : 'history-entry is-undone'}>
      <Avatar src={avatar} name={entry.actor_name} size={36} className="history-avatar" />
      <div className="history-main">
        <div className="history-meta">
          <strong className="history-actor">{entry.actor_name}</strong>
          <span className="history-area">{HISTORY_AREA_LABELS[entry.area]}</span>
          <time className="muted small" dateTime={entry.at} title={exactTime(entry.at)}>
            {relativeTime(entry.at, now)}
          </time>
        </div>
        <p className="history-summary">
          {entry.summary}
          {entry.undone_by !== null ? <span className="badge badge-soon history-undone">Undone</span> : null}
        </p>
        {entry.changes.length > 0 ? (
          <dl className="history-diff" aria-label="Changes">
            {entry.changes.map((change) => (
              <ChangeRow key={change.field} change={change} />
            ))}
          </dl>
        ) : null}
      </div>
      {entry.undoable ? (
        <button
          type="button"
          className="btn btn-secondary btn-sm history-undo"
          disabled={undoBusy}
          aria-label={`Undo: ${entry.summary}`}
          onClick={() => onUndo(entry)}
        >
          Undo
        </button>
      ) : null}
    </li>
  );
}
