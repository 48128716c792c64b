import { type GuildRole, isSnowflake, type MemberSummary } from '@spacecadet/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { avatarUrl } from '../../lib/cdn.ts';
import '../../styles/guild-pickers.css';
import { queryKeys } from './queries.ts';

/** How long the member picker waits after a keystroke before it searches. */
export const MEMBER_SEARCH_DEBOUNCE_MS = 250;
const LOOKUP_STALE_MS = 5 * 60_000;

/** The guild's roles but @everyone, highest first (cached by the API per guild). */
export function useGuildRoles(guildId: string, enabled = true) {
  return useQuery({
    queryKey: queryKeys.roles(guildId),
    queryFn: () => apiCall('listRoles', { params: { guildId } }),
    enabled,
    staleTime: 60_000,
  });
}

/** The member a stored id names (name and avatar), or undefined while unknown or not a member. */
export function useMemberLookup(guildId: string, userId: string | null): MemberSummary | undefined {
  const id = userId?.trim() ?? '';
  const lookup = useQuery({
    queryKey: queryKeys.memberSearch(guildId, id),
    queryFn: () => apiCall('searchMembers', { params: { guildId }, query: { query: id } }),
    enabled: isSnowflake(id),
    staleTime: LOOKUP_STALE_MS,
    retry: false,
  });
  return lookup.data?.members.find((member) => member.id === id);
}

/** `#rrggbb` of a role's color; null for a role without one (0). */
export function roleColorHex(color: number): string | null {
  return color === 0 ? null : `#${color.toString(16).padStart(6, '0')}`;
}

export function RoleDot({ color }: { color: number }) {
  const hex = roleColorHex(color);
  return (
    <span
      className={hex ? 'role-dot' : 'role-dot role-dot-none'}
      style={hex ? { backgroundColor: hex } : undefined}
      aria-hidden="true"
    />
  );
}

export function MemberAvatar({
  member,
  size = 24,
}: {
  member: { id: string; avatar: string | null };
  size?: number;
}) {
  return (
    <img className="member-avatar" src={avatarUrl(member)} alt="" width={size} height={size} loading="lazy" />
  );
}

/** A role's name with its color dot; the id when the role is unknown (deleted, or not listed). */
export function RoleName({ role, roleId }: { role: GuildRole | undefined; roleId: string }) {
  if (!role) return <span className="picked-name">Role {roleId}</span>;
  return (
    <span className="picked-name">
      <RoleDot color={role.color} />
      <span>{role.name}</span>
    </span>
  );
}

/** A member's avatar and name; the id when the member is unknown (left, or not found). */
export function MemberName({ member, userId }: { member: MemberSummary | undefined; userId: string }) {
  if (!member) return <span className="picked-name">User {userId}</span>;
  return (
    <span className="picked-name">
      <MemberAvatar member={member} size={20} />
      <span>{member.display_name}</span>
    </span>
  );
}

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
  /** What the admin is typing; null when not typing (the input shows the picked value). */
  const [text, setText] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listId = `${id}-options`;
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
  const shown = text ?? (value === '' ? '' : (selected?.name ?? value));
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
                  onMouseEnter={() => setActive(index)}
                  onClick={() => pick(option)}
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
        ) : null}
      </div>
    </div>
  );
}

function roleOption(role: GuildRole): PickerOption {
  return {
    id: role.id,
    name: role.name,
    detail: role.managed ? 'Managed by an integration' : undefined,
    icon: <RoleDot color={role.color} />,
  };
}

/**
 * The role picker: the guild's roles by name with their color, filtered as the admin types.
 * `assignable` leaves out roles no one can be given (a bot's or integration's own role).
 */
export function RolePicker({
  id,
  label,
  labelClassName,
  guildId,
  value,
  onChange,
  assignable = false,
  invalid,
  className,
}: {
  id: string;
  label: ReactNode;
  labelClassName?: string;
  className?: string;
  guildId: string;
  value: string;
  onChange: (roleId: string) => void;
  assignable?: boolean;
  invalid?: boolean;
}) {
  const roles = useGuildRoles(guildId);
  const [query, setQuery] = useState('');
  const all = (roles.data?.roles ?? []).filter((role) => !assignable || !role.managed);
  const needle = query.trim().toLowerCase();
  const options = all
    .filter((role) => needle === '' || role.name.toLowerCase().includes(needle) || role.id.startsWith(needle))
    .map(roleOption);
  const current = roles.data?.roles.find((role) => role.id === value);
  const status = roles.isPending
    ? 'Loading roles…'
    : roles.isError
      ? 'Could not list the roles: type a role id'
      : options.length === 0
        ? isSnowflake(needle)
          ? 'Not a role of this server (the id is kept as typed)'
          : 'No role matches'
        : null;
  return (
    <Combobox
      id={id}
      label={label}
      {...(labelClassName ? { labelClassName } : {})}
      className={className}
      value={value}
      selected={current ? roleOption(current) : undefined}
      options={options}
      onQuery={setQuery}
      onChange={onChange}
      status={status}
      placeholder="Search roles or paste an id"
      {...(invalid === undefined ? {} : { invalid })}
    />
  );
}

function memberOption(member: MemberSummary): PickerOption {
  return {
    id: member.id,
    name: member.display_name,
    // The username tells apart members with one display name; "Mo" over "mo" says nothing.
    detail:
      member.display_name.toLowerCase() === member.username.toLowerCase() ? undefined : `@${member.username}`,
    icon: <MemberAvatar member={member} />,
  };
}

/** `value`, once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The member picker: searches the guild's members as the admin types (debounced), with avatars. */
export function MemberPicker({
  id,
  label,
  guildId,
  value,
  onChange,
  invalid,
}: {
  id: string;
  label: ReactNode;
  guildId: string;
  value: string;
  onChange: (userId: string) => void;
  invalid?: boolean;
}) {
  const [query, setQuery] = useState('');
  const term = useDebounced(query.trim(), MEMBER_SEARCH_DEBOUNCE_MS);
  const search = useQuery({
    queryKey: queryKeys.memberSearch(guildId, term),
    queryFn: () => apiCall('searchMembers', { params: { guildId }, query: { query: term } }),
    enabled: term !== '',
    staleTime: 30_000,
    retry: false,
    placeholderData: keepPreviousData,
  });
  // The member just picked is shown at once; a stored id is looked up.
  const [picked, setPicked] = useState<MemberSummary | null>(null);
  const looked = useMemberLookup(guildId, picked?.id === value ? null : value);
  const current = picked?.id === value ? picked : looked;
  const members = term === '' ? [] : (search.data?.members ?? []);
  const typing = query.trim() !== '' && (query.trim() !== term || search.isFetching);
  const status =
    query.trim() === ''
      ? 'Type a name or paste a member id'
      : search.isError
        ? 'Could not search the members: paste a member id'
        : typing && members.length === 0
          ? 'Searching…'
          : members.length === 0
            ? isSnowflake(query.trim())
              ? 'Not a member of this server'
              : 'No member matches'
            : null;
  return (
    <Combobox
      id={id}
      label={label}
      value={value}
      selected={current ? memberOption(current) : undefined}
      options={members.map(memberOption)}
      onQuery={setQuery}
      onChange={(next) => {
        setPicked(members.find((member) => member.id === next) ?? null);
        onChange(next);
      }}
      status={status}
      placeholder="Search members or paste an id"
      {...(invalid === undefined ? {} : { invalid })}
    />
  );
}
