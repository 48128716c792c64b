import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LastRefreshNote } from './LastRefreshNote.tsx';
import { NO_REFRESH_YET } from './personality-model.ts';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000 - 5_000).toISOString();
/** The paragraph whose whole text is `text` (it spans a <time>). */
const paragraph = (text: string) => (_: string, node: Element | null) =>
  node?.tagName === 'P' && node.textContent === text;

describe('the personality page’s last refresh', () => {
  it('shows the run that repaired something, with its time, above a later run that found everything in place', () => {
    const repairedAt = minutesAgo(3);
    render(
      <LastRefreshNote
        repair={{
          ran_at: repairedAt,
          summary: '1 role created, 2 members given their role back.',
          repaired: 3,
        }}
        last={{ ran_at: minutesAgo(2), summary: 'Everything was in place.', repaired: 0 }}
      />,
    );
    const repair = screen.getByText(
      paragraph('Last repair 3 minutes ago: 1 role created, 2 members given their role back.'),
    );
    expect(repair.querySelector('time')?.getAttribute('datetime')).toBe(repairedAt);
    screen.getByText(paragraph('Last refresh 2 minutes ago: Everything was in place.'));
  });

  it('shows the repair alone when it was the last run', () => {
    const run = { ran_at: minutesAgo(1), summary: '1 message re-posted.', repaired: 1 };
    const { container } = render(<LastRefreshNote repair={run} last={run} />);
    expect([...container.querySelectorAll('p')].map((p) => p.textContent)).toEqual([
      'Last repair 1 minute ago: 1 message re-posted.',
    ]);
  });

  it('shows the last run when nothing was repaired yet, and says when no run happened', () => {
    const { unmount } = render(
      <LastRefreshNote
        last={{ ran_at: minutesAgo(4), summary: 'Everything was in place.', repaired: 0 }}
        repair={null}
      />,
    );
    screen.getByText(paragraph('Last refresh 4 minutes ago: Everything was in place.'));
    unmount();
    render(<LastRefreshNote last={null} repair={null} />);
    screen.getByText(NO_REFRESH_YET);
  });
});
