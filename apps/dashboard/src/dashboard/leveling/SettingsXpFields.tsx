/** The settings form's XP sections: the numbers (rate, cooldown), the two channels, XP per message, No XP. */
import { MESSAGE_COOLDOWN_MAX_SEC, XP_PER_MESSAGE_MAX } from '@spacecadet/contract';
import { TextField } from '../../ui/Field.tsx';
import { ChannelPicker } from '../shared/ChannelPicker.tsx';
import { ChannelMultiPicker, RoleMultiPicker } from '../shared/MultiPickers.tsx';
import type { SettingsForm as Form, NumberSetting } from './leveling-model.ts';
import { expectedXpLine } from './numbers-model.ts';
import type { FieldIssueKey, Notes, SetField } from './useSettingsForm.ts';

const NUMBER_FIELDS = [
  { key: 'xp_multiplier', label: 'XP multiplier', min: 0, max: 100, step: 0.1 },
  {
    key: 'message_cooldown_sec',
    label: 'Message cooldown (seconds)',
    min: 0,
    max: MESSAGE_COOLDOWN_MAX_SEC,
    step: 1,
  },
] as const;
const RANGE_FIELDS = [
  { key: 'xp_min', label: 'Least XP per message', min: 0, max: XP_PER_MESSAGE_MAX, step: 1 },
  { key: 'xp_max', label: 'Most XP per message', min: 0, max: XP_PER_MESSAGE_MAX, step: 1 },
] as const;
type NumberField = { key: NumberSetting; label: string; min: number; max: number; step: number };
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
      {NUMBER_FIELDS.map((field) => (
        <NumberBox key={field.key} field={field} form={form} set={set} notes={notes} />
      ))}
      {CHANNEL_FIELDS.map((field) => (
        <ChannelField key={field.key} field={field} {...props} />
      ))}
    </div>
  );
}

/** A number box with its clamp note under it; `describedBy` points at what is wrong with it. */
function NumberBox({
  field: { key, ...attrs },
  form,
  set,
  notes,
  describedBy,
}: {
  field: NumberField;
  form: Form;
  set: SetField;
  notes: Notes;
  describedBy?: string | undefined;
}) {
  const described = [notes[key] ? `lv-${key}-note` : null, describedBy ?? null].filter(Boolean).join(' ');
  return (
    // Top-aligned: a field with a note under it must not push its neighbours' labels down.
    <div className="field" style={{ alignSelf: 'start' }}>
      <TextField
        id={`lv-${key}`}
        type="number"
        value={form[key]}
        onChange={set(key)}
        {...(described ? { 'aria-describedby': described } : {})}
        {...(describedBy ? { 'aria-invalid': true } : {})}
        {...attrs}
      />
      {notes[key] ? (
        <p id={`lv-${key}-note`} className="alert alert-warning small" role="status">
          {notes[key]}
        </p>
      ) : null}
    </div>
  );
}

/**
 * XP per message: the least and the most a message earns (a random whole amount between), the
 * expected amount under them, or why the range is refused.
 */
export function XpRangeFields({ form, set, notes, issue: issueOf }: FieldsProps & { notes: Notes }) {
  const issue = issueOf('xp_min') ?? issueOf('xp_max');
  const line = expectedXpLine(form.xp_min, form.xp_max);
  return (
    <fieldset className="settings-group">
      <legend>XP per message</legend>
      <p className="muted small">
        Each counted message earns a random whole amount from the least to the most; the multiplier and boosts
        apply on top.
      </p>
      <div className="form-grid">
        {RANGE_FIELDS.map((field) => (
          <NumberBox
            key={field.key}
            field={field}
            form={form}
            set={set}
            notes={notes}
            describedBy={issue ? 'lv-xp-range-issue' : undefined}
          />
        ))}
      </div>
      {issue ? (
        <p id="lv-xp-range-issue" className="alert alert-error small" role="alert">
          {issue}
        </p>
      ) : line ? (
        <p className="xp-range-line">{line}</p>
      ) : null}
    </fieldset>
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
            withVoice
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
