/** The Welcome page's groups: the greeting (channel, when, DM, card) and the goodbye. */
import type { WelcomeSendWhen, WelcomeSettings } from '@spacecadet/contract';
import type { ReactNode } from 'react';
import { ChannelPicker } from '../shared/ChannelPicker.tsx';
import { TemplateField } from './TemplateField.tsx';
import type { SetWelcome } from './useWelcomeForm.ts';

export interface SectionProps {
  guildId: string;
  botInGuild: boolean;
  form: WelcomeSettings;
  set: SetWelcome;
}

export const SEND_WHEN_TEXT: Readonly<Record<WelcomeSendWhen, { label: string; hint: string }>> = {
  join: { label: 'As soon as they join', hint: 'Before they have answered the server’s Onboarding.' },
  onboarding_complete: {
    label: 'After they finish Onboarding',
    hint: 'Better: they have read the rules and picked their roles, and {answers} can name their picks. Members who never finish are not greeted.',
  },
};

export function Check({
  checked,
  onChange,
  children,
}: {
  checked: boolean;
  onChange: (value: boolean) => void;
  children: ReactNode;
}) {
  return (
    <label className="checkbox-field">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      {children}
    </label>
  );
}

export function GreetingGroup({ guildId, botInGuild, form, set }: SectionProps) {
  return (
    <fieldset className="settings-group">
      <legend>Welcome message</legend>
      <Check checked={form.enabled} onChange={set('enabled')}>
        Send a welcome message
      </Check>
      <ChannelPicker
        id="wl-channel"
        label="Welcome channel"
        guildId={guildId}
        botInGuild={botInGuild}
        value={form.channel_id ?? ''}
        onChange={(value) => set('channel_id')(value.trim() || null)}
      />
      <div className="choice-list" role="radiogroup" aria-label="Send when">
        <span className="welcome-send-when-label">Send when</span>
        {(Object.keys(SEND_WHEN_TEXT) as WelcomeSendWhen[]).map((when) => (
          <label key={when} className="choice">
            <input
              type="radio"
              name="wl-send-when"
              value={when}
              checked={form.send_when === when}
              onChange={() => set('send_when')(when)}
            />
            <span>
              {SEND_WHEN_TEXT[when].label}
              <span className="muted small choice-hint">{SEND_WHEN_TEXT[when].hint}</span>
            </span>
          </label>
        ))}
      </div>
      <TemplateField
        id="wl-message"
        label="Welcome message"
        kind="welcome"
        guildId={guildId}
        sendWhen={form.send_when}
        value={form.message}
        onChange={set('message')}
      />
      <Check checked={form.card} onChange={set('card')}>
        Attach a welcome card (avatar, name, member number)
      </Check>
      <Check checked={form.dm_enabled} onChange={set('dm_enabled')}>
        Also send a direct message
      </Check>
      {form.dm_enabled ? (
        <TemplateField
          id="wl-dm-message"
          label="Direct message"
          kind="dm"
          guildId={guildId}
          sendWhen={form.send_when}
          value={form.dm_message}
          onChange={set('dm_message')}
        />
      ) : null}
    </fieldset>
  );
}

export function GoodbyeGroup({ guildId, botInGuild, form, set }: SectionProps) {
  return (
    <fieldset className="settings-group">
      <legend>Goodbye message</legend>
      <Check checked={form.goodbye_enabled} onChange={set('goodbye_enabled')}>
        Send a goodbye message when a member leaves
      </Check>
      <ChannelPicker
        id="wl-goodbye-channel"
        label="Goodbye channel"
        guildId={guildId}
        botInGuild={botInGuild}
        value={form.goodbye_channel_id ?? ''}
        onChange={(value) => set('goodbye_channel_id')(value.trim() || null)}
      />
      <TemplateField
        id="wl-goodbye-message"
        label="Goodbye message"
        kind="goodbye"
        guildId={guildId}
        sendWhen={form.send_when}
        value={form.goodbye_message}
        onChange={set('goodbye_message')}
      />
    </fieldset>
  );
}
