import type { LeaderboardMember, LeaderboardPeriod } from '@spacecadet/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { apiCall, apiText } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import '../../styles/leaderboard.css';
import { download } from '../../lib/download.ts';
import { Pager } from '../../ui/Pager.tsx';
import { PeriodPicker, periodEmpty, periodFrom, withPage, withPeriod } from '../../ui/PeriodPicker.tsx';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { GuildPage, usePageGuard } from '../shared/GuildPage.tsx';
import { MemberAvatar } from '../shared/GuildPickers.tsx';
import { queryKeys } from '../shared/queries.ts';
import { LeaderboardRowMenu } from './LeaderboardRowMenu.tsx';
import { LevelingNav } from './LevelingNav.tsx';
import { XpImportCard } from './XpImportCard.tsx';

export const LEADERBOARD_PAGE_SIZE = 25;
export const LEADERBOARD_FAILURE = 'Failed to load the leaderboard';
/** The all-time board's empty state, as the bot's /leaderboard says it. */
export const LEADERBOARD_EMPTY = periodEmpty('all');
export const EXPORT_FAILURE = 'Failed to export the leaderboard';

/** Export CSV: every ranked member (user_id,username,xp,level,rank), downloaded as a file. */
function ExportButton({ guildId }: { guildId: string }) {
  const exported = useMutation({
    mutationFn: () => apiText('exportXp', { params: { guildId } }),
    onSuccess: (csv) => download(csv, `leaderboard-${guildId}.csv`, 'text/csv'),
  });
  return (
    <>
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        disabled={exported.isPending}
        onClick={() => exported.mutate()}
      >
        {exported.isPending ? 'Exporting…' : 'Export CSV'}
      </button>
      {exported.isError ? (
        <ErrorBox onDismiss={() => exported.reset()}>{errorText(exported.error, EXPORT_FAILURE)}</ErrorBox>
      ) : null}
    </>
  );
}

/** The member's stored name; their id when the bot never saw one. */
export function leaderboardName(member: Pick<LeaderboardMember, 'username' | 'user_id'>): string {
  return member.username?.trim() ? member.username : member.user_id;
}

/** 1-based page from `?page=`; anything else is page 1. */
function pageFrom(raw: string | null): number {
  const page = Number(raw);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

const formatNumber = (value: number) => value.toLocaleString('en-US');

export default function LevelingLeaderboardPage() {
  return (
    <GuildPage title="Leaderboard" head={(guildId) => (guildId ? <LevelingNav guildId={guildId} /> : null)}>
      {(guildId) => <LeaderboardScreen guildId={guildId} />}
    </GuildPage>
  );
}

function LeaderboardScreen({ guildId }: { guildId: string }) {
  const [search, setSearch] = useSearchParams();
  const page = pageFrom(search.get('page'));
  const period = periodFrom(search.get('period'));
  const offset = (page - 1) * LEADERBOARD_PAGE_SIZE;
  const board = useQuery({
    queryKey: queryKeys.leaderboard(guildId, { period, limit: LEADERBOARD_PAGE_SIZE, offset }),
    queryFn: () =>
      apiCall('getLeaderboard', {
        params: { guildId },
        // All time is the API's default: its link and request stay as they were.
        query: { limit: LEADERBOARD_PAGE_SIZE, offset, ...(period === 'all' ? {} : { period }) },
      }),
    // The page being left stays on screen (dimmed) until the next one arrives.
    placeholderData: keepPreviousData,
  });
  const guard = usePageGuard(guildId, board, {
    loading: 'Loading the leaderboard…',
    failure: (error) => errorText(error, LEADERBOARD_FAILURE),
  });
  if (!guard.ready) return guard.view;
  const { members, total } = guard.data;
  const pages = Math.max(1, Math.ceil(total / LEADERBOARD_PAGE_SIZE));
  const goTo = (next: number) => setSearch((current) => withPage(current, next));
  const picker = (
    <PeriodPicker
      className="leaderboard-period"
      period={period}
      onPick={(next) => setSearch((current) => withPeriod(current, next))}
    />
  );

  if (total === 0) {
    return (
      <>
        {guard.banner}
        {picker}
        <EmptyBoard period={period} loading={board.isPlaceholderData} />
        <XpImportCard guildId={guildId} />
      </>
    );
  }

  // From the rows shown: while the next page loads, the last one stays (dimmed) with its numbers.
  const first = members[0]?.rank ?? offset + 1;
  const last = members.at(-1)?.rank ?? offset;
  return (
    <>
      {guard.banner}
      {picker}
      <section
        className={board.isPlaceholderData ? 'card leaderboard is-loading' : 'card leaderboard'}
        aria-labelledby="leaderboard-title"
        aria-busy={board.isPlaceholderData}
      >
        <div className="role-list-head">
          <h2 id="leaderboard-title">Top members</h2>
          <span className="muted small">
            {formatNumber(total)} {total === 1 ? 'member' : 'members'} ranked
          </span>
          <ExportButton guildId={guildId} />
        </div>
        {members.length === 0 ? (
          <p className="muted">
            No members on this page.{' '}
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => goTo(1)}>
              Back to the first page
            </button>
          </p>
        ) : (
          <ol className="level-list leaderboard-list" aria-labelledby="leaderboard-title">
            {members.map((member) => (
              <LeaderboardRow
                key={member.user_id}
                guildId={guildId}
                member={member}
                // A week's or month's XP is a slice: Set XP starts from the XP it would replace.
                tools={period === 'all' || period === 'season'}
              />
            ))}
          </ol>
        )}
        <Pager className="leaderboard-pages" page={page} pages={pages} onPage={goTo}>
          <span className="muted small" aria-live="polite">
            {members.length > 0
              ? `${formatNumber(first)}–${formatNumber(last)} of ${formatNumber(total)} · `
              : ''}
            Page {page} of {pages}
          </span>
        </Pager>
      </section>
      <XpImportCard guildId={guildId} />
    </>
  );
}

