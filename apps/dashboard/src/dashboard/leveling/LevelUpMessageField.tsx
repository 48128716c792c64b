import {
  type GuildRole,
  LEVEL_UP_MESSAGE_MAX,
  LEVEL_UP_PLACEHOLDERS,
  type LevelingRole,
  type RewardMode,
} from '@spacecadet/contract';
import { renderLevelUpMessage } from '@spacecadet/core';
import { Fragment, type ReactNode, useRef } from 'react';
import { useSession } from '../../lib/session.ts';
import { PanelLine } from '../shared/DiscordMarkup.tsx';
import { useGuildRoles } from '../shared/guild-lookups.ts';
import { useAdminGuilds } from '../shared/queries.ts';

export const PLACEHOLDER_HELP: Readonly<Record<(typeof LEVEL_UP_PLACEHOLDERS)[number], string>> = {
  '{user}': 'mentions the member',
  '{username}': "the member's name",
  '{level}': 'the new level',
  '{server}': "the server's name",
  '{rewards}': 'the reward roles just given',
};

/** The level the preview shows: the lowest with a reward (so {rewards} has something), else 5. */
export function previewLevel(roles: readonly Pick<LevelingRole, 'level_required'>[]): number {
  const levels = roles.map((role) => role.level_required).filter((level) => level > 0);
  return levels.length > 0 ? Math.min(...levels) : 5;
}

/** Names of the rewards a member reaching `level` is given, as the worker names them. */
export function previewRewards(
  roles: readonly Pick<LevelingRole, 'level_required' | 'role_name'>[],
  level: number,
  mode: RewardMode,
): string[] {
  const reached = roles.filter((role) => role.level_required === level);
  return (mode === 'highest' ? reached.slice(-1) : reached).map((role) => role.role_name);
}

const USER_MENTION = /<@!?(\d+)>/g;

/** The rendered message as Discord shows it: the member's mention as @name, Markdown drawn. */
export function LevelUpPreviewText({
  content,
  names,
  roles,
}: {
  content: string;
  names: ReadonlyMap<string, string>;
  roles: ReadonlyMap<string, GuildRole>;
}) {
  const lines = content.split('\n');
  return (
    <>
      {lines.map((line, lineIndex) => {
        const parts: ReactNode[] = [];
        let last = 0;
        for (const match of line.matchAll(USER_MENTION)) {
          if (match.index > last) {
            parts.push(<PanelLine key={`t${last}`} text={line.slice(last, match.index)} roles={roles} />);
          }
          parts.push(
            <span key={`m${match.index}`} className="discord-mention">
              @{names.get(match[1] ?? '') ?? 'unknown-user'}
            </span>,
          );
          last = match.index + match[0].length;
        }
        if (last < line.length)
          parts.push(<PanelLine key={`t${last}`} text={line.slice(last)} roles={roles} />);
        return (
          <Fragment key={lineIndex}>
            {lineIndex > 0 ? <br /> : null}
            {parts}
          </Fragment>
        );
      })}
    </>
  );
}

/**
 * The level-up message: a textarea, buttons that insert each placeholder where the cursor is,
 * and a live preview rendered by core's `renderLevelUpMessage`, the function the bot posts with
 * (blank: the default message), for the signed-in admin reaching a level.
 */
export function LevelUpMessageField({
  guildId,
  value,
  onChange,
  roles,
  rewardMode,
  issue,
}: {
  guildId: string;
  value: string;
  onChange: (value: string) => void;
  roles: readonly LevelingRole[];
  rewardMode: RewardMode;
  issue: string | null;
}) {
  const area = useRef<HTMLTextAreaElement>(null);
  const { user } = useSession();
  const guilds = useAdminGuilds();
  const guildRoles = useGuildRoles(guildId);
  const server = guilds.data?.find((guild) => guild.id === guildId)?.name ?? 'this server';
  const member = { id: user?.id ?? '0', name: user?.username ?? 'member' };
  const level = previewLevel(roles);
  const rendered = renderLevelUpMessage(value, {
    userId: member.id,
    username: member.name,
    level,
    server,
    rewards: previewRewards(roles, level, rewardMode),
  });
  const roleMap = new Map((guildRoles.data?.roles ?? []).map((role) => [role.id, role]));

  const insert = (placeholder: string) => {
    const box = area.current;
    const start = box?.selectionStart ?? value.length;
    const end = box?.selectionEnd ?? value.length;
    const next = `${value.slice(0, start)}${placeholder}${value.slice(end)}`;
    onChange(next);
    // Back in the box, the cursor after what was inserted, so typing goes on from there.
    requestAnimationFrame(() => {
      box?.focus();
      box?.setSelectionRange(start + placeholder.length, start + placeholder.length);
    });
  };

  return (
    <div className="levelup-message">
      <div className="field">
        <label htmlFor="lv-level-up-message">Level-up message</label>
        <textarea
          id="lv-level-up-message"
          ref={area}
          className="input levelup-textarea"
          rows={3}
          maxLength={LEVEL_UP_MESSAGE_MAX}
          value={value}
          aria-describedby="lv-level-up-message-help"
          aria-invalid={issue !== null || undefined}
          onChange={(event) => onChange(event.target.value)}
        />
      </div>
      <div id="lv-level-up-message-help" className="placeholder-row">
        <span className="muted small">Insert:</span>
        {LEVEL_UP_PLACEHOLDERS.map((placeholder) => (
          <button
            key={placeholder}
            type="button"
            className="btn btn-ghost btn-sm placeholder-chip"
            title={PLACEHOLDER_HELP[placeholder]}
            aria-label={`Insert ${placeholder}: ${PLACEHOLDER_HELP[placeholder]}`}
            onClick={() => insert(placeholder)}
          >
            {placeholder}
          </button>
        ))}
        <span className="muted small levelup-count">
          {value.length.toLocaleString('en-US')} / {LEVEL_UP_MESSAGE_MAX.toLocaleString('en-US')}
          {value.trim() === '' ? ' · blank: the default message' : ''}
        </span>
      </div>
      {issue ? (
        <p className="alert alert-error small" role="alert">
          {issue}
        </p>
      ) : null}
      <figure className="levelup-preview">
        <figcaption className="muted small">
          Preview: {member.name} reaching level {level}
        </figcaption>
        <div className="levelup-preview-message" data-testid="level-up-preview">
          <LevelUpPreviewText
            content={rendered.content}
            names={new Map([[member.id, member.name]])}
            roles={roleMap}
          />
        </div>
      </figure>
    </div>
  );
}
