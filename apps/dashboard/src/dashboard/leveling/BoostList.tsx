/** The Boosts card: Prune leavers (asked first, run as a job), how boosts combine, one row per boost. */
import type { Boost, GuildRole } from '@spacecadet/contract';
import { boostTarget } from '@spacecadet/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { previewCall, UNDO_NOTE, useConfirm } from '../shared/ConfirmDialog.tsx';
import { MemberName, RoleName } from '../shared/GuildPickers.tsx';
import { useMemberLookup } from '../shared/guild-lookups.ts';
import { JobProgress } from '../shared/jobs/JobProgress.tsx';
import { useGuildJob } from '../shared/jobs/useGuildJob.ts';
import { queryKeys } from '../shared/queries.ts';
import {
  BOOST_RULE,
  boostExpiryLabel,
  boostTargetLabel,
  isBoostExpired,
  PRUNE_FAILURE,
} from './boost-model.ts';
import { LEVELING_CONFIRM } from './leveling-model.ts';

/** Prune leavers: its job, its confirmation, and the leaderboard reload once it is done. */
export function usePruneLeavers(guildId: string, setProblem: (problem: string | null) => void) {
  const queryClient = useQueryClient();
  const tracker = useGuildJob(queryKeys.leveling(guildId));
  const confirmation = useConfirm();
  // Pruning leavers changes who is ranked: the leaderboard's pages reload once it is done.
  const pruned = tracker.job?.state === 'completed';
  useEffect(() => {
    if (pruned) void queryClient.invalidateQueries({ queryKey: queryKeys.leaderboard(guildId) });
  }, [pruned, guildId, queryClient]);
  const prune = useMutation({
    mutationFn: () => apiCall('pruneLeavers', { params: { guildId } }),
    onMutate: () => setProblem(null),
    onError: (error: unknown) => setProblem(errorText(error, PRUNE_FAILURE)),
    onSuccess: (accepted) => tracker.track(accepted.job_id),
  });
  const ask = () =>
    confirmation.ask({
      title: 'Prune leavers?',
      question: LEVELING_CONFIRM.prune,
      confirmLabel: 'Prune leavers',
      preview: previewCall('previewPruneLeavers', { guildId }),
      undoNote: UNDO_NOTE,
      onConfirm: () => prune.mutateAsync(),
    });
  return { tracker, dialog: confirmation.dialog, pending: prune.isPending, ask };
}

export function BoostList({
  guildId,
  boosts,
  roles,
  channels,
  prune,
  onRemove,
}: {
  guildId: string;
  boosts: readonly Boost[];
  roles: readonly GuildRole[];
  channels: ReadonlyArray<{ id: string; name: string }>;
  prune: ReturnType<typeof usePruneLeavers>;
  onRemove: (boostId: number) => void;
}) {
  const { tracker } = prune;
  return (
    <section className="card" aria-labelledby="boosts-title">
      <div className="role-list-head">
        <h2 id="boosts-title">Boosts</h2>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={prune.pending || tracker.running}
          onClick={prune.ask}
        >
          {tracker.running ? 'Pruning…' : 'Prune leavers'}
        </button>
      </div>
      <p className="muted small boost-rule">{BOOST_RULE}</p>
      {tracker.job ? <JobProgress job={tracker.job} /> : null}
      {boosts.length === 0 ? <p className="muted">No boosts</p> : null}
      <ul className="level-list">
        {boosts.map((boost) => (
          <BoostRow
            key={boost.id}
            guildId={guildId}
            boost={boost}
            roles={roles}
            channels={channels}
            onRemove={() => onRemove(boost.id)}
          />
        ))}
      </ul>
    </section>
  );
}

function BoostRow({
  guildId,
  boost,
  roles,
  channels,
  onRemove,
}: {
  guildId: string;
  boost: Boost;
  roles: readonly GuildRole[];
  channels: ReadonlyArray<{ id: string; name: string }>;
  onRemove: () => void;
}) {
  const target = boostTarget(boost.user_id);
  const member = useMemberLookup(guildId, target.kind === 'user' ? target.userId : null);
  const role = target.kind === 'role' ? roles.find((r) => r.id === target.roleId) : undefined;
  const channel = target.kind === 'channel' ? channels.find((c) => c.id === target.channelId) : undefined;
  const expired = isBoostExpired(boost);
  const label = boostTargetLabel(boost, { member, role, channel });
  return (
    <li className={expired ? 'level-item boost-expired' : 'level-item'}>
      <span className="level-badge">×{boost.multiplier}</span>
      <span className="boost-target">
        {target.kind === 'server' ? 'Server-wide' : null}
        {target.kind === 'user' ? <MemberName member={member} userId={target.userId} /> : null}
        {target.kind === 'role' ? <RoleName role={role} roleId={target.roleId} /> : null}
        {target.kind === 'channel' ? <span className="picked-name">{label}</span> : null}
      </span>
      <span className={expired ? 'muted small boost-expiry is-expired' : 'muted small boost-expiry'}>
        {boostExpiryLabel(boost)}
      </span>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        onClick={onRemove}
        aria-label={`Remove ${label} boost`}
      >
        Remove
      </button>
    </li>
  );
}
