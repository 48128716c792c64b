import type { ReactNode } from 'react';
import { RolePicker } from '../shared/GuildPickers.tsx';
import { type MenuDraft, MODE_CHOICES, STYLE_CHOICES } from './role-menus-form.ts';

/** Shows a field with the refusal of `path` under it (its sentence, and the field marked invalid). */
export type FieldWithProblem = (
  path: string,
  content: (invalid: boolean, describedBy: string | undefined) => ReactNode,
) => ReactNode;

/**
 * How members pick: the style (buttons, a select menu or reactions, with what each holds), the
 * mode (with a line on what a pick does), max_roles for a limit menu only, and the required role.
 */
export function MenuPickFields({
  guildId,
  draft,
  problems,
  field,
  update,
}: {
  guildId: string;
  draft: MenuDraft;
  problems: ReadonlyMap<string, string>;
  field: FieldWithProblem;
  update: (change: Partial<MenuDraft>) => void;
}) {
  return (
    <section className="card menu-fields" aria-labelledby="menu-behaviour-title">
      <h2 id="menu-behaviour-title">How members pick</h2>
      <ChoiceGroup
        legend="Style"
        name="menu-style"
        choices={STYLE_CHOICES}
        value={draft.style}
        onChange={(style) => update({ style })}
      />
      {problems.get('style') ? <p className="field-problem">{problems.get('style')}</p> : null}
      <ChoiceGroup
        legend="Mode"
        name="menu-mode"
        choices={MODE_CHOICES}
        value={draft.mode}
        onChange={(mode) => update({ mode })}
      />
      {problems.get('mode') ? <p className="field-problem">{problems.get('mode')}</p> : null}
      {draft.mode === 'limit' ? (
        <div className="field max-roles-field">
          <label htmlFor="menu-max-roles">Most roles a member may hold from this menu</label>
          {field('max_roles', (invalid, describedBy) => (
            <input
              id="menu-max-roles"
              className="input"
              type="number"
              inputMode="numeric"
              min={1}
              max={Math.max(1, draft.options.length)}
              value={draft.max_roles}
              aria-invalid={invalid || undefined}
              aria-describedby={describedBy}
              onChange={(event) => update({ max_roles: event.target.value })}
            />
          ))}
        </div>
      ) : null}
      {field('required_role_id', (invalid) => (
        <RolePicker
          id="menu-required-role"
          label={
            <>
              Required role <span className="muted small">(optional: members without it are refused)</span>
            </>
          }
          guildId={guildId}
          value={draft.required_role_id}
          invalid={invalid}
          onChange={(value) => update({ required_role_id: value })}
        />
      ))}
    </section>
  );
}

/** One radio card per choice, each with its label and a line on what it means. */
function ChoiceGroup<T extends string>({
  legend,
  name,
  choices,
  value,
  onChange,
}: {
  legend: string;
  name: string;
  choices: ReadonlyArray<{ value: T; label: string; detail: string }>;
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="choice-group">
      <legend>{legend}</legend>
      {choices.map((choice) => (
        <label key={choice.value} className="choice">
          <input
            type="radio"
            name={name}
            value={choice.value}
            checked={value === choice.value}
            onChange={() => onChange(choice.value)}
          />
          <span>
            <span className="choice-label">{choice.label}</span>
            <span className="choice-detail">{choice.detail}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
