import { MESSAGES } from '@spacecadet/contract';
import { type ReactNode, useState } from 'react';
import { Combobox, type PickerOption } from './Combobox.tsx';
import { RoleDot } from './GuildPickers.tsx';
import { useGuildRoles } from './guild-lookups.ts';
import { useChannels } from './queries.ts';

/**
 * Several of the guild's channels or roles: the picked ones as chips (each with its Remove
 * button) and a search box that adds the one picked. Only what the guild lists can be added.
 */
function MultiPicker({
  id,
  label,
  hint,
  value,
  onChange,
  all,
  noun,
  status,
  disabled = false,
  invalid = false,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  value: readonly string[];
  onChange: (ids: string[]) => void;
  all: readonly PickerOption[];
  /** What one item is called in a chip's Remove label and the empty line ("channel"). */
  noun: string;
  status: string | null;
  disabled?: boolean;
  invalid?: boolean;
}) {
  const [query, setQuery] = useState('');
  // A picked id clears the box at once; the box only ever holds what is being typed.
  const [draft, setDraft] = useState('');
  const chosen = new Set(value);
  const needle = query.trim().toLowerCase();
  const options = all.filter(
    (option) =>
      !chosen.has(option.id) &&
      (needle === '' || option.name.toLowerCase().includes(needle) || option.id.startsWith(needle)),
  );
  const byId = new Map(all.map((option) => [option.id, option]));
  const hintId = `${id}-hint`;
  return (
    <div className="multi-picker">
      <Combobox
        id={id}
        label={label}
        value={draft}
        selected={undefined}
        options={options}
        onQuery={setQuery}
        onChange={(picked) => {
          if (byId.has(picked) && !chosen.has(picked)) {
            onChange([...value, picked]);
            setDraft('');
          } else {
            setDraft(picked);
          }
        }}
        status={status ?? (options.length === 0 ? `No ${noun} to add` : null)}
        placeholder={`Add a ${noun}…`}
        disabled={disabled}
        invalid={invalid}
      />
      {hint ? (
        <p id={hintId} className="muted small field-hint">
          {hint}
        </p>
      ) : null}
      <ChipList
        value={value}
        byId={byId}
        label={label}
        noun={noun}
        disabled={disabled}
        onRemove={(itemId) => onChange(value.filter((other) => other !== itemId))}
      />
    </div>
  );
}

/** The picked items as chips, each with its Remove button; "None" when there are none. */
function ChipList({
  value,
  byId,
  label,
  noun,
  disabled,
  onRemove,
}: {
  value: readonly string[];
  byId: ReadonlyMap<string, PickerOption>;
  label: string;
  noun: string;
  disabled: boolean;
  onRemove: (itemId: string) => void;
}) {
  return value.length === 0 ? (
    <p className="muted small">None</p>
  ) : (
    <ul className="chip-list" aria-label={label}>
      {value.map((itemId) => {
        const option = byId.get(itemId);
        const name = option?.name ?? itemId;
        return (
          <li key={itemId} className="chip">
            {option ? <span className="chip-icon">{option.icon}</span> : null}
            <span className="chip-name">{name}</span>
            <button
              type="button"
              className="chip-remove"
              aria-label={`Remove ${noun} ${name}`}
              disabled={disabled}
              onClick={() => onRemove(itemId)}
            >
              ×
            </button>
          </li>
        );
      })}
    </ul>
  );
}

type PickerProps = {
  id: string;
  label: string;
  hint?: ReactNode;
  guildId: string;
  value: readonly string[];
  onChange: (ids: string[]) => void;
  invalid?: boolean;
};

/** Several of the guild's text channels (listed only while the bot is in the server). */
export function ChannelMultiPicker({
  botInGuild,
  withVoice = false,
  ...props
}: PickerProps & { botInGuild: boolean; withVoice?: boolean }) {
  const channels = useChannels(props.guildId, botInGuild, withVoice ? 'any' : 'text');
  const all = (channels.data?.channels ?? []).map((channel) => ({
    id: channel.id,
    name: channel.voice ? `🔊 ${channel.name}` : `#${channel.name}`,
    icon: (
      <span className="chip-hash" aria-hidden="true">
        {channel.voice ? '🔊' : '#'}
      </span>
    ),
  }));
  const status = !botInGuild
    ? MESSAGES.botNotInGuild
    : channels.isPending
      ? 'Loading channels…'
      : channels.isError
        ? 'Could not list the channels'
        : null;
  return <MultiPicker {...props} all={all} noun="channel" status={status} disabled={!botInGuild} />;
}

/** Several of the guild's roles, with their colors; `givable`: not those held by an integration. */
export function RoleMultiPicker({ givable = false, ...props }: PickerProps & { givable?: boolean }) {
  const roles = useGuildRoles(props.guildId);
  const listed = (roles.data?.roles ?? []).filter((role) => !givable || !role.managed);
  const all = listed.map((role) => ({
    id: role.id,
    name: role.name,
    icon: <RoleDot color={role.color} />,
  }));
  const status = roles.isPending ? 'Loading roles…' : roles.isError ? 'Could not list the roles' : null;
  return <MultiPicker {...props} all={all} noun="role" status={status} />;
}
