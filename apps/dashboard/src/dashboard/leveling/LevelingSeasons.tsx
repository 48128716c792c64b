/** The seasons page: the current season (when it started and ends), End season, and the hall of fame. */
import type { Season, SeasonList, SeasonStanding } from '@spacecadet/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import '../../styles/seasons.css';
import { GuildPage, usePageGuard } from '../shared/GuildPage.tsx';
import { MemberAvatar } from '../shared/GuildPickers.tsx';
import { queryKeys } from '../shared/queries.ts';
import { EndSeasonDialog } from './EndSeasonDialog.tsx';
import { LevelingNav } from './LevelingNav.tsx';

export const SEASONS_FAILURE = 'Failed to load the seasons';
export const SEASONS_EMPTY = 'No season has ended yet.';
export const FORMER_MEMBER = 'Former member';

const formatNumber = (value: number) => value.toLocaleString('en-US');

/** A season's date in the admin's own calendar ("March 1, 2026"). */
export function seasonDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

export default function LevelingSeasonsPage() {
  return (
    <GuildPage title="Seasons" head={(guildId) => (guildId ? <LevelingNav guildId={guildId} /> : null)}>
      {(guildId) => <SeasonsScreen guildId={guildId} />}
    </GuildPage>
  );
}

function SeasonsScreen({ guildId }: { guildId: string }) {
  const seasons = useQuery({
    queryKey: queryKeys.seasons(guildId),
    queryFn: () => apiCall('getSeasons', { params: { guildId } }),
  });
  const guard = usePageGuard(guildId, seasons, {
    loading: 'Loading the seasons…',
    failure: (error) => errorText(error, SEASONS_FAILURE),
  });
  if (!guard.ready) return guard.view;
  return (
    <>
      {guard.banner}
      <CurrentSeason guildId={guildId} list={guard.data} />
      <HallOfFame seasons={guard.data.seasons} />
    </>
  );
}

function CurrentSeason({ guildId, list }: { guildId: string; list: SeasonList }) {
  const [open, setOpen] = useState(false);
  const [ended, setEnded] = useState<string | null>(null);
  return (
    <section className="card season-current" aria-labelledby="season-current-title">
      <div className="season-current-head">
        <div>
          <h2 id="season-current-title">Current season</h2>
          <p className="muted">
            {list.current_started_at
              ? `Started ${seasonDate(list.current_started_at)}.`
              : 'Running since members first earned XP.'}{' '}
            {list.next_end_at
              ? `Ends automatically on ${seasonDate(list.next_end_at)}.`
              : 'No end is scheduled: it runs until you end it.'}
          </p>
        </div>
        <button
          type="button"
          className="btn btn-danger"
          onClick={() => {
            setEnded(null);
            setOpen(true);
          }}
        >
          End season
        </button>
      </div>
      {ended ? (
        <p className="alert alert-success" role="status">
          “{ended}” ended. XP and levels start again at 0.
        </p>
      ) : null}
      {open ? (
        <EndSeasonDialog
          guildId={guildId}
          suggestedName={`Season ${list.seasons.length + 1}`}
          onClose={() => setOpen(false)}
          onEnded={(name) => {
            setOpen(false);
            setEnded(name);
          }}
        />
      ) : null}
    </section>
  );
}

function HallOfFame({ seasons }: { seasons: readonly Season[] }) {
  return (
    <section className="card season-hall" aria-labelledby="season-hall-title">
      <h2 id="season-hall-title">Hall of fame</h2>
      {seasons.length === 0 ? (
        <p className="muted">{SEASONS_EMPTY} When a season ends, its top members are kept here.</p>
      ) : (
        <ol className="season-list">
          {seasons.map((season) => (
            <SeasonCard key={season.id} season={season} />
          ))}
        </ol>
      )}
    </section>
  );
}

function SeasonCard({ season }: { season: Season }) {
  const titleId = `season-${season.id}-title`;
  const dates = season.started_at
    ? `${seasonDate(season.started_at)} – ${seasonDate(season.ended_at)}`
    : `Ended ${seasonDate(season.ended_at)}`;
  return (
    <li className="season">
      <div className="season-head">
        <h3 id={titleId}>{season.name}</h3>
        {season.automatic ? <span className="badge badge-beta">Ended automatically</span> : null}
      </div>
      <p className="muted small season-meta">
        {dates} · {formatNumber(season.members)} {season.members === 1 ? 'member' : 'members'}
        {season.keep_rewards ? ' · reward roles kept' : ''}
      </p>
      {season.top.length > 0 ? (
        <ol className="season-top" aria-label={`${season.name}: top members`}>
          {season.top.map((standing) => (
            <StandingRow key={standing.user_id} standing={standing} />
          ))}
        </ol>
      ) : (
        <p className="muted small">Nobody earned XP this season.</p>
      )}
    </li>
  );
}

function StandingRow({ standing }: { standing: SeasonStanding }) {
  const name = standing.username?.trim() ? standing.username : null;
  return (
    <li className={standing.rank <= 3 ? `season-row is-rank-${standing.rank}` : 'season-row'}>
      <span className="season-rank">
        <span className="sr-only">Rank </span>#{standing.rank}
      </span>
      <MemberAvatar member={{ id: standing.user_id, avatar: standing.avatar }} size={32} />
      <span className={name ? 'season-name' : 'season-name is-former'}>{name ?? FORMER_MEMBER}</span>
      <span className="season-level">Level {standing.level}</span>
      <span className="season-xp">{formatNumber(standing.xp)} XP</span>
    </li>
  );
}
