import { useEffect, useState } from 'react';
import {
  CLOCK_TICK_MS,
  type LastRefresh,
  NO_REFRESH_YET,
  relativeTime,
  sentence,
} from './personality-model.ts';

/**
 * The latest run that repaired something (when, relative to now, kept current, and what), then
 * the latest run when it came after that one (a run that found everything in place does not
 * hide the repair before it).
 */
export function LastRefreshNote({ last, repair }: { last: LastRefresh | null; repair: LastRefresh | null }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => window.clearInterval(timer);
  }, []);
  if (!last && !repair) return <p className="muted small">{NO_REFRESH_YET}</p>;
  const line = (label: string, run: LastRefresh) => {
    const summary = sentence(run.summary);
    const at = new Date(run.ran_at);
    return (
      <p className="muted small">
        {label}{' '}
        <time dateTime={run.ran_at} title={Number.isNaN(at.getTime()) ? undefined : at.toLocaleString()}>
          {relativeTime(run.ran_at, now)}
        </time>
        {summary ? `: ${summary}` : '.'}
      </p>
    );
  };
  const later = last && (!repair || last.ran_at > repair.ran_at) ? last : null;
  return (
    <>
      {repair && line('Last repair', repair)}
      {later && line('Last refresh', later)}
    </>
  );
}
