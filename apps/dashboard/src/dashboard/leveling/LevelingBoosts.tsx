import type { Boost, GuildRole, MemberSummary } from '@spacecadet/contract';
import { boostTarget, normalizeBoostMultiplier } from '@spacecadet/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { ChannelPicker } from '../shared/ChannelPicker.tsx';
import '../../styles/leveling-boosts.css';
import { SelectField, TextField } from '../../ui/Field.tsx';
import { previewCall, UNDO_NOTE, useConfirm } from '../shared/ConfirmDialog.tsx';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { GuildPage, usePageGuard } from '../shared/GuildPage.tsx';
import { MemberName, MemberPicker, RoleName, RolePicker } from '../shared/GuildPickers.tsx';
import { useGuildRoles, useMemberLookup } from '../shared/guild-lookups.ts';
import { JobProgress } from '../shared/jobs/JobProgress.tsx';
import { useGuildJob } from '../shared/jobs/useGuildJob.ts';
import { queryKeys, useBotInGuild, useChannels } from '../shared/queries.ts';
import { AddCard } from './AddCard.tsx';
import { LevelingNav } from './LevelingNav.tsx';
import { boostStoredNote, LEVELING_CONFIRM, LEVELING_FAILURES, useLeveling } from './leveling-model.ts';

const BOOST_KINDS = [
  { value: 'server', label: 'Everyone (server-wide)' },
  { value: 'user', label: 'One member' },
  { value: 'role', label: 'Members with a role' },
  { value: 'channel', label: 'Messages in a channel' },
] as const;
type BoostKind = (typeof BOOST_KINDS)[number]['value'];

const DEFAULT_MULTIPLIER = '2';
export const PRUNE_FAILURE = 'Failed to start Prune leavers';
export const ADD_CHANNEL_BOOST_FAILURE = 'Failed to add channel boost';
/** How boosts combine (core's `activeBoostMultiplier`), said once above the list. */
export const BOOST_RULE =
  "A message earns with the member's largest boost (server-wide, their own or one of their roles') times its channel's boost.";

/** The boost's target in words: the member's or role's name when known, else its id. */
export function boostTargetLabel(
  boost: Pick<Boost, 'user_id'>,
  names: {
    member?: Pick<MemberSummary, 'display_name'> | undefined;
    role?: Pick<GuildRole, 'name'> | undefined;
    channel?: { name: string } | undefined;
  } = {},
): string {
  const target = boostTarget(boost.user_id);
  if (target.kind === 'server') return 'Server-wide';
  if (target.kind === 'user') return names.member ? names.member.display_name : `User ${target.userId}`;
  if (target.kind === 'channel') {
    return names.channel ? `Channel #${names.channel.name}` : `Channel ${target.channelId}`;
  }
  return names.role ? `Role ${names.role.name}` : `Role ${target.roleId}`;
}

export function isBoostExpired(boost: Pick<Boost, 'expires_at'>, now: number = Date.now()): boolean {
  return boost.expires_at !== null && new Date(boost.expires_at).getTime() <= now;
}

export function boostExpiryLabel(boost: Pick<Boost, 'expires_at'>, now: number = Date.now()): string {
  if (!boost.expires_at) return 'Permanent';
  const when = new Date(boost.expires_at).toLocaleString();
  return isBoostExpired(boost, now) ? `Expired ${when}` : `Expires ${when}`;
}

