import type { Guild, GuildDataSummary } from '@spacecadet/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { ErrorAlert, TextField } from '../../ui/Field.tsx';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { JobProgress } from '../shared/jobs/JobProgress.tsx';
import { useGuildJob } from '../shared/jobs/useGuildJob.ts';
import '../../styles/guild-data.css';

const guildDataKey = (guildId: string) => ['guild-data', guildId] as const;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "its settings, the XP of 12 members, 40 History entries and 2 role menus". */
export function whatGoes(summary: GuildDataSummary): string {
  const parts = [
    summary.settings > 0 ? 'its settings' : null,
    summary.members_with_xp > 0 ? `the XP of ${plural(summary.members_with_xp, 'member', 'members')}` : null,
    summary.history_entries > 0 ? plural(summary.history_entries, 'History entry', 'History entries') : null,
    summary.role_menus > 0 ? plural(summary.role_menus, 'role menu', 'role menus') : null,
  ].filter((part): part is string => part !== null);
  const listed =
    parts.length <= 1 ? (parts[0] ?? 'its data') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  return `${listed} (${plural(summary.total_rows, 'stored row', 'stored rows')} in all)`;
}

const longDate = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });

/**
 * The server owner's part of the overview: a server the bot was removed from says until when
 * its data is kept (a re-invite restores it), and "Delete this server's data" with a
 * confirmation that counts what goes and asks for the server's name. Nothing for other admins.
 */
export function GuildData({ guild }: { guild: Guild }) {
  const summary = useQuery({
    queryKey: guildDataKey(guild.id),
    queryFn: () => apiCall('getGuildData', { params: { guildId: guild.id } }),
  });
  if (summary.isPending) {
    return (
      <p className="muted small" role="status">
        Checking what is stored for this server…
      </p>
    );
  }
  if (summary.isError) {
    return (
      <ErrorAlert>{`Could not read what is stored for this server: ${errorText(summary.error)}`}</ErrorAlert>
    );
  }
  if (!summary.data.owner) return null;
  return <OwnerData guild={guild} summary={summary.data} />;
}

function OwnerData({ guild, summary }: { guild: Guild; summary: GuildDataSummary }) {
  const [asking, setAsking] = useState(false);
  const [typed, setTyped] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const tracker = useGuildJob(guildDataKey(guild.id));
  const remove = useMutation({
    mutationFn: () => apiCall('deleteGuildData', { params: { guildId: guild.id }, body: { confirm: typed } }),
    onSuccess: (accepted) => {
      setAsking(false);
      setTyped('');
      tracker.track(accepted.job_id);
    },
  });
  const confirm = () => {
    if (typed.trim() !== guild.name.trim()) {
      setMismatch(true);
      return;
    }
    remove.mutate();
  };
  const done = tracker.job?.state === 'completed';
  return (
    <section className="card guild-data" aria-labelledby="guild-data-title">
      <h2 id="guild-data-title" className="section-heading">
        This server&rsquo;s data
      </h2>
      {summary.departure ? (
        <p className="alert alert-warning" role="status">
          Space Cadet was removed from {guild.name}. Its data is kept until{' '}
          {longDate(summary.departure.purge_after)}: re-inviting the bot restores everything. After that date
          it is deleted.
        </p>
      ) : null}
      {done ? (
        <p className="alert alert-success" role="status">
          Everything Space Cadet stored for {guild.name} is deleted.
        </p>
      ) : summary.total_rows === 0 ? (
        <p className="muted">Space Cadet stores nothing for this server.</p>
      ) : (
        <>
          <p className="muted">
            Stored for this server: {whatGoes(summary)}. Only you, its owner, can delete it.
          </p>
          <button
            type="button"
            className="btn btn-danger btn-sm"
            disabled={tracker.running}
            onClick={() => setAsking(true)}
          >
            Delete this server&rsquo;s data…
          </button>
        </>
      )}
      {tracker.job ? <JobProgress job={tracker.job} /> : null}
      {asking ? (
        <ConfirmDialog
          title={`Delete everything stored for ${guild.name}?`}
          confirmLabel="Delete this server's data"
          busy={remove.isPending}
          onConfirm={confirm}
          onCancel={() => {
            setAsking(false);
            setMismatch(false);
            remove.reset();
          }}
        >
          <p>
            This deletes {whatGoes(summary)}. The roles and messages in Discord stay: remove them in Discord
            if you want them gone. This cannot be undone.
          </p>
          <TextField
            id="guild-data-confirm"
            label={`Type the server's name (${guild.name}) to confirm`}
            value={typed}
            autoComplete="off"
            aria-invalid={mismatch || undefined}
            onChange={(value) => {
              setTyped(value);
              setMismatch(false);
            }}
          />
          <ErrorAlert>
            {mismatch ? "That is not the server's name." : remove.isError ? errorText(remove.error) : null}
          </ErrorAlert>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
