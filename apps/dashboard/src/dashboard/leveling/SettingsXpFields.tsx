/** The settings form's XP sections: the numbers (rate, per message, cooldown), the two channels, No XP. */
import { MESSAGE_COOLDOWN_MAX_SEC, XP_PER_MESSAGE_MAX } from '@spacecadet/contract';
import { TextField } from '../../ui/Field.tsx';
import { ChannelPicker } from '../shared/ChannelPicker.tsx';
import { ChannelMultiPicker, RoleMultiPicker } from '../shared/MultiPickers.tsx';
import type { SettingsForm as Form } from './leveling-model.ts';
import type { FieldIssueKey, Notes, SetField } from './useSettingsForm.ts';

const NUMBER_FIELDS = [
  { key: 'xp_multiplier', label: 'XP multiplier', min: 0, max: 100, step: 0.1 },
  { key: 'xp_per_message', label: 'XP per message', min: 0, max: XP_PER_MESSAGE_MAX, step: 1 },
  {
    key: 'message_cooldown_sec',
    label: 'Message cooldown (seconds)',
    min: 0,
    max: MESSAGE_COOLDOWN_MAX_SEC,
    step: 1,
  },
] as const;
const CHANNEL_FIELDS = [
  { key: 'announcement_channel', id: 'lv-announcement', label: 'Announcement channel' },
  { key: 'daily_overview_channel', id: 'lv-overview', label: 'Daily overview channel' },
] as const;

type FieldsProps = {
  guildId: string;
  botInGuild: boolean;
  form: Form;
  set: SetField;
  issue: (key: FieldIssueKey) => string | null;
};

/** The number fields, each with its clamp note, then the announcement and overview channels. */
export function RateAndChannelFields({ notes, ...props }: FieldsProps & { notes: Notes }) {
  const { form, set } = props;
  return (
    <div className="form-grid">
      {NUMBER_FIELDS.map(({ key, ...attrs }) => (
        // Top-aligned: a field with a note under it must not push its neighbours' labels down.
        <div key={key} className="field" style={{ alignSelf: 'start' }}>
          <TextField
            id={`lv-${key}`}
            type="number"
            value={form[key]}
            onChange={set(key)}
            {...(notes[key] ? { 'aria-describedby': `lv-${key}-note` } : {})}
            {...attrs}
          />
          {notes[key] ? (
            <p id={`lv-${key}-note`} className="alert alert-warning small" role="status">
              {notes[key]}
            </p>
          ) : null}
        </div>
      ))}
      {CHANNEL_FIELDS.map((field) => (
        <ChannelField key={field.key} field={field} {...props} />
      ))}
    </div>
  );
}

function ChannelField({
  field: { key, id, label },
  guildId,
  botInGuild,
  form,
  set,
  issue: issueOf,
}: FieldsProps & { field: (typeof CHANNEL_FIELDS)[number] }) {
  const issue = issueOf(key);
  return (
    <div style={{ alignSelf: 'start' }}>
      <ChannelPicker
        id={id}
        label={label}
        guildId={guildId}
        botInGuild={botInGuild}
        emptyLabel="None"
        value={form[key]}
        invalid={issue !== null}
        onChange={set(key)}
      />
      {issue ? (
        <p id={`${id}-issue`} className="alert alert-error small" role="alert" style={{ marginTop: 6 }}>
          {issue}
        </p>
      ) : null}
    </div>
  );
}

/** Channels and roles that earn no XP. */
export function NoXpFields({ guildId, botInGuild, form, set, issue }: FieldsProps) {
  const channelIssue = issue('no_xp_channels');
  const roleIssue = issue('no_xp_roles');
  return (
    <fieldset className="settings-group">
      <legend>No XP</legend>
      <p className="muted small">
        A message in one of these channels, or from a member holding one of these roles, earns no XP and
        starts no cooldown; time in a voice channel listed here, or by a member holding one of these roles,
        earns no voice XP.
      </p>
      <div className="form-grid">
        <div style={{ alignSelf: 'start' }}>
          <ChannelMultiPicker
            id="lv-no-xp-channels"
            label="No-XP channels"
            guildId={guildId}
            botInGuild={botInGuild}
            value={form.no_xp_channels}
            onChange={set('no_xp_channels')}
            invalid={channelIssue !== null}
          />
          {channelIssue ? (
            <p className="alert alert-error small" role="alert">
              {channelIssue}
            </p>
          ) : null}
        </div>
        <div style={{ alignSelf: 'start' }}>
          <RoleMultiPicker
            id="lv-no-xp-roles"
            label="No-XP roles"
            guildId={guildId}
            value={form.no_xp_roles}
            onChange={set('no_xp_roles')}
            invalid={roleIssue !== null}
          />
          {roleIssue ? (
            <p className="alert alert-error small" role="alert">
              {roleIssue}
            </p>
          ) : null}
        </div>
      </div>
    </fieldset>
  );
}