/** `datetime-local` gives local time without a zone; the API wants an ISO timestamp or null. */
function isoOrNull(local: string): string | null {
  if (local.trim() === '') return null;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** Now as a `datetime-local` value (local time, minutes), the earliest expiry the form offers. */
function localNow(): string {
  const now = new Date();
  now.setSeconds(0, 0);
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
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
  const roles = useGuildRoles(guildId);
  const inGuild = useBotInGuild(guildId);
  const botInGuild = inGuild.data === true;
  const channels = useChannels(guildId, botInGuild);
  // What the last added boost was stored as, when that is not what was typed.
  const [storedNote, setStoredNote] = useState<string | null>(null);
  const tracker = useGuildJob(queryKeys.leveling(guildId));
  const confirmation = useConfirm();
  const [problem, setProblem] = useState<string | null>(null);
  const [kind, setKind] = useState<BoostKind>('server');
  const [multiplier, setMultiplier] = useState(DEFAULT_MULTIPLIER);
  const [targetId, setTargetId] = useState('');
  const [expires, setExpires] = useState('');
  const reload = () => queryClient.invalidateQueries({ queryKey: queryKeys.leveling(guildId) });

  // Pruning leavers changes who is ranked: the leaderboard's pages reload once it is done.
  const pruned = tracker.job?.state === 'completed';
  useEffect(() => {
    if (pruned) void queryClient.invalidateQueries({ queryKey: queryKeys.leaderboard(guildId) });
  }, [pruned, guildId, queryClient]);

  // Adding a boost also forces leveling on.
  const add = useMutation({
    mutationFn: async () => {
      const typed = multiplier;
      const common = { multiplier: normalizeBoostMultiplier(typed), expires_at: isoOrNull(expires) };
      let boost: Boost;
      if (kind === 'role') {
        boost = await apiCall('createRoleBoost', {
          params: { guildId },
          body: { ...common, role_id: targetId.trim() },
        });
      } else if (kind === 'channel') {
        boost = await apiCall('createChannelBoost', {
          params: { guildId },
          body: { ...common, channel_id: targetId.trim() },
        });
      } else {
        const userId = kind === 'user' && targetId.trim() !== '' ? targetId.trim() : null;
        boost = await apiCall('createBoost', { params: { guildId }, body: { ...common, user_id: userId } });
      }
      await apiCall('putLeveling', { params: { guildId }, body: { enabled: true } });
      return { typed, boost };
    },
    onMutate: () => {
      setProblem(null);
      setStoredNote(null);
    },
    onError: (error: unknown) =>
      setProblem(
        errorText(
          error,
          kind === 'role'
            ? LEVELING_FAILURES.addRoleBoost
            : kind === 'channel'
              ? ADD_CHANNEL_BOOST_FAILURE
              : LEVELING_FAILURES.addBoost,
        ),
      ),
    onSuccess: ({ typed, boost }) => {
      setStoredNote(boostStoredNote(typed, boost.multiplier));
      // The kind stays: adding several boosts of one kind is the common case.
      setTargetId('');
      setMultiplier(DEFAULT_MULTIPLIER);
      setExpires('');
      return reload();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => apiCall('deleteBoost', { params: { guildId, boostId: id } }),
    onMutate: () => setProblem(null),
    onError: (error: unknown) => setProblem(errorText(error, LEVELING_FAILURES.deleteBoost)),
    onSuccess: () => reload(),
  });
  const prune = useMutation({
    mutationFn: () => apiCall('pruneLeavers', { params: { guildId } }),
    onMutate: () => setProblem(null),
    onError: (error: unknown) => setProblem(errorText(error, PRUNE_FAILURE)),
    onSuccess: (accepted) => tracker.track(accepted.job_id),
  });

  if (!guard.ready) return guard.view;
  const boosts = guard.data.boosts;
  const roleList = roles.data?.roles ?? [];

  return (
    <>
      {guard.banner}
      <ErrorBox onDismiss={() => setProblem(null)}>{problem}</ErrorBox>
      {confirmation.dialog}
      <AddCard
        titleId="add-boost-title"
        title="Add a boost"
        button={add.isPending ? 'Adding…' : 'Add boost'}
        busy={add.isPending}
        onAdd={() => add.mutate()}
      >
        <SelectField
          id="boost-kind"
          label="Applies to"
          value={kind}
          options={BOOST_KINDS}
          onChange={(next) => {
            setKind(next);
            setTargetId('');
          }}
        />
        {kind === 'user' ? (
          <MemberPicker
            key="member"
            id="boost-target"
            label="Member (empty: all users)"
            guildId={guildId}
            value={targetId}
            onChange={setTargetId}
          />
        ) : null}
        {kind === 'channel' ? (
          <ChannelPicker
            key="channel"
            id="boost-target"
            label="Channel"
            guildId={guildId}
            botInGuild={botInGuild}
            value={targetId}
            onChange={setTargetId}
          />
        ) : null}
        {kind === 'role' ? (
          <RolePicker
            key="role"
            id="boost-target"
            label="Role"
            guildId={guildId}
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
          onChange={(value) => {
            setMultiplier(value);
            setStoredNote(null);
          }}
        />
        <TextField
          id="boost-expires"
          label="Expires (optional)"
          type="datetime-local"
          min={localNow()}
          value={expires}
          onChange={setExpires}
        />
      </AddCard>
      {storedNote ? (
        <p className="alert alert-warning small" role="status">
          {storedNote}
        </p>
      ) : null}
      <section className="card" aria-labelledby="boosts-title">
        <div className="role-list-head">
          <h2 id="boosts-title">Boosts</h2>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={prune.isPending || tracker.running}
            onClick={() =>
              confirmation.ask({
                title: 'Prune leavers?',
                question: LEVELING_CONFIRM.prune,
                confirmLabel: 'Prune leavers',
                preview: previewCall('previewPruneLeavers', { guildId }),
                undoNote: UNDO_NOTE,
                onConfirm: () => prune.mutateAsync(),
              })
            }
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
              roles={roleList}
              channels={channels.data?.channels ?? []}
              onRemove={() => remove.mutate(boost.id)}
            />
          ))}
        </ul>
      </section>
    </>
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
