/**
 * One welcome template (channel greeting, DM or goodbye): a textarea with placeholder chips that
 * insert where the cursor is, a counter against Discord's 2,000 characters, and a live preview
 * drawn by core's `renderWelcomeMessage`, the function the bot sends with.
 */
import { WELCOME_MESSAGE_MAX, type WelcomeSendWhen } from '@spacecadet/contract';
import { renderWelcomeMessage, type WelcomeTemplateKind } from '@spacecadet/core';
import { useRef } from 'react';
import { useSession } from '../../lib/session.ts';
import { LevelUpPreviewText } from '../leveling/LevelUpMessageField.tsx';
import { useGuildRoles } from '../shared/guild-lookups.ts';
import { useAdminGuilds } from '../shared/queries.ts';

const HELP: Readonly<Record<string, string>> = {
  '{user}': 'mentions the member',
  '{username}': "the member's name",
  '{server}': "the server's name",
  '{member_count}': 'how many members the server has',
  '{answers}': 'what they picked in Onboarding',
};

/** The member count and Onboarding answers the preview shows (samples: the real ones come at the join). */
export const SAMPLE_MEMBER_COUNT = 128;
export const SAMPLE_ANSWERS = ['he/him', 'Gaming'] as const;

/** The placeholders offered: {answers} only for a greeting sent after Onboarding. */
export function placeholdersFor(kind: WelcomeTemplateKind, sendWhen: WelcomeSendWhen): string[] {
  const base = ['{user}', '{username}', '{server}', '{member_count}'];
  return kind !== 'goodbye' && sendWhen === 'onboarding_complete' ? [...base, '{answers}'] : base;
}

export function TemplateField({
  id,
  label,
  kind,
  guildId,
  sendWhen,
  value,
  onChange,
  disabled = false,
}: {
  id: string;
  label: string;
  kind: WelcomeTemplateKind;
  guildId: string;
  sendWhen: WelcomeSendWhen;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  const area = useRef<HTMLTextAreaElement>(null);
  const { user } = useSession();
  const guilds = useAdminGuilds();
  const guildRoles = useGuildRoles(guildId);
  const server = guilds.data?.find((guild) => guild.id === guildId)?.name ?? 'this server';
  const member = { userId: user?.id ?? '0', username: user?.username ?? 'member' };
  const answers = kind !== 'goodbye' && sendWhen === 'onboarding_complete' ? [...SAMPLE_ANSWERS] : [];
  const rendered = renderWelcomeMessage(kind, value, [{ ...member, answers }], {
    server,
    memberCount: SAMPLE_MEMBER_COUNT,
  });
  const roleMap = new Map((guildRoles.data?.roles ?? []).map((role) => [role.id, role]));

  const insert = (placeholder: string) => {
    const box = area.current;
    const start = box?.selectionStart ?? value.length;
    const end = box?.selectionEnd ?? value.length;
    onChange(`${value.slice(0, start)}${placeholder}${value.slice(end)}`);
    requestAnimationFrame(() => {
      box?.focus();
      box?.setSelectionRange(start + placeholder.length, start + placeholder.length);
    });
  };

  return (
    <div className="levelup-message welcome-template">
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <textarea
          id={id}
          ref={area}
          className="input levelup-textarea"
          rows={3}
          maxLength={WELCOME_MESSAGE_MAX}
          value={value}
          disabled={disabled}
          aria-describedby={`${id}-help`}
          onChange={(event) => onChange(event.target.value)}
        />
      </div>
      <div id={`${id}-help`} className="placeholder-row">
        <span className="muted small">Insert:</span>
        {placeholdersFor(kind, sendWhen).map((placeholder) => (
          <button
            key={placeholder}
            type="button"
            className="btn btn-ghost btn-sm placeholder-chip"
            title={HELP[placeholder]}
            aria-label={`Insert ${placeholder} in ${label}: ${HELP[placeholder]}`}
            disabled={disabled}
            onClick={() => insert(placeholder)}
          >
            {placeholder}
          </button>
        ))}
        <span className="muted small levelup-count">
          {value.length.toLocaleString('en-US')} / {WELCOME_MESSAGE_MAX.toLocaleString('en-US')}
          {value.trim() === '' ? ' · blank: the default message' : ''}
        </span>
      </div>
      <figure className="levelup-preview">
        <figcaption className="muted small">
          Preview: {kind === 'goodbye' ? `${member.username} leaving` : `${member.username} joining`} {server}
        </figcaption>
        <div className="levelup-preview-message" data-testid={`${id}-preview`}>
          <LevelUpPreviewText
            content={rendered.content}
            names={new Map([[member.userId, member.username]])}
            roles={roleMap}
          />
        </div>
      </figure>
    </div>
  );
}
