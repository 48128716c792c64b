/**
 * One welcome template (channel greeting, DM or goodbye): a textarea with placeholder chips that
 * insert where the cursor is, a counter against Discord's 2,000 characters, and a live preview
 * drawn by core's `renderWelcomeMessage`, the function the bot sends with.
 */
import { WELCOME_MESSAGE_MAX, type WelcomeSendWhen } from '@spacecadet/contract';
import { renderWelcomeMessage, type WelcomeTemplateKind } from '@spacecadet/core';
import { LevelUpPreviewText } from '../leveling/LevelUpMessageField.tsx';
import { TemplateEditor, usePreviewContext } from '../shared/TemplateEditor.tsx';

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
  const preview = usePreviewContext(guildId);
  const { server } = preview;
  const member = { userId: preview.member.id, username: preview.member.name };
  const answers = kind !== 'goodbye' && sendWhen === 'onboarding_complete' ? [...SAMPLE_ANSWERS] : [];
  const rendered = renderWelcomeMessage(kind, value, [{ ...member, answers }], {
    server,
    memberCount: SAMPLE_MEMBER_COUNT,
  });

  return (
    <div className="levelup-message welcome-template">
      <TemplateEditor
        id={id}
        label={label}
        value={value}
        onChange={onChange}
        max={WELCOME_MESSAGE_MAX}
        placeholders={placeholdersFor(kind, sendWhen)}
        help={HELP}
        disabled={disabled}
      />
      <figure className="levelup-preview">
        <figcaption className="muted small">
          Preview: {kind === 'goodbye' ? `${member.username} leaving` : `${member.username} joining`} {server}
        </figcaption>
        <div className="levelup-preview-message" data-testid={`${id}-preview`}>
          <LevelUpPreviewText
            content={rendered.content}
            names={new Map([[member.userId, member.username]])}
            roles={preview.roles}
          />
        </div>
      </figure>
    </div>
  );
}
