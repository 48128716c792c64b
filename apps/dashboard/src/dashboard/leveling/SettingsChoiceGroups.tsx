/** The settings form's choice groups: the level-up message and where it goes, reward mode, public leaderboard. */
import {
  LEADERBOARD_VISIBILITIES,
  type LevelingRole,
  REWARD_MODES,
  type LevelingSettings as Settings,
} from '@spacecadet/contract';
import { SelectField } from '../../ui/Field.tsx';
import { useChannels } from '../shared/queries.ts';
import { LevelUpMessageField } from './LevelUpMessageField.tsx';
import {
  DESTINATION_OPTIONS,
  type SettingsForm as Form,
  publicLeaderboardPath,
  REWARD_MODE_TEXT,
  VISIBILITY_TEXT,
} from './leveling-model.ts';
import type { FieldIssueKey, SetField } from './useSettingsForm.ts';

/** "When a member levels up": the message, and where it is sent. */
export function LevelUpGroup({
  guildId,
  botInGuild,
  roles,
  form,
  set,
  issue,
}: {
  guildId: string;
  botInGuild: boolean;
  roles: readonly LevelingRole[];
  form: Form;
  set: SetField;
  issue: (key: FieldIssueKey) => string | null;
}) {
  const channels = useChannels(guildId, botInGuild);
  const channelName = (id: string) => channels.data?.channels.find((channel) => channel.id === id)?.name;
  return (
    <fieldset className="settings-group">
      <legend>When a member levels up</legend>
      <LevelUpMessageField
        guildId={guildId}
        value={form.level_up_message}
        onChange={set('level_up_message')}
        roles={roles}
        rewardMode={form.reward_mode}
        issue={issue('level_up_message')}
      />
      <DestinationField
        value={form.level_up_destination}
        onChange={set('level_up_destination')}
        channel={
          form.announcement_channel
            ? (channelName(form.announcement_channel) ?? form.announcement_channel)
            : null
        }
        issue={issue('level_up_destination')}
      />
    </fieldset>
  );
}

/** Where level-up messages go; with the announcement channel, which one that is. */
function DestinationField({
  value,
  onChange,
  channel,
  issue,
}: {
  value: Form['level_up_destination'];
  onChange: (value: Form['level_up_destination']) => void;
  /** The announcement channel's name (its id when unknown), or null when none is set. */
  channel: string | null;
  issue: string | null;
}) {
  const where =
    value === 'channel'
      ? channel
        ? `Posted in #${channel}, the announcement channel.`
        : 'No announcement channel is set above: pick one, or choose another place.'
      : value === 'current'
        ? 'Posted where the member wrote the message that levelled them up.'
        : value === 'dm'
          ? 'Sent to the member in a DM; members who do not take DMs get none.'
          : 'No message is sent; rewards are still given.';
  return (
    <div className="destination-field">
      <SelectField
        id="lv-destination"
        label="Send level-up messages to"
        value={value}
        options={DESTINATION_OPTIONS}
        onChange={onChange}
        invalid={issue !== null}
        describedBy={issue ? 'lv-destination-issue' : 'lv-destination-note'}
      />
      {issue ? (
        <p id="lv-destination-issue" className="alert alert-error small" role="alert">
          {issue}
        </p>
      ) : (
        <p
          id="lv-destination-note"
          className={value === 'channel' && !channel ? 'alert alert-warning small' : 'muted small'}
        >
          {where}
        </p>
      )}
    </div>
  );
}

/** One radio per choice, each with its label and detail. */
export function ChoiceList<T extends string>({
  name,
  choices,
  text,
  value,
  onChange,
}: {
  name: string;
  choices: readonly T[];
  text: Readonly<Record<T, { label: string; detail: string }>>;
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <div className="choice-list">
      {choices.map((choice) => (
        <label key={choice} className="choice">
          <input
            type="radio"
            name={name}
            value={choice}
            checked={value === choice}
            onChange={() => onChange(choice)}
          />
          <span>
            <strong>{text[choice].label}</strong>
            <span className="muted small choice-detail">{text[choice].detail}</span>
          </span>
        </label>
      ))}
    </div>
  );
}

/** "Reward roles": how level rewards are given. */
export function RewardModeGroup({ form, set }: { form: Form; set: SetField }) {
  return (
    <fieldset className="settings-group">
      <legend>Reward roles</legend>
      <ChoiceList
        name="lv-reward-mode"
        choices={REWARD_MODES}
        text={REWARD_MODE_TEXT}
        value={form.reward_mode}
        onChange={set('reward_mode')}
      />
    </fieldset>
  );
}

/** "Public leaderboard": who may see it, and its address when it is on. */
export function LeaderboardGroup({
  guildId,
  form,
  stored,
  set,
}: {
  guildId: string;
  form: Form;
  stored: Settings;
  set: SetField;
}) {
  return (
    <fieldset className="settings-group">
      <legend>Public leaderboard</legend>
      <ChoiceList
        name="lv-leaderboard-visibility"
        choices={LEADERBOARD_VISIBILITIES}
        text={VISIBILITY_TEXT}
        value={form.leaderboard_visibility}
        onChange={set('leaderboard_visibility')}
      />
      {form.leaderboard_visibility !== 'off' ? (
        <PublicLink guildId={guildId} saved={stored.leaderboard_visibility === form.leaderboard_visibility} />
      ) : null}
    </fieldset>
  );
}

/** The public page's address, to open or share. */
function PublicLink({ guildId, saved }: { guildId: string; saved: boolean }) {
  const path = publicLeaderboardPath(guildId);
  const url = `${window.location.origin}${path}`;
  return (
    <p className="small public-link">
      {saved ? 'Public page: ' : 'Once you save, the public page is at '}
      <a href={path} target="_blank" rel="noreferrer">
        {url}
      </a>
    </p>
  );
}
