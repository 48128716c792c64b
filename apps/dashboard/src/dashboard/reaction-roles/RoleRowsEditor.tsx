import type { GuildRole } from '@spacecadet/contract';
import type { ReactNode } from 'react';
import { RolePicker } from '../shared/GuildPickers.tsx';
import { LimitedButton } from '../shared/LimitedButton.tsx';
import {
  MAX_ROWS,
  ROW_LIMIT_NOTE,
  type RoleListName,
  type RoleRow,
  type RowField,
} from './reaction-roles-form.ts';

const FIELDS: ReadonlyArray<{ key: keyof RoleRow; label: string; placeholder: string }> = [
  { key: 'emoji', label: 'Emoji', placeholder: '🔴' },
  { key: 'role_id', label: 'Role', placeholder: '' },
  { key: 'label', label: 'Label', placeholder: 'Optional' },
  { key: 'description', label: 'Description', placeholder: 'Optional' },
];

export const MANAGED_ROLE_NOTE = 'Managed by an integration: no one can be given this role.';

/**
 * One list's card: its head, the Panel Channel (`channel`), the rows (emoji, role picker, label,
 * description), Add row (disabled at the limit) and the panel preview (`preview`).
 */
export function RoleRowsEditor({
  guildId,
  name,
  title,
  rows,
  invalidFields,
  emojiProblems,
  roles,
  onChange,
  onAdd,
  channel,
  preview,
}: {
  /** The server whose roles the Role picker lists (a typed role id works too). */
  guildId: string;
  name: RoleListName;
  title: string;
  rows: RoleRow[];
  /** Fields a problem names after Save, as `row:field` (row 1-based): marked invalid. */
  invalidFields: ReadonlySet<string>;
  /** Live emoji problems by 1-based row (not one emoji, or one a row above uses). */
  emojiProblems: ReadonlyMap<number, string>;
  /** The server's roles by id (a managed one is marked). */
  roles: ReadonlyMap<string, GuildRole>;
  onChange: (rows: RoleRow[]) => void;
  onAdd: () => void;
  channel?: ReactNode;
  preview?: ReactNode;
}) {
  const setField = (index: number, key: keyof RoleRow, value: string) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, [key]: value } : row)));
  const full = rows.length >= MAX_ROWS;
  return (
    <section className="card role-list" aria-labelledby={`${name}-title`}>
      <div className="role-list-head">
        <h2 id={`${name}-title`}>{title}</h2>
        <span className="muted small">
          {rows.length} {rows.length === 1 ? 'row' : 'rows'}
        </span>
      </div>
      {channel}
      {rows.length === 0 ? <p className="muted">No rows yet.</p> : null}
      <ol className="role-rows">
        {rows.map((row, index) => (
          <RoleRowItem
            key={index}
            guildId={guildId}
            name={name}
            title={title}
            row={row}
            index={index}
            invalidFields={invalidFields}
            emojiProblem={emojiProblems.get(index + 1)}
            roles={roles}
            onSetField={(key, value) => setField(index, key, value)}
            onRemove={() => onChange(rows.filter((_, i) => i !== index))}
          />
        ))}
      </ol>
      <div className="button-row">
        <LimitedButton
          className="btn btn-secondary btn-sm"
          onClick={onAdd}
          full={full}
          reason={ROW_LIMIT_NOTE}
        >
          Add row
        </LimitedButton>
      </div>
      {preview}
    </section>
  );
}

/** One row: its emoji, role picker, label and description, Remove, and what is wrong with it. */
function RoleRowItem({
  guildId,
  name,
  title,
  row,
  index,
  invalidFields,
  emojiProblem,
  roles,
  onSetField,
  onRemove,
}: {
  guildId: string;
  name: RoleListName;
  title: string;
  row: RoleRow;
  index: number;
  invalidFields: ReadonlySet<string>;
  emojiProblem: string | undefined;
  roles: ReadonlyMap<string, GuildRole>;
  onSetField: (key: keyof RoleRow, value: string) => void;
  onRemove: () => void;
}) {
  const number = index + 1;
  const invalid = (field: RowField) => invalidFields.has(`${number}:${field}`);
  const managed = roles.get(row.role_id.trim())?.managed === true;
  return (
    <li className="role-row">
      <span className="role-row-number" aria-hidden="true">
        {number}
      </span>
      {FIELDS.map((field) => {
        const id = `${name}-${index}-${field.key}`;
        if (field.key === 'role_id') {
          return (
            <RolePicker
              key={field.key}
              id={id}
              className={`role-field-${field.key}`}
              labelClassName="small"
              label={
                <>
                  {field.label}
                  <span className="sr-only"> (row {number})</span>
                </>
              }
              guildId={guildId}
              value={row.role_id}
              assignable
              invalid={invalid('role_id') || managed}
              onChange={(value) => onSetField(field.key, value)}
            />
          );
        }
        const problem = field.key === 'emoji' ? emojiProblem : undefined;
        const problemId = `${id}-problem`;
        return (
          <div key={field.key} className={`field role-field-${field.key}`}>
            <label htmlFor={id} className="small">
              {field.label}
              <span className="sr-only"> (row {number})</span>
            </label>
            <input
              id={id}
              className="input"
              value={row[field.key]}
              placeholder={field.placeholder}
              aria-invalid={invalid(field.key) || problem !== undefined || undefined}
              aria-describedby={problem ? problemId : undefined}
              onChange={(event) => onSetField(field.key, event.target.value)}
            />
          </div>
        );
      })}
      <button
        type="button"
        className="btn btn-ghost btn-sm role-row-remove"
        aria-label={`Remove ${title} row ${number}`}
        onClick={onRemove}
      >
        Remove
      </button>
      {emojiProblem ? (
        <p id={`${name}-${index}-emoji-problem`} className="role-row-problem" role="alert">
          {emojiProblem}
        </p>
      ) : null}
      {managed ? <p className="role-row-problem">{MANAGED_ROLE_NOTE}</p> : null}
    </li>
  );
}
