import type { Boost } from '@spacecadet/contract';
import { boostTarget, normalizeBoostMultiplier } from '@spacecadet/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { PageLoading } from '../../ui/PageLoading.tsx';
import { useGuildParam } from '../guild-param.ts';
import { LevelingNav } from './LevelingNav.tsx';
import {
  ignoreFailure,
  LEVELING_CONFIRM,
  LEVELING_FAILURES,
  levelingErrorText,
  levelingKey,
  useLeveling,
} from './leveling-model.ts';

export function boostTargetLabel(boost: Pick<Boost, 'user_id'>): string {
  const target = boostTarget(boost.user_id);
  if (target.kind === 'server') return 'Server-wide';
  return target.kind === 'user' ? `User ${target.userId}` : `Role ${target.roleId}`;
}

export function boostExpiryLabel(boost: Pick<Boost, 'expires_at'>): string {
  return boost.expires_at ? `Expires ${new Date(boost.expires_at).toLocaleString()}` : 'Permanent';
}

/** `datetime-local` gives local time without a zone; the API wants an ISO timestamp or null. */
function isoOrNull(local: string): string | null {
  if (local.trim() === '') return null;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

export default function LevelingBoostsPage() {
  const guildId = useGuildParam();
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-head">
        <h1 id="page-title">XP boosts</h1>
        {guildId ? <LevelingNav guildId={guildId} /> : null}
      </div>
      {guildId ? <BoostsScreen key={guildId} guildId={guildId} /> : <p className="muted">Pick a server.</p>}
    </section>
  );
}

function BoostsScreen({ guildId }: { guildId: string }) {
  const queryClient = useQueryClient();
  const leveling = useLeveling(guildId);
  const [problem, setProblem] = useState<string | null>(null);
  const [kind, setKind] = useState<'server' | 'user' | 'role'>('server');
  const [multiplier, setMultiplier] = useState('2');
  const [targetId, setTargetId] = useState('');
  const [expires, setExpires] = useState('');
  const reload = () => queryClient.invalidateQueries({ queryKey: levelingKey(guildId) });

  // Adding a boost also forces leveling on.
  const add = useMutation({
    mutationFn: async () => {
      const common = { multiplier: normalizeBoostMultiplier(multiplier), expires_at: isoOrNull(expires) };
      if (kind === 'role') {
        await apiCall('createRoleBoost', {
          params: { guildId },
          body: { ...common, role_id: targetId.trim() },
        });
      } else {
        const userId = kind === 'user' && targetId.trim() !== '' ? targetId.trim() : null;
        await apiCall('createBoost', { params: { guildId }, body: { ...common, user_id: userId } });
      }
      await apiCall('putLeveling', { params: { guildId }, body: { enabled: true } });
    },
    onMutate: () => setProblem(null),
    onError: (error: unknown) =>
      setProblem(
        levelingErrorText(
          error,
          kind === 'role' ? LEVELING_FAILURES.addRoleBoost : LEVELING_FAILURES.addBoost,
        ),
      ),
    onSuccess: () => reload(),
  });
  const remove = useMutation({
    mutationFn: (id: number) => apiCall('deleteBoost', { params: { guildId, boostId: id } }),
    onMutate: () => setProblem(null),
    onError: (error: unknown) => setProblem(levelingErrorText(error, LEVELING_FAILURES.deleteBoost)),
    onSuccess: () => reload(),
  });

  if (leveling.isPending) return <PageLoading />;
  if (leveling.isError) {
    return (
      <p className="alert alert-error" role="alert">
        {levelingErrorText(leveling.error, LEVELING_FAILURES.loadBoosts)}
      </p>
    );
  }
  const boosts = leveling.data.boosts;

  return (
    <>
      {problem ? (
        <p className="alert alert-error" role="alert">
          {problem}
        </p>
      ) : null}
      <section className="card form-card" aria-labelledby="add-boost-title">
        <h2 id="add-boost-title">Add a boost</h2>
        <div className="form-grid">
          <div className="field">
            <label htmlFor="boost-kind">Applies to</label>
            <select
              id="boost-kind"
              className="select"
              value={kind}
              onChange={(event) => setKind(event.target.value as 'server' | 'user' | 'role')}
            >
              <option value="server">Everyone (server-wide)</option>
              <option value="user">One member</option>
              <option value="role">Members with a role</option>
            </select>
          </div>
          {kind !== 'server' ? (
            <div className="field">
              <label htmlFor="boost-target">
                {kind === 'role' ? 'Role ID' : 'User ID (empty: all users)'}
              </label>
              <input
                id="boost-target"
                className="input"
                inputMode="numeric"
                value={targetId}
                onChange={(event) => setTargetId(event.target.value)}
              />
            </div>
          ) : null}
          <div className="field">
            <label htmlFor="boost-multiplier">Multiplier</label>
            <input
              id="boost-multiplier"
              className="input"
              type="number"
              min={0}
              step={0.1}
              value={multiplier}
              onChange={(event) => setMultiplier(event.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="boost-expires">Expires (optional)</label>
            <input
              id="boost-expires"
              className="input"
              type="datetime-local"
              value={expires}
              onChange={(event) => setExpires(event.target.value)}
            />
          </div>
        </div>
        <button
          type="button"
          className="btn btn-primary"
          disabled={add.isPending}
          onClick={() => add.mutate()}
        >
          Add boost
        </button>
      </section>
      <section className="card" aria-labelledby="boosts-title">
        <div className="role-list-head">
          <h2 id="boosts-title">Boosts</h2>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() =>
              window.confirm(LEVELING_CONFIRM.prune) &&
              ignoreFailure(apiCall('pruneLeavers', { params: { guildId } }))
            }
          >
            Prune leavers
          </button>
        </div>
        {boosts.length === 0 ? <p className="muted">No boosts</p> : null}
        <ul className="level-list">
          {boosts.map((boost) => (
            <li key={boost.id} className="level-item">
              <span className="level-badge">×{boost.multiplier}</span>
              <span>{boostTargetLabel(boost)}</span>
              <span className="muted small">{boostExpiryLabel(boost)}</span>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => remove.mutate(boost.id)}
                aria-label={`Remove ${boostTargetLabel(boost)} boost`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
