import {
  type GuildRole,
  LEVEL_UP_MESSAGE_MAX,
  LEVEL_UP_PLACEHOLDERS,
  type LevelingRole,
  type RewardMode,
} from '@spacecadet/contract';
import { renderLevelUpMessage } from '@spacecadet/core';
import { Fragment, type ReactNode } from 'react';
import { PanelLine } from '../shared/DiscordMarkup.tsx';
import { TemplateEditor, usePreviewContext } from '../shared/TemplateEditor.tsx';

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
  const { member, server, roles: roleMap } = usePreviewContext(guildId);
  const level = previewLevel(roles);
  const rendered = renderLevelUpMessage(value, {
    userId: member.id,
    username: member.name,
    level,
    server,
    rewards: previewRewards(roles, level, rewardMode),
  });

  return (
    <div className="levelup-message">
      <TemplateEditor
        id="lv-level-up-message"
        label="Level-up message"
        value={value}
        onChange={onChange}
        max={LEVEL_UP_MESSAGE_MAX}
        placeholders={LEVEL_UP_PLACEHOLDERS}
        help={PLACEHOLDER_HELP}
        issue={issue}
      />
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
