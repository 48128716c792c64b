import { LEADERBOARD_PERIODS, type LeaderboardPeriod } from '@spacecadet/contract';
// The subpath keeps the public page's chunk small (no core index).
import { LEADERBOARD_PERIOD_TEXT } from '@spacecadet/core/leveling-messages';
import '../styles/period-picker.css';

/** "All time", "This season", …: the bot's /leaderboard titles, capitalised. */
export function periodLabel(period: LeaderboardPeriod): string {
  const title = LEADERBOARD_PERIOD_TEXT[period].title;
  return title.charAt(0).toUpperCase() + title.slice(1);
}

/** What an empty board says for the period, in the bot's words ("Nobody has earned XP this week yet."). */
export function periodEmpty(period: LeaderboardPeriod): string {
  return LEADERBOARD_PERIOD_TEXT[period].empty;
}

/** `?period=` as a board period; anything else is all time. */
export function periodFrom(raw: string | null): LeaderboardPeriod {
  return (LEADERBOARD_PERIODS as readonly string[]).includes(raw ?? '') ? (raw as LeaderboardPeriod) : 'all';
}

/**
 * The query `?period=` and `?page=` after picking a period: all time is the default (no
 * parameter), and a new period starts on its first page.
 */
export function withPeriod(current: URLSearchParams, period: LeaderboardPeriod): URLSearchParams {
  const params = new URLSearchParams(current);
  params.delete('page');
  if (period === 'all') params.delete('period');
  else params.set('period', period);
  return params;
}

/** The board's URL query at page `page` (the first page is the bare URL). */
export function withPage(current: URLSearchParams, page: number): URLSearchParams {
  const params = new URLSearchParams(current);
  if (page <= 1) params.delete('page');
  else params.set('page', String(page));
  return params;
}

/** Which XP a leaderboard ranks: segmented buttons, the picked one pressed. */
export function PeriodPicker({
  period,
  onPick,
  className,
}: {
  period: LeaderboardPeriod;
  onPick: (period: LeaderboardPeriod) => void;
  className?: string;
}) {
  return (
    <fieldset className={className ? `period-picker ${className}` : 'period-picker'}>
      <legend className="sr-only">Period</legend>
      {LEADERBOARD_PERIODS.map((value) => (
        <button
          key={value}
          type="button"
          className={value === period ? 'period-option is-picked' : 'period-option'}
          aria-pressed={value === period}
          onClick={() => {
            if (value !== period) onPick(value);
          }}
        >
          {periodLabel(value)}
        </button>
      ))}
    </fieldset>
  );
}
