import type { LevelingSettings as Settings } from '@spacecadet/contract';
import { clampCooldown, clampXpPerMessage, normalizeMultiplier } from '@spacecadet/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate } from 'react-router';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { TextField } from '../../ui/Field.tsx';
import { ChannelPicker } from '../ChannelPicker.tsx';
import { ErrorBox } from '../ErrorBox.tsx';
import { BotNotInGuild, GuildPage, usePageGuard } from '../GuildPage.tsx';
import { queryKeys } from '../queries.ts';
import { LevelingNav } from './LevelingNav.tsx';
import { ignoreFailure, LEVELING_CONFIRM, LEVELING_FAILURES, useLeveling } from './leveling-model.ts';

const NUMBER_FIELDS = [
  { key: 'xp_multiplier', label: 'XP multiplier', min: 0, step: 0.1 },
  { key: 'xp_per_message', label: 'XP per message', min: 0, max: 1000, step: 1 },
  { key: 'message_cooldown_sec', label: 'Message cooldown (seconds)', min: 0, max: 600, step: 1 },
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
  const [form, setForm] = useState({
    xp_multiplier: String(initial.xp_multiplier),
    announcement_channel: initial.announcement_channel ?? '',
    daily_overview_channel: initial.daily_overview_channel ?? '',
    xp_per_message: String(initial.xp_per_message),
    message_cooldown_sec: String(initial.message_cooldown_sec),
  });
  const set = (key: keyof typeof form) => (value: string) =>
    setForm((current) => ({ ...current, [key]: value }));
  const reload = () => queryClient.invalidateQueries({ queryKey: queryKeys.leveling(guildId) });

  // Changing any leveling setting also sends enabled: true.
  const save = useMutation({
    mutationFn: () =>
      apiCall('putLeveling', {
        params: { guildId },
        body: {
          enabled: true,
          xp_multiplier: normalizeMultiplier(form.xp_multiplier),
          announcement_channel: form.announcement_channel.trim() || null,
          daily_overview_channel: form.daily_overview_channel.trim() || null,
          xp_per_message: clampXpPerMessage(form.xp_per_message),
          message_cooldown_sec: clampCooldown(form.message_cooldown_sec),
        },
      }),
    onSuccess: () => reload(),
  });
  const resetConfig = useMutation({
    mutationFn: () => apiCall('resetLevelingConfig', { params: { guildId } }),
    onSettled: () => reload(),
  });
  const resetAll = useMutation({
    mutationFn: () => apiCall('resetLevelingAll', { params: { guildId } }),
    onSettled: () => reload(),
  });

  // Sync and resend are fire-and-forget; the resets ask first.
  const maintenance = [
    {
      label: 'Sync Roles',
      danger: false,
      run: () => ignoreFailure(apiCall('syncLevelingRoles', { params: { guildId } })),
    },
    {
      label: 'Resend Overview',
      danger: false,
      run: () => ignoreFailure(apiCall('resendLevelingOverview', { params: { guildId } })),
    },
    {
      label: 'Reset Config',
      danger: true,
      run: () => window.confirm(LEVELING_CONFIRM.resetConfig) && resetConfig.mutate(),
    },
    {
      label: 'Reset Leveling',
      danger: true,
      run: () => window.confirm(LEVELING_CONFIRM.resetAll) && resetAll.mutate(),
    },
  ];

  return (
    <>
      <ErrorBox onDismiss={() => save.reset()}>
        {save.isError ? errorText(save.error, LEVELING_FAILURES.save) : null}
      </ErrorBox>
      {botInGuild ? null : <BotNotInGuild guildId={guildId} />}
      <section className="card form-card" aria-label="Settings">
        <div className="form-grid">
          {NUMBER_FIELDS.map(({ key, ...attrs }) => (
            <TextField
              key={key}
              id={`lv-${key}`}
              type="number"
              value={form[key]}
              onChange={set(key)}
              {...attrs}
            />
          ))}
          {CHANNEL_FIELDS.map(({ key, id, label }) => (
            <ChannelPicker
              key={key}
              id={id}
              label={label}
              guildId={guildId}
              botInGuild={botInGuild}
              emptyLabel="None"
              value={form[key]}
              onChange={set(key)}
            />
          ))}
        </div>
        <div className="button-row">
          <button
            type="button"
            className="btn btn-primary"
            disabled={save.isPending}
            onClick={() => save.mutate()}
          >
            {save.isPending ? 'Saving…' : 'Save'}
          </button>
          {save.isSuccess ? <output className="save-note">Saved</output> : null}
        </div>
      </section>
      <section className="card form-card" aria-label="Maintenance">
        <div className="button-row">
          {maintenance.map(({ label, danger, run }) => (
            <button
              key={label}
              type="button"
              className={danger ? 'btn btn-danger' : 'btn btn-secondary'}
              onClick={run}
            >
              {label}
            </button>
          ))}
        </div>
      </section>
    </>
  );
}
