import { fireEvent, screen, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, leaderboardMember as member, periodOf, STATION, signInAda } from '../../test/fake-api.ts';
import { renderAt } from '../../test/render.tsx';
import { clearSession } from '../lib/session.ts';
import PublicLeaderboardPage, { PUBLIC_LEADERBOARD_TEXT as TEXT } from './PublicLeaderboard.tsx';

const routes = <Route path="/leaderboard/:guildId" element={<PublicLeaderboardPage />} />;
const PAGE = `/leaderboard/${STATION.id}`;
const api = `/api/public/leaderboard/${STATION.id}`;

function answer(status: number, body: unknown) {
  return fakeApi(({ path }) => (path.startsWith(api) ? { status, body } : undefined));
}

afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

describe('public leaderboard page', () => {
  it("shows the server's name and icon and a page of ranked members, signed out", async () => {
    const calls = answer(200, {
      guild: { ...STATION, icon: 'abc' },
      visibility: 'anyone',
      period: 'all',
      total: 30,
      members: [
        member(1, { username: 'Ada', avatar: 'a1', level: 5, xp_into_level: 80, xp_for_next: 160 }),
        member(2),
      ],
    });
    renderAt(PAGE, routes);
    await screen.findByRole('heading', { name: 'Sandbox Station', level: 1 });
    screen.getByText('Leaderboard · 30 members ranked');
    const icon = document.querySelector('.plb-icon') as HTMLImageElement;
    expect(icon.getAttribute('src')).toBe(`https://cdn.discordapp.com/icons/${STATION.id}/abc.png?size=128`);
    const rows = within(screen.getByRole('list', { name: 'Ranked members' })).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    const first = rows[0] as HTMLElement;
    within(first).getByText('Ada');
    expect(first.textContent).toContain('#1');
    expect(first.textContent).toContain('Level 5');
    within(first).getByRole('img', { name: '50% of the way to level 6' });
    const avatar = first.querySelector('img.plb-avatar') as HTMLImageElement;
    expect([avatar.width, avatar.height]).toEqual([40, 40]);
    expect((rows[1] as HTMLElement).querySelector('img.plb-avatar')?.getAttribute('loading')).toBe('eager');
    expect(calls.calls[0]?.path).toBe(`${api}?limit=25&offset=0`);
    expect(calls.calls[0]?.authorized).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 2');
    expect(calls.calls.at(-1)?.path).toBe(`${api}?limit=25&offset=25`);
  });

  it('picks a period: the request carries it, the URL keeps it, and an empty period says so', async () => {
    const calls = fakeApi(({ path }) => {
      if (!path.startsWith(api)) return undefined;
      const period = periodOf(path);
      const members = period === 'month' ? [] : [member(1, { username: `Ada-${period}` })];
      return {
        status: 200,
        body: { guild: STATION, visibility: 'anyone', period, total: members.length, members },
      };
    });
    renderAt(`${PAGE}?period=week`, routes);
    await screen.findByText('Ada-week');
    expect(calls.calls[0]?.path).toBe(`${api}?limit=25&offset=0&period=week`);
    const periods = screen.getByRole('group', { name: 'Period' });
    expect(within(periods).getByRole('button', { name: 'This week' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    fireEvent.click(within(periods).getByRole('button', { name: 'This month' }));
    await screen.findByText('Nobody has earned XP this month yet.');
    expect(calls.calls.at(-1)?.path).toBe(`${api}?limit=25&offset=0&period=month`);
    expect(screen.getByTestId('location').textContent).toBe(`${PAGE}?period=month`);
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Period' })).getByRole('button', { name: 'All time' }),
    );
    await screen.findByText('Ada-all');
    expect(calls.calls.at(-1)?.path).toBe(`${api}?limit=25&offset=0`);
    expect(screen.getByTestId('location').textContent).toBe(PAGE);
  });

  it('sends the session when signed in (a members-only board)', async () => {
    signInAda();
    const calls = answer(200, {
      guild: STATION,
      visibility: 'members',
      period: 'all',
      total: 0,
      members: [],
    });
    renderAt(PAGE, routes);
    await screen.findByText(TEXT.empty);
    expect(calls.calls[0]?.authorized).toBe(true);
  });

  it.each([
    [404, TEXT.notPublic],
    [403, TEXT.notMember],
  ])('says so when the API answers %i', async (status, heading) => {
    answer(status, { error: 'x', message: 'y' });
    renderAt(PAGE, routes);
    await screen.findByRole('heading', { name: heading });
  });

  it('asks to sign in on a 401, and a failure offers Try again', async () => {
    answer(401, { error: 'not_authenticated', message: 'Sign in required' });
    const view = renderAt(PAGE, routes);
    await screen.findByRole('heading', { name: TEXT.signIn });
    screen.getByRole('button', { name: 'Sign in' });
    view.unmount();

    let fail = true;
    fakeApi(({ path }) =>
      path.startsWith(api)
        ? fail
          ? { status: 503, body: { error: 'service_unavailable', message: 'The database is not answering.' } }
          : {
              status: 200,
              body: { guild: STATION, visibility: 'anyone', period: 'all', total: 0, members: [] },
            }
        : undefined,
    );
    renderAt(PAGE, routes);
    await screen.findByText('The database is not answering.');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByText(TEXT.empty);
  });
});
