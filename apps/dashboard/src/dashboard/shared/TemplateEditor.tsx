/**
 * A message template's editor: a textarea, buttons that insert each placeholder where the cursor
 * is, and a character counter (blank: the default message). The level-up and welcome messages.
 */
import type { GuildRole } from '@spacecadet/contract';
import { useRef } from 'react';
import { useSession } from '../../lib/session.ts';
import { useGuildRoles } from './guild-lookups.ts';
import { useAdminGuilds } from './queries.ts';

/** What a message preview shows: the signed-in user as the member, the server's name and roles. */
export function usePreviewContext(guildId: string): {
  member: { id: string; name: string };
  server: string;
  roles: ReadonlyMap<string, GuildRole>;
} {
  const { user } = useSession();
  const guilds = useAdminGuilds();
  const guildRoles = useGuildRoles(guildId);
  return {
    member: { id: user?.id ?? '0', name: user?.username ?? 'member' },
    server: guilds.data?.find((guild) => guild.id === guildId)?.name ?? 'this server',
    roles: new Map((guildRoles.data?.roles ?? []).map((role) => [role.id, role])),
  };
}

export function TemplateEditor({
  id,
  label,
  value,
  onChange,
  max,
  placeholders,
  help,
  issue = null,
  disabled = false,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  max: number;
  placeholders: readonly string[];
  /** What each placeholder becomes, for its button's title and label. */
  help: Readonly<Record<string, string>>;
  issue?: string | null;
  disabled?: boolean;
}) {
  const area = useRef<HTMLTextAreaElement>(null);
  const insert = (placeholder: string) => {
    const box = area.current;
    const start = box?.selectionStart ?? value.length;
    const end = box?.selectionEnd ?? value.length;
    onChange(`${value.slice(0, start)}${placeholder}${value.slice(end)}`);
    // Back in the box, the cursor after what was inserted, so typing goes on from there.
    requestAnimationFrame(() => {
      box?.focus();
      box?.setSelectionRange(start + placeholder.length, start + placeholder.length);
    });
  };
  return (
    <>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <textarea
          id={id}
          ref={area}
          className="input levelup-textarea"
          rows={3}
          maxLength={max}
          value={value}
          disabled={disabled}
          aria-describedby={`${id}-help`}
          aria-invalid={issue !== null || undefined}
          onChange={(event) => onChange(event.target.value)}
        />
      </div>
      <div id={`${id}-help`} className="placeholder-row">
        <span className="muted small">Insert:</span>
        {placeholders.map((placeholder) => (
          <button
            key={placeholder}
            type="button"
            className="btn btn-ghost btn-sm placeholder-chip"
            title={help[placeholder]}
            aria-label={`Insert ${placeholder}: ${help[placeholder]}`}
            disabled={disabled}
            onClick={() => insert(placeholder)}
          >
            {placeholder}
          </button>
        ))}
        <span className="muted small levelup-count">
          {value.length.toLocaleString('en-US')} / {max.toLocaleString('en-US')}
          {value.trim() === '' ? ' · blank: the default message' : ''}
        </span>
      </div>
      {issue ? (
        <p className="alert alert-error small" role="alert">
          {issue}
        </p>
      ) : null}
    </>
  );
}
