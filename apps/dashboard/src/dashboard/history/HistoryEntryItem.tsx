import {
  HISTORY_AREA_LABELS,
  type HistoryChange,
  type HistoryEntry,
  type HistoryRefs,
} from '@spacecadet/contract';
import { useState } from 'react';
import { avatarUrl } from '../../lib/cdn.ts';
import { Avatar } from '../../ui/Avatar.tsx';
import { exactTime, fieldLabel, namedParts, namedText, relativeTime } from './history-model.ts';

const NOT_SET = 'not set';
/** Longer values (a whole raw config as one value) show their start, with Show all. */
export const VALUE_PREVIEW_CHARS = 240;
const count = new Intl.NumberFormat('en-US');

/** Text whose ids show the names the entry kept (the id on hover). */
function NamedText({ text, refs }: { text: string; refs: HistoryRefs }) {
  return namedParts(text, refs).map((part, index) =>
    'text' in part ? (
      part.text
    ) : (
      <span key={index} className="history-ref" title={part.id}>
        {part.name}
      </span>
    ),
  );
}

/** One side of a change: "not set", the value, or the start of a long one with Show all. */
function ChangeValue({
  value,
  side,
  refs,
}: {
  value: string | null;
  side: 'before' | 'after';
  refs: HistoryRefs;
}) {
  const [whole, setWhole] = useState(false);
  if (value === null) return <span className="history-value is-unset">{NOT_SET}</span>;
  const long = value.length > VALUE_PREVIEW_CHARS;
  return (
    <span className="history-value-wrap">
      <span className={`history-value is-${side}`}>
        <NamedText text={long && !whole ? `${value.slice(0, VALUE_PREVIEW_CHARS)}…` : value} refs={refs} />
      </span>
      {long ? (
        <button
          type="button"
          className="btn btn-ghost btn-sm history-value-toggle"
          onClick={() => setWhole(!whole)}
        >
          {whole ? 'Show less' : `Show all ${count.format(value.length)} characters`}
        </button>
      ) : null}
    </span>
  );
}

/** One field of a settings change: its name, the value before, an arrow, the value after. */
function ChangeRow({ change, refs }: { change: HistoryChange; refs: HistoryRefs }) {
  return (
    <div className="history-change">
      <dt>{fieldLabel(change.field)}</dt>
      <dd>
        <ChangeValue value={change.before} side="before" refs={refs} />
        <span className="history-arrow" aria-hidden="true">
          →
        </span>
        <span className="sr-only">changed to</span>
        <ChangeValue value={change.after} side="after" refs={refs} />
      </dd>
    </div>
  );
}

/** The id of an entry's row, so an undo and the change it undid can point at each other. */
export const entryAnchor = (id: number) => `history-entry-${id}`;

/**
 * "Undone by grace, 5 minutes ago" under an undone change, "Undoes the change by ada, yesterday"
 * under an undo: a link to the other entry when it is on the page (it may be on an older page,
 * or filtered out).
 */
function UndoLink({
  entry,
  related,
  now,
}: {
  entry: HistoryEntry;
  related: HistoryEntry | undefined;
  now: number;
}) {
  const otherId = entry.undone_by ?? entry.undo_of;
  if (otherId === null) return null;
  const text =
    entry.undone_by !== null
      ? related
        ? `Undone by ${related.actor_name}, ${relativeTime(related.at, now)}`
        : 'Undone by a later change'
      : related
        ? `Undoes the change by ${related.actor_name}, ${relativeTime(related.at, now)}`
        : 'Undoes an earlier change';
  return (
    <p className="history-link small">
      {related ? <a href={`#${entryAnchor(otherId)}`}>{text}</a> : <span className="muted">{text}</span>}
    </p>
  );
}

/** One change in the timeline: who, when, where, what, the diff, and its Undo. */
export function HistoryEntryItem({
  entry,
  related,
  now,
  undoBusy,
  onUndo,
}: {
  entry: HistoryEntry;
  /** The entry this one undid, or the one that undid it, when it is listed too. */
  related: HistoryEntry | undefined;
  now: number;
  undoBusy: boolean;
  onUndo: (entry: HistoryEntry) => void;
}) {
  const avatar = avatarUrl({ id: entry.actor_id, avatar: entry.actor_avatar });
  return (
    <li
      id={entryAnchor(entry.id)}
      className={entry.undone_by === null ? 'history-entry' : 'history-entry is-undone'}
    >
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
          <NamedText text={entry.summary} refs={entry.refs} />
          {entry.undone_by !== null ? <span className="badge badge-soon history-undone">Undone</span> : null}
        </p>
        <UndoLink entry={entry} related={related} now={now} />
        {entry.changes.length > 0 ? (
          <dl className="history-diff" aria-label="Changes">
            {entry.changes.map((change) => (
              <ChangeRow key={change.field} change={change} refs={entry.refs} />
            ))}
          </dl>
        ) : null}
      </div>
      {entry.undoable ? (
        <button
          type="button"
          className="btn btn-secondary btn-sm history-undo"
          disabled={undoBusy}
          aria-label={`Undo: ${namedText(entry.summary, entry.refs)}`}
          onClick={() => onUndo(entry)}
        >
          Undo
        </button>
      ) : null}
    </li>
  );
}