/** No one on the period's board: all time explains how XP is earned; a period says so in the bot's words. */
function EmptyBoard({ period, loading }: { period: LeaderboardPeriod; loading: boolean }) {
  return (
    <section
      className={loading ? 'card leaderboard-empty is-loading' : 'card leaderboard-empty'}
      aria-labelledby="leaderboard-empty-title"
      aria-busy={loading}
    >
      <h2 id="leaderboard-empty-title">{periodEmpty(period)}</h2>
      <p className="muted">
        Members earn XP by chatting while leveling is on. The top earners will show up here.
      </p>
    </section>
  );
}

function LeaderboardRow({
  guildId,
  member,
  tools,
}: {
  guildId: string;
  member: LeaderboardMember;
  tools: boolean;
}) {
  const name = leaderboardName(member);
  const named = name !== member.user_id;
  const percent =
    member.xp_for_next > 0 ? Math.min(100, (member.xp_into_level / member.xp_for_next) * 100) : 0;
  return (
    <li className={member.rank <= 3 ? `leaderboard-row is-top is-rank-${member.rank}` : 'leaderboard-row'}>
      <span className="leaderboard-rank" title={`Rank ${member.rank}`}>
        <span className="sr-only">Rank </span>#{member.rank}
      </span>
      <MemberAvatar member={{ id: member.user_id, avatar: member.avatar }} size={40} />
      <div className="leaderboard-main">
        <span className={named ? 'leaderboard-name' : 'leaderboard-name is-id'}>{name}</span>
        <div className="leaderboard-progress">
          <progress
            className="leaderboard-bar"
            max={100}
            value={percent}
            aria-label={`${name}: progress to level ${member.level + 1}`}
          />
          <span className="leaderboard-progress-text">
            {formatNumber(member.xp_into_level)} / {formatNumber(member.xp_for_next)} XP
          </span>
        </div>
      </div>
      <div className="leaderboard-stats">
        <span className="leaderboard-level">Level {member.level}</span>
        <span className="leaderboard-xp">{formatNumber(member.xp)} XP</span>
      </div>
      {tools ? (
        <LeaderboardRowMenu guildId={guildId} userId={member.user_id} name={name} xp={member.level_xp} />
      ) : null}
    </li>
  );
}
