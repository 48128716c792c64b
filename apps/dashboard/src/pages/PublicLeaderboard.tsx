/**
 * A server's public leaderboard, `/leaderboard/{guildId}`: outside the dashboard, no sign-in
 * unless the server shows it to its members only. Its own small chunk (no query library, no
 * dashboard CSS), sized lazy avatars: members open it on their phones.
 */
import type { LeaderboardMember, LeaderboardPeriod, PublicLeaderboard } from '@spacecadet/contract';
import { useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { apiCall } from '../lib/api.ts';
import { errorText, isApiError } from '../lib/api-error.ts';
import { avatarUrl, guildIconUrl } from '../lib/cdn.ts';
import { startSignIn } from '../lib/oauth.ts';
import '../styles/public-leaderboard.css';
import { Pager } from '../ui/Pager.tsx';
import { PeriodPicker, periodEmpty, periodFrom, withPage, withPeriod } from '../ui/PeriodPicker.tsx';

export const PUBLIC_PAGE_SIZE = 25;
export const PUBLIC_LEADERBOARD_TEXT = {
  loading: 'Loading the leaderboard…',
  notPublic: 'This leaderboard is not public',
  notPublicDetail: "The server's admins have not made its leaderboard public.",
  signIn: 'Sign in to see this leaderboard',
  signInDetail: 'This server shows its leaderboard to its members. Sign in with Discord to see it.',
  notMember: 'Members only',
  notMemberDetail: 'This server shows its leaderboard to its members, and you are not one of them.',
  empty: periodEmpty('all'),
  failed: 'Failed to load the leaderboard',
} as const;

type State =
  | { kind: 'loading' }
  | { kind: 'ready'; board: PublicLeaderboard }
  | { kind: 'not-public' }
  | { kind: 'sign-in' }
  | { kind: 'not-member' }
  | { kind: 'error'; message: string };

function pageFrom(raw: string | null): number {
  const page = Number(raw);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

const formatNumber = (value: number) => value.toLocaleString('en-US');

export default function PublicLeaderboardPage() {
  const { guildId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const page = pageFrom(search.get('page'));
  const period = periodFrom(search.get('period'));
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setState((current) => (current.kind === 'ready' ? current : { kind: 'loading' }));
    apiCall('getPublicLeaderboard', {
      params: { guildId },
      query: {
        limit: PUBLIC_PAGE_SIZE,
        offset: (page - 1) * PUBLIC_PAGE_SIZE,
        // All time is the API's default: its request stays as it was.
        ...(period === 'all' ? {} : { period }),
      },
      withSession: true,
      signal: controller.signal,
    }).then(
      (board) => setState({ kind: 'ready', board }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const status = isApiError(error) ? error.status : 0;
        if (status === 404) setState({ kind: 'not-public' });
        else if (status === 401) setState({ kind: 'sign-in' });
        else if (status === 403) setState({ kind: 'not-member' });
        else setState({ kind: 'error', message: errorText(error, PUBLIC_LEADERBOARD_TEXT.failed) });
      },
    );
    return () => controller.abort();
  }, [guildId, page, period, attempt]);

  useEffect(() => {
    if (state.kind === 'ready') document.title = `${state.board.guild.name} · Leaderboard`;
  }, [state]);

  const goTo = (next: number) => setSearch((current) => withPage(current, next));
  const pickPeriod = (next: LeaderboardPeriod) => setSearch((current) => withPeriod(current, next));

  return (
    <main className="plb">
      {state.kind === 'ready' ? (
        <Board board={state.board} page={page} period={period} onPage={goTo} onPeriod={pickPeriod} />
      ) : (
        <BoardState state={state} onRetry={() => setAttempt((n) => n + 1)} />
      )}
      {/* Drawn once the page has its content: a footer that moved down as rows arrived would be a layout shift. */}
      {state.kind === 'loading' ? null : (
        <footer className="plb-footer small muted">
          <Link to="/">Space Cadet</Link>
        </footer>
      )}
    </main>
  );
}

/** What the page says instead of the board: loading, not public, sign in, not a member, or the failure. */
function BoardState({ state, onRetry }: { state: State; onRetry: () => void }) {
  return (
    <section className="plb-state" aria-live="polite">
      {state.kind === 'loading' ? <p className="muted">{PUBLIC_LEADERBOARD_TEXT.loading}</p> : null}
      {state.kind === 'not-public' ? (
        <>
          <h1>{PUBLIC_LEADERBOARD_TEXT.notPublic}</h1>
          <p className="muted">{PUBLIC_LEADERBOARD_TEXT.notPublicDetail}</p>
        </>
      ) : null}
      {state.kind === 'sign-in' ? (
        <>
          <h1>{PUBLIC_LEADERBOARD_TEXT.signIn}</h1>
          <p className="muted">{PUBLIC_LEADERBOARD_TEXT.signInDetail}</p>
          <button
            type="button"
            className="btn btn-discord"
            onClick={() => void startSignIn(`${window.location.pathname}${window.location.search}`)}
          >
            Sign in
          </button>
        </>
      ) : null}
      {state.kind === 'not-member' ? (
        <>
          <h1>{PUBLIC_LEADERBOARD_TEXT.notMember}</h1>
          <p className="muted">{PUBLIC_LEADERBOARD_TEXT.notMemberDetail}</p>
        </>
      ) : null}
      {state.kind === 'error' ? (
        <>
          <h1>{PUBLIC_LEADERBOARD_TEXT.failed}</h1>
          <p className="alert alert-error" role="alert">
            {state.message}
          </p>
          <button type="button" className="btn btn-secondary" onClick={onRetry}>
            Try again
          </button>
        </>
      ) : null}
    </section>
  );
}

function Board({
  board,
  page,
  period,
  onPage,
  onPeriod,
}: {
  board: PublicLeaderboard;
  page: number;
  period: LeaderboardPeriod;
  onPage: (page: number) => void;
  onPeriod: (period: LeaderboardPeriod) => void;
}) {
  const { guild, members, total } = board;
  // The board of the period just left stays (dimmed) until the picked one arrives.
  const stale = board.period !== period;
  const icon = guildIconUrl(guild);
  const pages = Math.max(1, Math.ceil(total / PUBLIC_PAGE_SIZE));
  return (
    <>
      <header className="plb-head">
        {icon ? (
          <img className="plb-icon" src={icon} alt="" width={56} height={56} />
        ) : (
          <span className="plb-icon plb-icon-letter" aria-hidden="true">
            {guild.name.slice(0, 1).toUpperCase()}
          </span>
        )}
        <div>
          <h1>{guild.name}</h1>
          <p className="muted small">
            Leaderboard · {formatNumber(total)} {total === 1 ? 'member' : 'members'} ranked
          </p>
        </div>
      </header>
      <PeriodPicker className="plb-period" period={period} onPick={onPeriod} />
      {total === 0 ? (
        <p className="plb-empty muted">{periodEmpty(board.period)}</p>
      ) : members.length === 0 ? (
        <p className="plb-empty muted">
          No members on this page.{' '}
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => onPage(1)}>
            Back to the first page
          </button>
        </p>
      ) : (
        <ol
          className={stale ? 'plb-list is-loading' : 'plb-list'}
          aria-label="Ranked members"
          aria-busy={stale}
        >
          {members.map((member, index) => (
            <Row key={member.user_id} member={member} eager={page === 1 && index < 8} />
          ))}
        </ol>
      )}
      <Pager className="plb-pages" page={page} pages={pages} onPage={onPage}>
        <span className="small muted">
          Page {page} of {pages}
        </span>
      </Pager>
    </>
  );
}

function Row({ member, eager }: { member: LeaderboardMember; eager: boolean }) {
  const name = member.username?.trim() ? member.username : `Member ${member.user_id}`;
  const percent =
    member.xp_for_next > 0 ? Math.min(100, Math.round((member.xp_into_level / member.xp_for_next) * 100)) : 0;
  return (
    <li className={member.rank <= 3 ? `plb-row is-rank-${member.rank}` : 'plb-row'}>
      <span className="plb-rank">
        <span className="sr-only">Rank </span>#{member.rank}
      </span>
      <img
        className="plb-avatar"
        src={avatarUrl({ id: member.user_id, avatar: member.avatar })}
        alt=""
        width={40}
        height={40}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
      />
      <div className="plb-main">
        <span className="plb-name">{name}</span>
        <span
          className="plb-bar"
          role="img"
          aria-label={`${percent}% of the way to level ${member.level + 1}`}
        >
          <span className="plb-fill" style={{ width: `${percent}%` }} />
        </span>
      </div>
      <span className="plb-level">
        <span className="small muted">Level</span> {member.level}
      </span>
    </li>
  );
}
