import {
  LEADERBOARD_VISIBILITIES,
  type LevelingRole,
  MESSAGE_COOLDOWN_MAX_SEC,
  REWARD_MODES,
  type LevelingSettings as Settings,
  XP_PER_MESSAGE_MAX,
} from '@spacecadet/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate } from 'react-router';
import { apiCall } from '../../lib/api.ts';
import { errorText, fieldIssue } from '../../lib/api-error.ts';
import { SelectField, TextField } from '../../ui/Field.tsx';
import { ChannelPicker } from '../shared/ChannelPicker.tsx';
import { previewCall, UNDO_FROM_HISTORY, UNDO_NOTE, useConfirm } from '../shared/ConfirmDialog.tsx';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { BotNotInGuild, GuildPage, usePageGuard } from '../shared/GuildPage.tsx';
import { JobProgress } from '../shared/jobs/JobProgress.tsx';
import { JobWarnings } from '../shared/jobs/JobWarnings.tsx';
import { jobResultOf } from '../shared/jobs/job-model.ts';
import { useGuildJob } from '../shared/jobs/useGuildJob.ts';
import { ChannelMultiPicker, RoleMultiPicker } from '../shared/MultiPickers.tsx';
import { queryKeys, useChannels } from '../shared/queries.ts';
import { LevelingNav } from './LevelingNav.tsx';
import { LevelUpMessageField } from './LevelUpMessageField.tsx';
import {
  clampNotes,
  DEFAULT_SETTINGS,
  DESTINATION_OPTIONS,
  type SettingsForm as Form,
  LEVELING_CONFIRM,
  LEVELING_DONE,
  LEVELING_FAILURES,
  type NumberSetting,
  publicLeaderboardPath,
  REWARD_MODE_TEXT,
  submittedNumber,
  toForm,
  useLeveling,
  VISIBILITY_TEXT,
} from './leveling-model.ts';

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

export default function LevelingSettingsPage() {
  return (
    <GuildPage
      title="Leveling settings"
      head={(guildId) => (guildId ? <LevelingNav guildId={guildId} /> : null)}
      // Spec: with no guild given it goes to /dashboard.
      noGuild={<Navigate to="/dashboard" replace />}
    >
      {(guildId) => <SettingsScreen guildId={guildId} />}
    </GuildPage>
  );
}

function SettingsScreen({ guildId }: { guildId: string }) {
  const guard = usePageGuard(guildId, useLeveling(guildId), {
    failure: (error) => errorText(error, LEVELING_FAILURES.loadSettings),
    bot: true,
  });
  if (!guard.ready) return guard.view;
  return (
    <>
      {guard.banner}
      <SettingsForm
        guildId={guildId}
        initial={guard.data.leveling}
        roles={guard.data.roles}
        botInGuild={guard.botInGuild}
      />
    </>
  );
}

type Notes = Partial<Record<NumberSetting, string>>;

/** Fields whose 400 is said under the field itself rather than in the red box. */
const FIELD_ISSUES = [
  'announcement_channel',
  'daily_overview_channel',
  'no_xp_channels',
  'no_xp_roles',
  'level_up_message',
  'level_up_destination',
] as const;

