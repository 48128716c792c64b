import { type ColorRolesMode, MESSAGES } from '@spacecadet/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiCall } from '../../lib/api.ts';
import { ErrorAlert, SelectField } from '../../ui/Field.tsx';
import { queryKeys } from '../queries.ts';
import { COLOR_RESET_CONFIRM, colorErrorText, jobResultOf, MODE_OPTIONS } from './color-roles-model.ts';
import { JobProgress } from './JobProgress.tsx';
import { useColorJob } from './useColorJob.ts';

type Action = 'generateColorRoles' | 'postColorPanel' | 'resetColorRoles';

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
  const queryClient = useQueryClient();
  const tracker = useColorJob(guildId);

  const action = useMutation({
    mutationFn: (name: Action) => apiCall(name, { params: { guildId } }),
    onSuccess: (accepted) => tracker.track(accepted.job_id),
  });
  // Mode toggle: fetch the full config, change color_roles_mode, save it, reload the palette.
  const switchMode = useMutation({
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

  const job = tracker.job;
  const result = jobResultOf(job);
  const warningsKey = result?.warnings?.join('\n') ?? '';
  useEffect(() => {
    if (warningsKey !== '') onWarnings(warningsKey.split('\n'));
  }, [warningsKey, onWarnings]);
  const busy = action.isPending || tracker.running;
  // Why the buttons are disabled: no bot stops them all, no channel only Post.
  const hint = botInGuild ? (channelId ? null : MESSAGES.selectChannelFirst) : MESSAGES.botNotInGuild;

  const run = (name: Action) => {
    if (name === 'postColorPanel' && !channelId) return;
    if (name === 'resetColorRoles' && !window.confirm(COLOR_RESET_CONFIRM)) return;
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
        <div className="button-row">
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy || !botInGuild}
            aria-describedby={botInGuild ? undefined : 'color-actions-hint'}
            onClick={() => run('generateColorRoles')}
          >
            Generate Roles
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={busy || !botInGuild || !channelId}
            aria-describedby={hint ? 'color-actions-hint' : undefined}
            onClick={() => run('postColorPanel')}
          >
            Post / Update Panel
          </button>
          <button
            type="button"
            className="btn btn-danger"
            disabled={busy || !botInGuild}
            aria-describedby={botInGuild ? undefined : 'color-actions-hint'}
            onClick={() => run('resetColorRoles')}
          >
            Reset
          </button>
        </div>
      </div>
      {hint ? (
        <p id="color-actions-hint" className="muted small">
          {hint}
        </p>
      ) : null}
      {job ? <JobProgress job={job} /> : null}
      {action.isError ? <ErrorAlert>{colorErrorText(action.error)}</ErrorAlert> : null}
      {switchMode.isError ? <ErrorAlert>{colorErrorText(switchMode.error)}</ErrorAlert> : null}
    </section>
  );
}
