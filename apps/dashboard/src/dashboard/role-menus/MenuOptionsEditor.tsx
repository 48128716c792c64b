import { type GuildRole, ROLE_MENU_MAX_OPTIONS, type RoleMenuStyle } from '@spacecadet/contract';
import { LimitedButton } from '../shared/LimitedButton.tsx';
import { MenuOptionRow } from './MenuOptionRow.tsx';
import { emptyOption, type OptionDraft, type OptionField, optionLimitNote } from './role-menus-form.ts';

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
        {options.map((option, index) => (
          <MenuOptionRow
            key={option.key}
            guildId={guildId}
            style={style}
            option={option}
            index={index}
            count={options.length}
            problems={problems}
            roles={roles}
            onPickRole={(value) => pickRole(index, value)}
            onSetField={(key, value) => setField(index, key, value)}
            onSetExpiry={(seconds) =>
              onChange(
                options.map((option, i) => (i === index ? { ...option, expires_after_s: seconds } : option)),
              )
            }
            onMove={(by) => move(index, by)}
            onRemove={() => onChange(options.filter((_, i) => i !== index))}
          />
        ))}
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
