import { type GuildRole, ROLE_MENU_MAX_OPTIONS, type RoleMenuStyle } from '@spacecadet/contract';
import { MANAGED_ROLE_NOTE } from '../reaction-roles/RoleRowsEditor.tsx';
import { RolePicker } from '../shared/GuildPickers.tsx';
import { LimitedButton } from '../shared/LimitedButton.tsx';
import {
  emojiProblem,
  emptyOption,
  type OptionDraft,
  type OptionField,
  optionLimitNote,
  optionPath,
} from './role-menus-form.ts';

const TEXT_FIELDS: ReadonlyArray<{
  key: Exclude<OptionField, 'role_id'>;
  label: string;
  placeholder: string;
}> = [
  { key: 'label', label: 'Label', placeholder: 'What members see' },
  { key: 'emoji', label: 'Emoji', placeholder: 'Optional' },
  { key: 'description', label: 'Description', placeholder: 'Optional' },
];

/** Reactions need an emoji and may go without a label; buttons and selects the other way round. */
function placeholderOf(key: Exclude<OptionField, 'role_id'>, style: RoleMenuStyle, fallback: string): string {
  if (style !== 'reactions') return fallback;
  return key === 'emoji' ? 'Required' : key === 'label' ? 'Optional' : fallback;
}

/**
 * The menu's options: a role picker, label, emoji (one emoji, or a custom one as <:name:id>,
 * checked as it is typed) and description each, moved up and down, removed, and added up to
 * what the style holds. A field a refusal names shows its sentence under it.
 */
export function MenuOptionsEditor({
  guildId,
  style,
  options,
  problems,
  roles,
  onChange,
}: {
  guildId: string;
  style: RoleMenuStyle;
  options: readonly OptionDraft[];
  /** Refusals by path (`options`, `options.N.field`). */
  problems: ReadonlyMap<string, string>;
  roles: ReadonlyMap<string, GuildRole>;
  onChange: (options: OptionDraft[]) => void;
}) {
  const max = ROLE_MENU_MAX_OPTIONS[style];
  const full = options.length >= max;
  const listProblem = problems.get('options');
  const setField = (index: number, key: OptionField, value: string) =>
    onChange(options.map((option, i) => (i === index ? { ...option, [key]: value } : option)));
  const pickRole = (index: number, roleId: string) =>
    onChange(
      options.map((option, i) => {
        if (i !== index) return option;
        // A picked role names a blank option: its label starts as the role's name.
        const name = roles.get(roleId)?.name;
        return {
          ...option,
          role_id: roleId,
          label: option.label.trim() === '' && name ? name : option.label,
        };
      }),
    );
  const move = (index: number, by: -1 | 1) => {
    const next = [...options];
    const [moved] = next.splice(index, 1);
    if (!moved) return;
    next.splice(index + by, 0, moved);
    onChange(next);
  };

  return (
    <section className="menu-options" aria-labelledby="menu-options-title">
      <div className="role-list-head">
        <h2 id="menu-options-title">Options</h2>
        <span className="muted small">
          {options.length} of {max}
        </span>
      </div>
      {listProblem ? (
        <p className="role-row-problem" role="alert">
          {listProblem}
        </p>
      ) : null}
      {options.length === 0 ? <p className="muted">No options yet: add one for each role.</p> : null}
      <ol className="menu-option-rows">
        {options.map((option, index) => {
          const number = index + 1;
          const id = (field: OptionField) => `option-${index}-${field}`;
          const typedEmoji = emojiProblem(option.emoji);
          const fieldProblem = (field: OptionField) =>
            problems.get(optionPath(index, field)) ??
            (field === 'emoji' ? (typedEmoji ?? undefined) : undefined);
          const managed = roles.get(option.role_id.trim())?.managed === true;
          const rowProblems = (['role_id', 'label', 'emoji', 'description'] as const)
            .map((field) => ({ field, message: fieldProblem(field) }))
            .filter((item): item is { field: OptionField; message: string } => item.message !== undefined);
          const srRow = <span className="sr-only"> (option {number})</span>;
          return (
            <li key={option.key} className="menu-option">
              <span className="role-row-number" aria-hidden="true">
                {number}
              </span>
              <RolePicker
                id={id('role_id')}
                className="menu-option-role"
                labelClassName="small"
                label={<>Role{srRow}</>}
                guildId={guildId}
                value={option.role_id}
                assignable
                invalid={fieldProblem('role_id') !== undefined || managed}
                onChange={(value) => pickRole(index, value)}
              />
              {TEXT_FIELDS.map((field) => {
                const problem = fieldProblem(field.key);
                return (
                  <div key={field.key} className={`field menu-option-${field.key}`}>
                    <label htmlFor={id(field.key)} className="small">
                      {field.label}
                      {srRow}
                    </label>
                    <input
                      id={id(field.key)}
                      className="input"
                      value={option[field.key]}
                      placeholder={placeholderOf(field.key, style, field.placeholder)}
                      aria-invalid={problem !== undefined || undefined}
                      aria-describedby={problem ? `${id(field.key)}-problem` : undefined}
                      onChange={(event) => setField(index, field.key, event.target.value)}
                    />
                  </div>
                );
              })}
              <div className="menu-option-actions">
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  aria-label={`Move option ${number} up`}
                  disabled={index === 0}
                  onClick={() => move(index, -1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  aria-label={`Move option ${number} down`}
                  disabled={index === options.length - 1}
                  onClick={() => move(index, 1)}
                >
                  ↓
                </button>
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  aria-label={`Remove option ${number}`}
                  onClick={() => onChange(options.filter((_, i) => i !== index))}
                >
                  Remove
                </button>
              </div>
              {rowProblems.map((item) => (
                <p
                  key={item.field}
                  id={`${id(item.field)}-problem`}
                  className="role-row-problem"
                  role="alert"
                >
                  {item.message}
                </p>
              ))}
              {managed ? <p className="role-row-problem">{MANAGED_ROLE_NOTE}</p> : null}
            </li>
          );
        })}
      </ol>
      <div className="button-row">
        <LimitedButton
          className="btn btn-secondary btn-sm"
          onClick={() => onChange([...options, emptyOption()])}
          full={full}
          reason={optionLimitNote(style)}
        >
          Add option
        </LimitedButton>
      </div>
    </section>
  );
}
