/** The settings page's maintenance actions: sync roles, resend the overview, the two resets (asked first). */
import type { LevelingSettings as Settings } from '@spacecadet/contract';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { previewCall, UNDO_FROM_HISTORY, UNDO_NOTE, useConfirm } from '../shared/ConfirmDialog.tsx';
import { useGuildJob } from '../shared/jobs/useGuildJob.ts';
import { queryKeys } from '../shared/queries.ts';
import { DEFAULT_SETTINGS, LEVELING_CONFIRM, LEVELING_DONE, LEVELING_FAILURES } from './leveling-model.ts';

/** One maintenance button. */
export type MaintenanceAction = {
  label: string;
  busyLabel: string;
  danger: boolean;
  pending: boolean;
  run: () => void;
};

export function useLevelingMaintenance({
  guildId,
  setProblem,
  setDone,
  afterReset,
}: {
  guildId: string;
  setProblem: (problem: string | null) => void;
  setDone: (done: string | null) => void;
  afterReset: (settings: Settings, message: string) => void;
}) {
  const tracker = useGuildJob(queryKeys.leveling(guildId));
  const confirmation = useConfirm();
  const starting = (failure: string) => ({
    onMutate: () => {
      setProblem(null);
      setDone(null);
    },
    onError: (error: unknown) => setProblem(errorText(error, failure)),
  });
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

  const actions: MaintenanceAction[] = [
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
  return {
    actions,
    tracker,
    dialog: confirmation.dialog,
    jobBusy: tracker.running || sync.isPending || resend.isPending,
    resetting: resetConfig.isPending || resetAll.isPending,
  };
}

export type LevelingMaintenance = ReturnType<typeof useLevelingMaintenance>;
