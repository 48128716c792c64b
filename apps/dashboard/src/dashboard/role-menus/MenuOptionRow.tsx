import type { GuildRole, RoleMenuStyle } from '@spacecadet/contract';
import type { ReactNode } from 'react';
import { MANAGED_ROLE_NOTE } from '../reaction-roles/RoleRowsEditor.tsx';
import { RolePicker } from '../shared/GuildPickers.tsx';
import { OptionActions } from '../shared/OptionActions.tsx';
import { emojiProblem, type OptionDraft, type OptionField, optionPath } from './role-menus-form.ts';

/** How long a picked role stays (`expires_after_s`): for good, or one of these. */
const KEEP_FOR: ReadonlyArray<{ seconds: number; label: string }> = [
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '1 day' },
  { seconds: 7 * 86_400, label: '7 days' },
  { seconds: 30 * 86_400, label: '30 days' },
];

/** A stored duration none of the choices names, said in the largest whole unit. */
function durationLabel(seconds: number): string {
  for (const [unit, size] of [
    ['day', 86_400],
    ['hour', 3600],
    ['minute', 60],
  ] as const) {
    if (seconds % size === 0) return `${seconds / size} ${unit}${seconds === size ? '' : 's'}`;
  }
  return `${seconds} seconds`;
}

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
 * One option of the menu: its role picker, label, emoji (checked as it is typed) and description,
 * its move and remove buttons, and the refusals of its fields under them.
 */
export function MenuOptionRow({
  guildId,
  style,
  option,
  index,
  count,
  problems,
  roles,
  onPickRole,
  onSetField,
  onSetExpiry,
  onMove,
  onRemove,
}: {
  guildId: string;
  style: RoleMenuStyle;
  option: OptionDraft;
  index: number;
  /** How many options the menu has (the last one does not move down). */
  count: number;
  problems: ReadonlyMap<string, string>;
  roles: ReadonlyMap<string, GuildRole>;
  onPickRole: (roleId: string) => void;
  onSetField: (key: OptionField, value: string) => void;
  /** The role's lifetime after a pick, in seconds; undefined: kept for good. */
  onSetExpiry: (seconds: number | undefined) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const number = index + 1;
  const id = (field: OptionField) => `option-${index}-${field}`;
  const typedEmoji = emojiProblem(option.emoji);
  const fieldProblem = (field: OptionField) =>
    problems.get(optionPath(index, field)) ?? (field === 'emoji' ? (typedEmoji ?? undefined) : undefined);
  const managed = roles.get(option.role_id.trim())?.managed === true;
  const rowProblems = (['role_id', 'label', 'emoji', 'description'] as const)
    .map((field) => ({ field, message: fieldProblem(field) }))
    .filter((item): item is { field: OptionField; message: string } => item.message !== undefined);
  const srRow = <span className="sr-only"> (option {number})</span>;
  return (
    <li className="menu-option">
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
        onChange={onPickRole}
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
              onChange={(event) => onSetField(field.key, event.target.value)}
            />
          </div>
        );
      })}
      <OptionActions number={number} last={count} onMove={onMove} onRemove={onRemove} />
      {style === 'reactions' ? null : (
        <OptionExpiry
          id={id('role_id').replace('role_id', 'expiry')}
          seconds={option.expires_after_s}
          problem={problems.get(`options.${index}.expires_after_s`)}
          srRow={srRow}
          onChange={onSetExpiry}
        />
      )}
      {rowProblems.map((item) => (
        <p key={item.field} id={`${id(item.field)}-problem`} className="role-row-problem" role="alert">
          {item.message}
        </p>
      ))}
      {managed ? <p className="role-row-problem">{MANAGED_ROLE_NOTE}</p> : null}
    </li>
  );
}

/** How long the role picked with this option stays: for good (the default) or a while. */
function OptionExpiry({
  id,
  seconds,
  problem,
  srRow,
  onChange,
}: {
  id: string;
  seconds: number | undefined;
  problem: string | undefined;
  srRow: ReactNode;
  onChange: (seconds: number | undefined) => void;
}) {
  const custom = seconds !== undefined && !KEEP_FOR.some((choice) => choice.seconds === seconds);
  return (
    <div className="menu-option-expiry">
      <label htmlFor={id} className="small">
        Keeps the role{srRow}
      </label>
      <select
        id={id}
        className="input"
        value={seconds === undefined ? '' : String(seconds)}
        aria-invalid={problem !== undefined || undefined}
        onChange={(event) => onChange(event.target.value === '' ? undefined : Number(event.target.value))}
      >
        <option value="">For good</option>
        {KEEP_FOR.map((choice) => (
          <option key={choice.seconds} value={String(choice.seconds)}>
            For {choice.label}, then the bot takes it back
          </option>
        ))}
        {custom ? (
          <option value={String(seconds)}>For {durationLabel(seconds)}, then the bot takes it back</option>
        ) : null}
      </select>
      {problem ? (
        <p className="role-row-problem" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
