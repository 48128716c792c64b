import { RolePicker } from '../shared/GuildPickers.tsx';
import { blankRequiredFields, type RoleListName, type RoleRow } from './reaction-roles-form.ts';

const FIELDS: ReadonlyArray<{ key: keyof RoleRow; label: string; placeholder: string }> = [
  { key: 'emoji', label: 'Emoji', placeholder: '🔴' },
  { key: 'role_id', label: 'Role', placeholder: '' },
  { key: 'label', label: 'Label', placeholder: 'Optional' },
  { key: 'description', label: 'Description', placeholder: 'Optional' },
];

export function RoleRowsEditor({
  guildId,
  name,
  title,
  rows,
  invalidRows,
  onChange,
  onAdd,
}: {
  /** The server whose roles the Role picker lists (a typed role id works too). */
  guildId: string;
  name: RoleListName;
  title: string;
  rows: RoleRow[];
  /** 1-based rows a validation problem names: their blank required fields are marked invalid. */
  invalidRows: ReadonlySet<number>;
  onChange: (rows: RoleRow[]) => void;
  onAdd: () => void;
}) {
  const setField = (index: number, key: keyof RoleRow, value: string) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, [key]: value } : row)));
  return (
    <section className="card role-list" aria-labelledby={`${name}-title`}>
      <div className="role-list-head">
        <h2 id={`${name}-title`}>{title}</h2>
        <span className="muted small">
          {rows.length} {rows.length === 1 ? 'row' : 'rows'}
        </span>
      </div>
      {rows.length === 0 ? <p className="muted">No rows yet.</p> : null}
      <ol className="role-rows">
        {rows.map((row, index) => {
          const blank: ReadonlyArray<keyof RoleRow> = invalidRows.has(index + 1)
            ? blankRequiredFields(row)
            : [];
          return (
            <li key={index} className="role-row">
              <span className="role-row-number" aria-hidden="true">
                {index + 1}
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
                          <span className="sr-only"> (row {index + 1})</span>
                        </>
                      }
                      guildId={guildId}
                      value={row.role_id}
                      assignable
                      invalid={blank.includes(field.key)}
                      onChange={(value) => setField(index, field.key, value)}
                    />
                  );
                }
                return (
                  <div key={field.key} className={`field role-field-${field.key}`}>
                    <label htmlFor={id} className="small">
                      {field.label}
                      <span className="sr-only"> (row {index + 1})</span>
                    </label>
                    <input
                      id={id}
                      className="input"
                      value={row[field.key]}
                      placeholder={field.placeholder}
                      aria-invalid={blank.includes(field.key) || undefined}
                      onChange={(event) => setField(index, field.key, event.target.value)}
                    />
                  </div>
                );
              })}
              <button
                type="button"
                className="btn btn-ghost btn-sm role-row-remove"
                aria-label={`Remove ${title} row ${index + 1}`}
                onClick={() => onChange(rows.filter((_, i) => i !== index))}
              >
                Remove
              </button>
            </li>
          );
        })}
      </ol>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onAdd}>
        Add row
      </button>
    </section>
  );
}
