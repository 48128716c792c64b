import { type ColorRolesMode, MESSAGES } from '@spacecadet/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { apiCall } from '../../lib/api.ts';
import { SelectField } from '../../ui/Field.tsx';
import { previewCall, UNDO_NOTE, useConfirm } from '../shared/ConfirmDialog.tsx';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { BotNotInGuild } from '../shared/GuildPage.tsx';
import { JobProgress } from '../shared/jobs/JobProgress.tsx';
import { jobResultOf } from '../shared/jobs/job-model.ts';
import { useGuildJob } from '../shared/jobs/useGuildJob.ts';
import { queryKeys } from '../shared/queries.ts';
import { COLOR_RESET_CONFIRM, colorErrorText, MODE_OPTIONS } from './color-roles-model.ts';

type Action = 'generateColorRoles' | 'postColorPanel' | 'resetColorRoles';
const HINT_ID = 'color-actions-hint';

/** Mode select, Generate Roles, Post / Update Panel and Reset, with the running job's progress. */
export function ColorActions({
  guildId,
  mode,
  channelId,
  botInGuild,
  onWarnings,
}: {
  guildId: string;
  mode: ColorRolesMode;
  channelId: string | null;
  botInGuild: boolean;
  onWarnings: (warnings: string[]) => void;
}) {
  const tracker = useGuildJob(queryKeys.colorRoles(guildId));
  const confirmation = useConfirm();

  const action = useMutation({
    mutationFn: (name: Action) => apiCall(name, { params: { guildId } }),
    onSuccess: (accepted) => tracker.track(accepted.job_id),
  });
  const switchMode = useModeSwitch(guildId);

  const job = tracker.job;
  // A finished job's status keeps its identity across renders (React Query shares unchanged
  // data), so its warnings reach the page once per run.
  const warnings = useMemo(() => jobResultOf(job)?.warnings ?? [], [job]);
  useEffect(() => {
    if (warnings.length > 0) onWarnings(warnings);
  }, [warnings, onWarnings]);
  const busy = action.isPending || tracker.running;
  // Why the buttons are disabled: no bot stops them all (the page's one Bot not in guild notice
  // sits here, with the invite), no channel only Post.
  const hint = botInGuild ? (channelId ? null : MESSAGES.selectChannelFirst) : null;

  const run = (name: Action) => {
    if (name === 'postColorPanel' && !channelId) return;
    if (name === 'resetColorRoles') {
      confirmation.ask({
        title: 'Reset color roles?',
        question: COLOR_RESET_CONFIRM,
        confirmLabel: 'Reset Color Roles',
        preview: previewCall('previewColorReset', { guildId }),
        undoNote: UNDO_NOTE,
        onConfirm: () => action.mutateAsync(name),
      });
      return;
    }
    action.mutate(name);
  };

  return (
    <section className="card actions-card" aria-labelledby="actions-title">
      <h2 id="actions-title" className="sr-only">
        Actions
      </h2>
      <div className="actions-row">
        <SelectField
          id="panel-mode"
          className="mode-field"
          label="Panel mode"
          value={mode}
          options={MODE_OPTIONS}
          disabled={switchMode.isPending}
          onChange={(value) => switchMode.mutate(value)}
        />
        <ActionButtons busy={busy} botInGuild={botInGuild} channelId={channelId} hint={hint} run={run} />
      </div>
      {botInGuild ? null : <BotNotInGuild id={HINT_ID} guildId={guildId} />}
      {hint ? (
        <p id={HINT_ID} className="muted small">
          {hint}
        </p>
      ) : null}
      {job ? <JobProgress job={job} /> : null}
      {confirmation.dialog}
      <ErrorBox onDismiss={() => action.reset()}>
        {action.isError ? colorErrorText(action.error) : null}
      </ErrorBox>
      <ErrorBox onDismiss={() => switchMode.reset()}>
        {switchMode.isError ? colorErrorText(switchMode.error) : null}
      </ErrorBox>
    </section>
  );
}

/** The panel mode switch: fetches the full config, changes color_roles_mode, saves it, reloads the palette. */
function useModeSwitch(guildId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (next: ColorRolesMode) => {
      const config = await apiCall('getConfig', { params: { guildId } });
      await apiCall('putConfig', { params: { guildId }, body: { ...config.data, color_roles_mode: next } });
    },
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.colorRoles(guildId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.config(guildId) }),
      ]);
    },
  });
}

/** Generate Roles, Post / Update Panel and Reset; disabled while a job runs, described by the hint. */
function ActionButtons({
  busy,
  botInGuild,
  channelId,
  hint,
  run,
}: {
  busy: boolean;
  botInGuild: boolean;
  channelId: string | null;
  hint: string | null;
  run: (name: Action) => void;
}) {
  return (
    <div className="button-row">
      <button
        type="button"
        className="btn btn-primary"
        disabled={busy || !botInGuild}
        aria-describedby={botInGuild ? undefined : HINT_ID}
        onClick={() => run('generateColorRoles')}
      >
        Generate Roles
      </button>
      <button
        type="button"
        className="btn btn-secondary"
        disabled={busy || !botInGuild || !channelId}
        aria-describedby={hint || !botInGuild ? HINT_ID : undefined}
        onClick={() => run('postColorPanel')}
      >
        Post / Update Panel
      </button>
      <button
        type="button"
        className="btn btn-danger"
        disabled={busy || !botInGuild}
        aria-describedby={botInGuild ? undefined : HINT_ID}
        onClick={() => run('resetColorRoles')}
      >
        Reset
      </button>
    </div>
  );
}
