import type { HistoryEntry } from '@spacecadet/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { errorText } from '../../lib/api-error.ts';
import '../../styles/history.css';
import { SelectField } from '../../ui/Field.tsx';
import { GuildPage, usePageGuard } from '../shared/GuildPage.tsx';
import { JobProgress } from '../shared/jobs/JobProgress.tsx';
import { isJobFinished } from '../shared/jobs/job-model.ts';
import { useGuildJob } from '../shared/jobs/useGuildJob.ts';
import { queryKeys } from '../shared/queries.ts';
import { HistoryEntryItem } from './HistoryEntryItem.tsx';
import {
  ALL_AREAS,
  AREA_OPTIONS,
  type AreaFilter,
  areaFrom,
  HISTORY_EMPTY,
  HISTORY_FAILURE,
  reloadArea,
  useHistory,
} from './history-model.ts';
import { UndoDialog } from './UndoDialog.tsx';

export default function HistoryPage() {
  return (
    <GuildPage title="History" noGuild={<Navigate to="/dashboard" replace />}>
      {(guildId) => <HistoryScreen guildId={guildId} />}
    </GuildPage>
  );
}

function HistoryScreen({ guildId }: { guildId: string }) {
  const [search, setSearch] = useSearchParams();
  const area = areaFrom(search.get('area'));
  const history = useHistory(guildId, area);
  const { tracker, undoing, setUndoing, afterUndo } = useHistoryUndo(guildId);
  const now = Date.now();

  const guard = usePageGuard(guildId, history, {
    loading: 'Loading the history…',
    failure: (error) => errorText(error, HISTORY_FAILURE),
  });
  const setArea = (next: AreaFilter) =>
    setSearch((current) => {
      const params = new URLSearchParams(current);
      if (next === ALL_AREAS) params.delete('area');
      else params.set('area', next);
      return params;
    });

  const filter = (
    <SelectField
      id="history-area"
      className="history-filter"
      label="Area"
      value={area}
      options={AREA_OPTIONS}
      onChange={setArea}
    />
  );
  if (!guard.ready) {
    return (
      <>
        {filter}
        {guard.view}
      </>
    );
  }
  const entries = guard.data.pages.flatMap((page) => page.entries);

  return (
    <>
      {guard.banner}
      <div className="history-toolbar">
        {filter}
        <p className="muted small">
          Every change made from this dashboard. Settings are kept 90 days; what a reset or a prune removed
          can be brought back for 7 days.
        </p>
      </div>
      {tracker.job ? (
        <section className="card history-job" aria-label="Undo progress">
          <JobProgress job={tracker.job} />
        </section>
      ) : null}
      {entries.length === 0 ? (
        <HistoryEmpty area={area} />
      ) : (
        <HistoryList
          entries={entries}
          now={now}
          undoBusy={tracker.running}
          onUndo={setUndoing}
          hasMore={history.hasNextPage}
          loadingMore={history.isFetchingNextPage}
          onMore={() => void history.fetchNextPage()}
        />
      )}
      {undoing ? (
        <UndoDialog
          guildId={guildId}
          entry={undoing}
          onClose={() => setUndoing(null)}
          onDone={(jobId) => afterUndo(undoing, jobId)}
        />
      ) : null}
    </>
  );
}

/** The undo dialog's entry, and after an undo: the lists reloaded, and its job followed when Discord must follow it. */
function useHistoryUndo(guildId: string) {
  const queryClient = useQueryClient();
  // An undo that Discord must follow (roles recreated): its job, then the list again.
  const tracker = useGuildJob(queryKeys.history(guildId));
  const [undoing, setUndoing] = useState<HistoryEntry | null>(null);
  // The area whose pages reload when the undo's job ends.
  const [restoredArea, setRestoredArea] = useState<HistoryEntry['area'] | null>(null);
  const finished = isJobFinished(tracker.job);
  useEffect(() => {
    if (!finished || restoredArea === null) return;
    reloadArea(queryClient, guildId, restoredArea);
  }, [finished, restoredArea, guildId, queryClient]);
  const afterUndo = (entry: HistoryEntry, jobId: string | null) => {
    setUndoing(null);
    void queryClient.invalidateQueries({ queryKey: queryKeys.history(guildId) });
    reloadArea(queryClient, guildId, entry.area);
    if (jobId) {
      setRestoredArea(entry.area);
      tracker.track(jobId);
    }
  };

  return { tracker, undoing, setUndoing, afterUndo };
}

/** No entries: said for all areas or for the picked one. */
function HistoryEmpty({ area }: { area: AreaFilter }) {
  return (
    <section className="card history-empty" aria-labelledby="history-empty-title">
      <h2 id="history-empty-title">{HISTORY_EMPTY}</h2>
      <p className="muted">
        {area === ALL_AREAS
          ? 'Changes made from this dashboard (settings, resets, posts) will be listed here.'
          : 'Nothing changed in this area yet. Pick All areas to see every change.'}
      </p>
    </section>
  );
}

/** The entries, newest first (each names the entry it undid or that undid it), and Older. */
function HistoryList({
  entries,
  now,
  undoBusy,
  onUndo,
  hasMore,
  loadingMore,
  onMore,
}: {
  entries: HistoryEntry[];
  now: number;
  undoBusy: boolean;
  onUndo: (entry: HistoryEntry) => void;
  hasMore: boolean;
  loadingMore: boolean;
  onMore: () => void;
}) {
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  return (
    <section className="card history" aria-labelledby="history-title">
      <h2 id="history-title" className="sr-only">
        Changes, newest first
      </h2>
      <ol className="history-list" aria-labelledby="history-title">
        {entries.map((entry) => (
          <HistoryEntryItem
            key={entry.id}
            entry={entry}
            related={byId.get(entry.undone_by ?? entry.undo_of ?? -1)}
            now={now}
            undoBusy={undoBusy}
            onUndo={onUndo}
          />
        ))}
      </ol>
      {hasMore ? (
        <div className="history-more">
          <button type="button" className="btn btn-secondary btn-sm" disabled={loadingMore} onClick={onMore}>
            {loadingMore ? 'Loading…' : 'Older'}
          </button>
        </div>
      ) : null}
    </section>
  );
}
