import { SEASON_NAME_MAX } from '@spacecadet/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { ConfirmDialog, UNDO_FROM_HISTORY } from '../shared/ConfirmDialog.tsx';
import { queryKeys } from '../shared/queries.ts';

export const END_SEASON_FAILURE = 'Failed to end the season';
export const SEASON_NAME_MISSING = 'Name the season that ends';
export const END_SEASON_WARNING =
  "Every member's XP and level go back to 0. The season's standings are kept in the hall of fame.";

/**
 * Ending the current season: its name, whether members keep their reward roles, and what it
 * does. Stays open (busy) while the API works; a refusal (409 while an XP job runs) is shown in
 * the API's words inside the dialog. After it ends, the seasons, boards and leveling reload.
 */
export function EndSeasonDialog({
  guildId,
  suggestedName,
  onClose,
  onEnded,
}: {
  guildId: string;
  suggestedName: string;
  onClose: () => void;
  onEnded: (name: string) => void;
}) {
  const queryClient = useQueryClient();
  const nameId = useId();
  const [name, setName] = useState(suggestedName);
  const [keepRewards, setKeepRewards] = useState(false);
  const [missing, setMissing] = useState(false);
  const end = useMutation({
    mutationFn: (body: { name: string; keep_rewards: boolean }) =>
      apiCall('endSeason', { params: { guildId }, body }),
    onSuccess: async (season) => {
      await Promise.all(
        [queryKeys.seasons(guildId), queryKeys.leaderboard(guildId), queryKeys.leveling(guildId)].map(
          (queryKey) => queryClient.invalidateQueries({ queryKey }),
        ),
      );
      onEnded(season.name);
    },
  });
  const confirm = () => {
    const trimmed = name.trim();
    setMissing(trimmed === '');
    if (trimmed === '') return;
    end.mutate({ name: trimmed, keep_rewards: keepRewards });
  };
  const problem = missing
    ? SEASON_NAME_MISSING
    : end.isError
      ? errorText(end.error, END_SEASON_FAILURE)
      : null;
  return (
    <ConfirmDialog
      title="End the season?"
      confirmLabel={end.isPending ? 'Ending…' : 'End season'}
      busy={end.isPending}
      onConfirm={confirm}
      onCancel={onClose}
    >
      <div className="field">
        <label htmlFor={nameId}>Season name</label>
        <input
          id={nameId}
          className="input"
          value={name}
          maxLength={SEASON_NAME_MAX}
          disabled={end.isPending}
          aria-invalid={missing || undefined}
          onChange={(event) => {
            setName(event.target.value);
            setMissing(false);
          }}
        />
      </div>
      <label className="checkbox-field">
        <input
          type="checkbox"
          checked={keepRewards}
          disabled={end.isPending}
          onChange={(event) => setKeepRewards(event.target.checked)}
        />
        Members keep their reward roles
      </label>
      <p className="alert alert-warning season-warning">
        {END_SEASON_WARNING}{' '}
        {keepRewards ? 'Reward roles stay with the members who have them.' : 'Reward roles are removed.'}
      </p>
      <p className="muted small">{UNDO_FROM_HISTORY}</p>
      {problem ? (
        <p className="alert alert-error" role="alert">
          {problem}
        </p>
      ) : null}
    </ConfirmDialog>
  );
}
