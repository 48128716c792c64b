import type { InputHTMLAttributes, ReactNode } from 'react';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'className'>;

/** A labelled text/number input in a `.field`; any other input attribute passes through. */
export function TextField({
  id,
  label,
  labelClassName,
  value,
  onChange,
  ...input
}: InputProps & {
  id: string;
  label: ReactNode;
  labelClassName?: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id} className={labelClassName}>
        {label}
      </label>
      <input
        id={id}
        className="input"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        {...input}
      />
    </div>
  );
}

/** A channel id typed by hand, where the bot cannot list the server's channels. */
export function ChannelIdField(props: Omit<Parameters<typeof TextField>[0], 'inputMode' | 'placeholder'>) {
  return <TextField inputMode="numeric" placeholder="e.g. 300000000000000012" {...props} />;
}

/** An error line screen readers announce; renders nothing without a message. */
export function ErrorAlert({ children, id }: { children: ReactNode; id?: string }) {
  if (children === null || children === undefined || children === false || children === '') return null;
  return (
    <p id={id} className="alert alert-error" role="alert">
      {children}
    </p>
  );
}

/** A labelled select over fixed options; `onChange` gets back one of the option values. */
export function SelectField<Value extends string>({
  id,
  label,
  value,
  options,
  onChange,
  disabled,
  className,
  invalid = false,
  describedBy,
}: {
  id: string;
  label: ReactNode;
  value: Value;
  options: ReadonlyArray<{ value: Value; label: string }>;
  onChange: (value: Value) => void;
  disabled?: boolean;
  className?: string;
  invalid?: boolean;
  /** The id of the text that explains the field (its note, or what was refused). */
  describedBy?: string;
}) {
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="select"
        value={value}
        disabled={disabled}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        onChange={(event) => {
          const picked = options.find((option) => option.value === event.target.value);
          if (picked) onChange(picked.value);
        }}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
