import { type GuildRole, isSnowflake, type MemberSummary } from '@spacecadet/contract';
import { type ReactNode, useState } from 'react';
import { avatarUrl } from '../../lib/cdn.ts';
import '../../styles/guild-pickers.css';
import { Combobox, type PickerOption } from './Combobox.tsx';
import { useGuildRoles, useMemberLookup, useMemberSearch } from './guild-lookups.ts';
import { useDebounced } from './useDebounced.ts';

/** How long the member picker waits after a keystroke before it searches. */
export const MEMBER_SEARCH_DEBOUNCE_MS = 250;

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
  const search = useMemberSearch(guildId, term);
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
