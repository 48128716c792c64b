import type { Boost } from '@spacecadet/contract';
import { boostTarget, normalizeBoostMultiplier } from '@spacecadet/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { SelectField, TextField } from '../../ui/Field.tsx';
import { ErrorBox } from '../ErrorBox.tsx';
import { GuildPage, usePageGuard } from '../GuildPage.tsx';
import { queryKeys } from '../queries.ts';
import { AddCard } from './AddCard.tsx';
import { LevelingNav } from './LevelingNav.tsx';
import { ignoreFailure, LEVELING_CONFIRM, LEVELING_FAILURES, useLeveling } from './leveling-model.ts';

const BOOST_KINDS = [
  { value: 'server', label: 'Everyone (server-wide)' },
  { value: 'user', label: 'One member' },
  { value: 'role', label: 'Members with a role' },
] as const;

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
  return (
    <GuildPage title="XP boosts" head={(guildId) => (guildId ? <LevelingNav guildId={guildId} /> : null)}>
      {(guildId) => <BoostsScreen guildId={guildId} />}
    </GuildPage>
  );
}

function BoostsScreen({ guildId }: { guildId: string }) {
  const queryClient = useQueryClient();
  const leveling = useLeveling(guildId);
  const guard = usePageGuard(guildId, leveling, {
    failure: (error) => errorText(error, LEVELING_FAILURES.loadBoosts),
  });
  const [problem, setProblem] = useState<string | null>(null);
  const [kind, setKind] = useState<'server' | 'user' | 'role'>('server');
  const [multiplier, setMultiplier] = useState('2');
  const [targetId, setTargetId] = useState('');
  const [expires, setExpires] = useState('');
  const reload = () => queryClient.invalidateQueries({ queryKey: queryKeys.leveling(guildId) });

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
        errorText(error, kind === 'role' ? LEVELING_FAILURES.addRoleBoost : LEVELING_FAILURES.addBoost),
      ),
    onSuccess: () => reload(),
  });
  const remove = useMutation({
    mutationFn: (id: number) => apiCall('deleteBoost', { params: { guildId, boostId: id } }),
    onMutate: () => setProblem(null),
    onError: (error: unknown) => setProblem(errorText(error, LEVELING_FAILURES.deleteBoost)),
    onSuccess: () => reload(),
  });

  if (!guard.ready) return guard.view;
  const boosts = guard.data.boosts;

  return (
    <>
      {guard.banner}
      <ErrorBox onDismiss={() => setProblem(null)}>{problem}</ErrorBox>
      <AddCard
        titleId="add-boost-title"
        title="Add a boost"
        button="Add boost"
        busy={add.isPending}
        onAdd={() => add.mutate()}
      >
        <SelectField
          id="boost-kind"
          label="Applies to"
          value={kind}
          options={BOOST_KINDS}
          onChange={setKind}
        />
        {kind !== 'server' ? (
          <TextField
            id="boost-target"
            label={kind === 'role' ? 'Role ID' : 'User ID (empty: all users)'}
            inputMode="numeric"
            value={targetId}
            onChange={setTargetId}
          />
        ) : null}
        <TextField
          id="boost-multiplier"
          label="Multiplier"
          type="number"
          min={0}
          step={0.1}
          value={multiplier}
          onChange={setMultiplier}
        />
        <TextField
          id="boost-expires"
          label="Expires (optional)"
          type="datetime-local"
          value={expires}
          onChange={setExpires}
        />
      </AddCard>
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
