import {
  MESSAGE_COOLDOWN_MAX_SEC,
  type LevelingSettings as Settings,
  XP_PER_MESSAGE_MAX,
} from '@spacecadet/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate } from 'react-router';
import { apiCall } from '../../lib/api.ts';
import { errorText, fieldIssue } from '../../lib/api-error.ts';
import { TextField } from '../../ui/Field.tsx';
import { ChannelPicker } from '../shared/ChannelPicker.tsx';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { BotNotInGuild, GuildPage, usePageGuard } from '../shared/GuildPage.tsx';
import { JobProgress } from '../shared/jobs/JobProgress.tsx';
import { JobWarnings } from '../shared/jobs/JobWarnings.tsx';
import { jobResultOf } from '../shared/jobs/job-model.ts';
import { useGuildJob } from '../shared/jobs/useGuildJob.ts';
import { queryKeys } from '../shared/queries.ts';
import { LevelingNav } from './LevelingNav.tsx';
import {
  clampNotes,
  DEFAULT_SETTINGS,
  type SettingsForm as Form,
  LEVELING_CONFIRM,
  LEVELING_DONE,
  LEVELING_FAILURES,
  type NumberSetting,
  submittedNumber,
  toForm,
  useLeveling,
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
      <SettingsForm guildId={guildId} initial={guard.data.leveling} botInGuild={guard.botInGuild} />
    </>
  );
}

type Notes = Partial<Record<NumberSetting, string>>;

function SettingsForm({
  guildId,
  initial,
  botInGuild,
}: {
  guildId: string;
  initial: Settings;
  botInGuild: boolean;
}) {
  const queryClient = useQueryClient();
  const levelingKey = queryKeys.leveling(guildId);
  const [form, setForm] = useState<Form>(() => toForm(initial));
  // Why a saved number was stored differently from what was typed (the API clamps).
  const [notes, setNotes] = useState<Notes>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const set = (key: keyof Form) => (value: string) => {
    setForm((current) => ({ ...current, [key]: value }));
    if (key in notes) setNotes(({ [key as NumberSetting]: _, ...rest }) => rest);
  };
  const reload = () => queryClient.invalidateQueries({ queryKey: levelingKey });
  const tracker = useGuildJob(levelingKey);
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
      const stored = await apiCall('putLeveling', {
        params: { guildId },
        body: {
          enabled: true,
          ...submitted,
          announcement_channel: form.announcement_channel.trim() || null,
          daily_overview_channel: form.daily_overview_channel.trim() || null,
        },
      });
      return { submitted, stored };
    },
    onMutate: () => {
      setProblem(null);
      setDone(null);
    },
    // A channel the bot cannot post in is said next to that channel; anything else on top.
    onError: (error: unknown) => {
      if (!CHANNEL_FIELDS.some(({ key }) => fieldIssue(error, key))) {
        setProblem(errorText(error, LEVELING_FAILURES.save));
      }
    },
    onSuccess: ({ submitted, stored }) => {
      // The form shows what was stored, and says so where that differs from what was typed.
      setForm(toForm(stored));
      setNotes(clampNotes(submitted, stored));
      void reload();
    },
  });
  const afterReset = (settings: Settings, message: string) => {
    setForm(toForm(settings));
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
      run: () => window.confirm(LEVELING_CONFIRM.resetConfig) && resetConfig.mutate(),
    },
    {
      label: 'Reset Leveling',
      busyLabel: 'Deleting…',
      danger: true,
      pending: resetAll.isPending,
      run: () => window.confirm(LEVELING_CONFIRM.resetAll) && resetAll.mutate(),
    },
  ];

  return (
    <>
      <ErrorBox onDismiss={() => setProblem(null)}>{problem}</ErrorBox>
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
