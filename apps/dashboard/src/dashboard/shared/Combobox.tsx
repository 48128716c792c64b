import { isSnowflake } from '@spacecadet/contract';
import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import '../../styles/guild-pickers.css';

export interface PickerOption {
  id: string;
  name: string;
  /** A second, quieter line (the username beside a nickname, "managed"). */
  detail?: string | undefined;
  icon: ReactNode;
}

/**
 * A searchable select (ARIA combobox): type to filter, arrows and Enter to pick. A typed Discord
 * id is taken as the value as it is, so an id the list does not show still works. `onQuery`
 * gets the typed text, for the picker to filter or search with.
 */
export function Combobox({
  id,
  label,
  labelClassName,
  value,
  selected,
  options,
  onQuery,
  onChange,
  status,
  placeholder,
  invalid = false,
  disabled = false,
  className,
}: {
  id: string;
  label: ReactNode;
  labelClassName?: string;
  /** More classes for the outer `.field` (a grid cell's own class). */
  className?: string | undefined;
  value: string;
  /** The current value as an option (its name and icon), when it is known. */
  selected: PickerOption | undefined;
  options: readonly PickerOption[];
  onQuery: (text: string) => void;
  onChange: (id: string) => void;
  /** A line under the options: loading, nothing found, could not list. */
  status?: string | null;
  placeholder?: string;
  invalid?: boolean;
  disabled?: boolean;
}) {
  const { text, open, setOpen, active, setActive, activeOption, type, close, pick, onKeyDown } =
    useComboboxState(value, options, onQuery, onChange);
  const listId = `${id}-options`;
  const shown = text ?? (value === '' ? '' : (selected?.name ?? value));

  return (
    <div className={className ? `field picker ${className}` : 'field picker'}>
      <label htmlFor={id} className={labelClassName}>
        {label}
      </label>
      <div className={text === null && selected ? 'picker-box has-icon' : 'picker-box'}>
        {text === null && selected ? <span className="picker-icon">{selected.icon}</span> : null}
        <input
          id={id}
          className="input picker-input"
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeOption ? `${id}-option-${activeOption.id}` : undefined}
          aria-invalid={invalid || undefined}
          autoComplete="off"
          spellCheck={false}
          placeholder={placeholder}
          disabled={disabled}
          value={shown}
          onChange={(event) => type(event.target.value)}
          onFocus={() => setOpen(true)}
          onBlur={close}
          onKeyDown={onKeyDown}
        />
        {open ? (
          <PickerPopup
            id={id}
            listId={listId}
            label={label}
            value={value}
            options={options}
            active={active}
            status={status}
            onActive={setActive}
            onPick={pick}
          />
        ) : null}
      </div>
    </div>
  );
}

/** The typing, the open list and its active option, and the keys that move through it and pick. */
function useComboboxState(
  value: string,
  options: readonly PickerOption[],
  onQuery: (text: string) => void,
  onChange: (id: string) => void,
) {
  /** What the admin is typing; null when not typing (the input shows the picked value). */
  const [text, setText] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  // The value this picker last gave; another one (a form cleared after Add) ends the typing.
  const given = useRef(value);
  useEffect(() => {
    if (value === given.current) return;
    given.current = value;
    setText(null);
  }, [value]);
  const give = (next: string) => {
    given.current = next;
    onChange(next);
  };
  const activeOption = open ? options[active] : undefined;

  const type = (next: string) => {
    setText(next);
    setOpen(true);
    setActive(0);
    onQuery(next);
    const trimmed = next.trim();
    if (isSnowflake(trimmed)) give(trimmed);
    else if (value !== '') give('');
  };
  const close = () => {
    setOpen(false);
    setText(null);
    onQuery('');
  };
  const pick = (option: PickerOption) => {
    give(option.id);
    close();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) {
        setOpen(true);
        return;
      }
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => Math.min(Math.max(current + step, 0), Math.max(options.length - 1, 0)));
    } else if (event.key === 'Enter' && activeOption) {
      event.preventDefault();
      pick(activeOption);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      close();
    }
  };
  return { text, open, setOpen, active, setActive, activeOption, type, close, pick, onKeyDown };
}

/** The open list: the options (the mouse picks here) and the status line under them. */
function PickerPopup({
  id,
  listId,
  label,
  value,
  options,
  active,
  status,
  onActive,
  onPick,
}: {
  id: string;
  listId: string;
  label: ReactNode;
  value: string;
  options: readonly PickerOption[];
  active: number;
  status: string | null | undefined;
  onActive: (index: number) => void;
  onPick: (option: PickerOption) => void;
}) {
  return (
    <div className="picker-popup">
      <div
        id={listId}
        role="listbox"
        className="picker-list"
        aria-label={typeof label === 'string' ? label : undefined}
      >
        {options.map((option, index) => (
          // The keyboard is the input's (aria-activedescendant); the mouse picks here.
          // biome-ignore lint/a11y/useKeyWithClickEvents: arrows and Enter are handled on the focused input
          <div
            key={option.id}
            id={`${id}-option-${option.id}`}
            role="option"
            tabIndex={-1}
            aria-selected={index === active}
            className={option.id === value ? 'picker-option is-current' : 'picker-option'}
            // Keep the focus in the input: a blur would close the list before the click.
            onMouseDown={(event) => event.preventDefault()}
            onMouseEnter={() => onActive(index)}
            onClick={() => onPick(option)}
          >
            <span className="picker-icon">{option.icon}</span>
            <span className="picker-option-text">
              <span className="picker-option-name">{option.name}</span>
              {option.detail ? <span className="picker-option-detail">{option.detail}</span> : null}
            </span>
          </div>
        ))}
      </div>
      {status ? <p className="picker-status">{status}</p> : null}
    </div>
  );
}