function SettingsForm({
  guildId,
  initial,
  roles,
  botInGuild,
}: {
  guildId: string;
  initial: Settings;
  roles: readonly LevelingRole[];
  botInGuild: boolean;
}) {
  const queryClient = useQueryClient();
  const levelingKey = queryKeys.leveling(guildId);
  const [form, setForm] = useState<Form>(() => toForm(initial));
  // The settings as last stored (the page's load, a save's or a reset's answer).
  const [stored, setStored] = useState<Settings>(initial);
  // The header's switch changes `enabled` in the cache; the Save note follows it.
  const cached = useLeveling(guildId).data?.leveling.enabled;
  // Why a saved number was stored differently from what was typed (the API clamps).
  const [notes, setNotes] = useState<Notes>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const set =
    <K extends keyof Form>(key: K) =>
    (value: Form[K]) => {
      setForm((current) => ({ ...current, [key]: value }));
      if (key in notes) setNotes(({ [key as NumberSetting]: _, ...rest }) => rest);
    };
  const channels = useChannels(guildId, botInGuild);
  const channelName = (id: string) => channels.data?.channels.find((channel) => channel.id === id)?.name;
  const reload = () => queryClient.invalidateQueries({ queryKey: levelingKey });
  const tracker = useGuildJob(levelingKey);
  const confirmation = useConfirm();
  const starting = (failure: string) => ({
    onMutate: () => {
      setProblem(null);
      setDone(null);
    },
    onError: (error: unknown) => setProblem(errorText(error, failure)),
  });

  // Changing any leveling setting also sends enabled: true.
  const save = useMutation({
    mutationFn: async () => {
      const submitted = {
        xp_multiplier: submittedNumber('xp_multiplier', form.xp_multiplier),
        xp_per_message: submittedNumber('xp_per_message', form.xp_per_message),
        message_cooldown_sec: submittedNumber('message_cooldown_sec', form.message_cooldown_sec),
      };
      const saved = await apiCall('putLeveling', {
        params: { guildId },
        body: {
          enabled: true,
          ...submitted,
          announcement_channel: form.announcement_channel.trim() || null,
          daily_overview_channel: form.daily_overview_channel.trim() || null,
          no_xp_channels: form.no_xp_channels,
          no_xp_roles: form.no_xp_roles,
          level_up_message: form.level_up_message,
          // Sent when changed: a server still on the old default (channel, with none set) can save
          // its other settings; choosing "channel" without a channel is refused at this field.
          ...(form.level_up_destination !== stored.level_up_destination
            ? { level_up_destination: form.level_up_destination }
            : {}),
          reward_mode: form.reward_mode,
          leaderboard_visibility: form.leaderboard_visibility,
        },
      });
      return { submitted, saved };
    },
    onMutate: () => {
      setProblem(null);
      setDone(null);
    },
    // A refused field (a channel the bot cannot post in, a destination without its channel) is
    // said next to that field; anything else on top.
    onError: (error: unknown) => {
      if (!FIELD_ISSUES.some((key) => fieldIssue(error, key))) {
        setProblem(errorText(error, LEVELING_FAILURES.save));
      }
    },
    onSuccess: ({ submitted, saved }) => {
      // The form shows what was stored, and says so where that differs from what was typed.
      setForm(toForm(saved));
      setStored(saved);
      setNotes(clampNotes(submitted, saved));
      void reload();
    },
  });
  const afterReset = (settings: Settings, message: string) => {
    setForm(toForm(settings));
    setStored(settings);
    setNotes({});
    save.reset();
    setDone(message);
    void reload();
  };
  const resetConfig = useMutation({
    mutationFn: () => apiCall('resetLevelingConfig', { params: { guildId } }),
    ...starting(LEVELING_FAILURES.resetConfig),
    onSuccess: (settings) => afterReset(settings, LEVELING_DONE.resetConfig),
  });
  const resetAll = useMutation({
    mutationFn: () => apiCall('resetLevelingAll', { params: { guildId } }),
    ...starting(LEVELING_FAILURES.resetAll),
    onSuccess: () => afterReset(DEFAULT_SETTINGS, LEVELING_DONE.resetAll),
  });
  const job = (name: 'syncLevelingRoles' | 'resendLevelingOverview', failure: string) => ({
    mutationFn: () => apiCall(name, { params: { guildId } }),
    ...starting(failure),
    onSuccess: (accepted: { job_id: string }) => tracker.track(accepted.job_id),
  });
  const sync = useMutation(job('syncLevelingRoles', LEVELING_FAILURES.syncRoles));
  const resend = useMutation(job('resendLevelingOverview', LEVELING_FAILURES.resendOverview));

  const jobBusy = tracker.running || sync.isPending || resend.isPending;
  const resetting = resetConfig.isPending || resetAll.isPending;
  const maintenance = [
    {
      label: 'Sync Roles',
      busyLabel: 'Syncing…',
      danger: false,
      pending: sync.isPending,
      run: () => sync.mutate(),
    },
    {
      label: 'Resend Overview',
      busyLabel: 'Sending…',
      danger: false,
      pending: resend.isPending,
      run: () => resend.mutate(),
    },
    {
      label: 'Reset Config',
      busyLabel: 'Resetting…',
      danger: true,
      pending: resetConfig.isPending,
      run: () =>
        confirmation.ask({
          title: 'Reset the leveling settings?',
          question: LEVELING_CONFIRM.resetConfig,
          confirmLabel: 'Reset Config',
          undoNote: UNDO_FROM_HISTORY,
          onConfirm: () => resetConfig.mutateAsync(),
        }),
    },
    {
      label: 'Reset Leveling',
      busyLabel: 'Deleting…',
      danger: true,
      pending: resetAll.isPending,
      run: () =>
        confirmation.ask({
          title: 'Reset leveling?',
          question: LEVELING_CONFIRM.resetAll,
          confirmLabel: 'Reset Leveling',
          preview: previewCall('previewLevelingReset', { guildId }),
          undoNote: UNDO_NOTE,
          onConfirm: () => resetAll.mutateAsync(),
        }),
    },
  ];

  return (
    <>
      <ErrorBox onDismiss={() => setProblem(null)}>{problem}</ErrorBox>
      {confirmation.dialog}
      {botInGuild ? null : <BotNotInGuild guildId={guildId} />}
      <section className="card form-card" aria-label="Settings">
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
          {CHANNEL_FIELDS.map(({ key, id, label }) => {
            const issue = save.isError ? fieldIssue(save.error, key) : null;
            return (
              <div key={key} style={{ alignSelf: 'start' }}>
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
                  <p
                    id={`${id}-issue`}
                    className="alert alert-error small"
                    role="alert"
                    style={{ marginTop: 6 }}
                  >
                    {issue}
                  </p>
                ) : null}
              </div>
            );
          })}
        </div>
        <NoXpFields
          guildId={guildId}
          botInGuild={botInGuild}
          form={form}
          set={set}
          issue={(key) => (save.isError ? fieldIssue(save.error, key) : null)}
        />
        <fieldset className="settings-group">
          <legend>When a member levels up</legend>
          <LevelUpMessageField
            guildId={guildId}
            value={form.level_up_message}
            onChange={set('level_up_message')}
            roles={roles}
            rewardMode={form.reward_mode}
            issue={save.isError ? fieldIssue(save.error, 'level_up_message') : null}
          />
          <DestinationField
            value={form.level_up_destination}
            onChange={set('level_up_destination')}
            channel={
              form.announcement_channel
                ? (channelName(form.announcement_channel) ?? form.announcement_channel)
                : null
            }
            issue={save.isError ? fieldIssue(save.error, 'level_up_destination') : null}
          />
        </fieldset>
        <fieldset className="settings-group">
          <legend>Reward roles</legend>
          <div className="choice-list">
            {REWARD_MODES.map((mode) => (
              <label key={mode} className="choice">
                <input
                  type="radio"
                  name="lv-reward-mode"
                  value={mode}
                  checked={form.reward_mode === mode}
                  onChange={() => set('reward_mode')(mode)}
                />
                <span>
                  <strong>{REWARD_MODE_TEXT[mode].label}</strong>
                  <span className="muted small choice-detail">{REWARD_MODE_TEXT[mode].detail}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset className="settings-group">
          <legend>Public leaderboard</legend>
          <div className="choice-list">
            {LEADERBOARD_VISIBILITIES.map((visibility) => (
              <label key={visibility} className="choice">
                <input
                  type="radio"
                  name="lv-leaderboard-visibility"
                  value={visibility}
                  checked={form.leaderboard_visibility === visibility}
                  onChange={() => set('leaderboard_visibility')(visibility)}
                />
                <span>
                  <strong>{VISIBILITY_TEXT[visibility].label}</strong>
                  <span className="muted small choice-detail">{VISIBILITY_TEXT[visibility].detail}</span>
                </span>
              </label>
            ))}
          </div>
          {form.leaderboard_visibility !== 'off' ? (
            <PublicLink
              guildId={guildId}
              saved={stored.leaderboard_visibility === form.leaderboard_visibility}
            />
          ) : null}
        </fieldset>
        <div className="button-row">
          <button
            type="button"
            className="btn btn-primary"
            disabled={save.isPending || resetting}
            onClick={() => save.mutate()}
          >
            {save.isPending ? 'Saving…' : 'Save'}
          </button>
          {save.isSuccess ? <output className="save-note">Saved</output> : null}
          {(cached ?? stored.enabled) ? null : <span className="muted small">Saving turns leveling on.</span>}
        </div>
      </section>
      <section className="card form-card" aria-label="Maintenance">
        <div className="button-row">
          {maintenance.map(({ label, busyLabel, danger, pending, run }) => (
            <button
              key={label}
              type="button"
              className={danger ? 'btn btn-danger' : 'btn btn-secondary'}
              disabled={danger ? resetting || save.isPending : jobBusy}
              onClick={run}
            >
              {pending ? busyLabel : label}
            </button>
          ))}
          {done ? <output className="save-note">{done}</output> : null}
        </div>
        {tracker.job ? (
          <>
            <JobProgress job={tracker.job} />
            <JobWarnings warnings={jobResultOf(tracker.job)?.warnings ?? []} />
          </>
        ) : null}
      </section>
    </>
  );
}

function NoXpFields({
  guildId,
  botInGuild,
  form,
  set,
  issue,
}: {
  guildId: string;
  botInGuild: boolean;
  form: Form;
  set: <K extends keyof Form>(key: K) => (value: Form[K]) => void;
  issue: (key: 'no_xp_channels' | 'no_xp_roles') => string | null;
}) {
  const channelIssue = issue('no_xp_channels');
  const roleIssue = issue('no_xp_roles');
  return (
    <fieldset className="settings-group">
      <legend>No XP</legend>
      <p className="muted small">
        A message in one of these channels, or from a member holding one of these roles, earns no XP and
        starts no cooldown.
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
