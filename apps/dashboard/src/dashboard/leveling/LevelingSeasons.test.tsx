import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  fakeApi,
  leaderboardMember,
  pastSeason,
  QUIET,
  STATION,
  seasonsRoutes,
  signInAda,
} from '../../../test/fake-api.ts';
import { findEnabledButton, renderAt } from '../../../test/render.tsx';
import { clearSession } from '../../lib/session.ts';
import DashboardApp from '../DashboardApp.tsx';
import { UNDO_FROM_HISTORY } from '../shared/ConfirmDialog.tsx';
import { END_SEASON_WARNING, SEASON_NAME_MISSING } from './EndSeasonDialog.tsx';
import { FORMER_MEMBER, SEASONS_EMPTY, SEASONS_FAILURE, seasonDate } from './LevelingSeasons.tsx';

const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;
const PAGE = `/dashboard/leveling/seasons?guild=${STATION.id}`;
const SEASONS = `/api/guilds/${STATION.id}/leveling/seasons`;

function seasonsApi(start: Parameters<typeof seasonsRoutes>[1] = {}) {
  const seasons = seasonsRoutes(STATION.id, start);
  const api = fakeApi((request) => {
    if (request.path === '/api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
    if (request.path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: true } };
    return seasons.route(request);
  });
  return { ...api, seasons };
}

/** The hall of fame's entry for the season named `name`. */
async function seasonEntry(name: string): Promise<HTMLElement> {
  const heading = await screen.findByRole('heading', { name, level: 3 });
  return heading.closest('li') as HTMLElement;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  clearSession('signed_out');
});

describe('seasons page', () => {
  it('lists past seasons newest first with dates, members, the automatic badge and their top members', async () => {
    signInAda();
    const spring = pastSeason(2, {
      name: 'Spring',
      automatic: true,
      members: 1,
      keep_rewards: true,
      top: [
        { ...pastSeason(2).top[0], username: 'Ada', avatar: 'abc123', xp: 4321, level: 7 },
        { ...pastSeason(2).top[1], username: null },
      ],
    });
    seasonsApi({
      current_started_at: '2026-03-01T00:00:00.000Z',
      next_end_at: '2026-12-01T00:00:00.000Z',
      seasons: [spring, pastSeason(1, { name: 'Winter', top: [] })],
    });
    renderAt(PAGE, routes);
    const hall = await screen.findByRole('region', { name: 'Hall of fame' });
    const names = within(hall)
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent);
    expect(names).toEqual(['Spring', 'Winter']);
    screen.getByText(
      `Started ${seasonDate('2026-03-01T00:00:00.000Z')}. Ends automatically on ${seasonDate('2026-12-01T00:00:00.000Z')}.`,
    );

    const first = await seasonEntry('Spring');
    within(first).getByText('Ended automatically');
    within(first).getByText(
      `${seasonDate(spring.started_at)} – ${seasonDate(spring.ended_at)} · 1 member · reward roles kept`,
    );
    const rows = within(within(first).getByRole('list', { name: 'Spring: top members' })).getAllByRole(
      'listitem',
    );
    expect(rows).toHaveLength(2);
    const [ada, former] = rows as [HTMLElement, HTMLElement];
    expect(ada.textContent).toContain('#1');
    within(ada).getByText('Ada');
    within(ada).getByText('Level 7');
    within(ada).getByText('4,321 XP');
    expect(ada.querySelector('img')?.getAttribute('src')).toBe(
      `https://cdn.discordapp.com/avatars/${leaderboardMember(1).user_id}/abc123.png?size=64`,
    );
    within(former).getByText(FORMER_MEMBER);

    const second = await seasonEntry('Winter');
    expect(within(second).queryByText('Ended automatically')).toBeNull();
    within(second).getByText('Nobody earned XP this season.');
  });

  it('says no season has ended yet, and that nothing is scheduled', async () => {
    signInAda();
    seasonsApi();
    renderAt(PAGE, routes);
    await screen.findByText(SEASONS_EMPTY, { exact: false });
    screen.getByText('Running since members first earned XP. No end is scheduled: it runs until you end it.');
    expect(screen.queryByRole('heading', { level: 3 })).toBeNull();
  });

  it('ends the season through the dialog: posts the name and keep_rewards, then lists it', async () => {
    signInAda();
    const api = seasonsApi({ seasons: [pastSeason(1, { name: 'Winter' })] });
    api.seasons.state.top = [{ ...pastSeason(1).top[0], username: 'Nia' }];
    renderAt(PAGE, routes);
    await seasonEntry('Winter');
    fireEvent.click(await findEnabledButton('End season'));
    const dialog = await screen.findByRole('alertdialog', { name: 'End the season?' });
    within(dialog).getByText(END_SEASON_WARNING, { exact: false });
    within(dialog).getByText(UNDO_FROM_HISTORY);
    const name = within(dialog).getByLabelText('Season name') as HTMLInputElement;
    expect(name.value).toBe('Season 2');
    fireEvent.change(name, { target: { value: '  Summer  ' } });
    fireEvent.click(within(dialog).getByLabelText('Members keep their reward roles'));
    const posted = api.nextRequest((request) => request.method === 'POST');
    fireEvent.click(within(dialog).getByRole('button', { name: 'End season' }));
    await posted;
    expect(api.calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', path: SEASONS, body: { name: 'Summer', keep_rewards: true } },
    ]);
    const summer = await seasonEntry('Summer');
    within(summer).getByText('Nia');
    within(summer).getByText('reward roles kept', { exact: false });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    screen.getByText('“Summer” ended. XP and levels start again at 0.');
    const names = screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(names).toEqual(['Summer', 'Winter']);
  });

  it("shows the API's refusal (409 while an XP job runs) in the dialog and keeps it open", async () => {
    signInAda();
    const api = seasonsApi();
    const refusal = 'An XP job is running for this server; end the season once it has finished.';
    api.seasons.state.refuse = { status: 409, message: refusal };
    renderAt(PAGE, routes);
    await screen.findByText(SEASONS_EMPTY, { exact: false });
    fireEvent.click(await findEnabledButton('End season'));
    const dialog = await screen.findByRole('alertdialog', { name: 'End the season?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'End season' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(refusal);
    expect(screen.queryByRole('heading', { level: 3 })).toBeNull();
    // Trying again once the job is done ends it.
    const again = within(dialog).getByRole('button', { name: 'End season' });
    await waitFor(() => expect(again).toHaveProperty('disabled', false));
    fireEvent.click(again);
    await seasonEntry('Season 1');
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { name: 'Season 1', keep_rewards: false },
      { name: 'Season 1', keep_rewards: false },
    ]);
  });

  it('asks for a name before ending, and Cancel ends nothing', async () => {
    signInAda();
    const api = seasonsApi();
    renderAt(PAGE, routes);
    await screen.findByText(SEASONS_EMPTY, { exact: false });
    fireEvent.click(await findEnabledButton('End season'));
    const dialog = await screen.findByRole('alertdialog', { name: 'End the season?' });
    fireEvent.change(within(dialog).getByLabelText('Season name'), { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'End season' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(SEASON_NAME_MISSING);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it("shows a failed load in the server's words or the page's fallback", async () => {
    signInAda();
    fakeApi((request) => {
      if (request.path === '/api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
      if (request.path === SEASONS) return { status: 500, body: {} };
      return undefined;
    });
    renderAt(PAGE, routes);
    expect((await screen.findByRole('alert')).textContent).toContain(SEASONS_FAILURE);
  });

  it('is a tab of the leveling pages', async () => {
    signInAda();
    seasonsApi();
    renderAt(PAGE, routes);
    await screen.findByText(SEASONS_EMPTY, { exact: false });
    const tabs = screen.getByRole('navigation', { name: 'Leveling' });
    expect(within(tabs).getByRole('link', { name: 'Seasons' }).getAttribute('href')).toBe(PAGE);
  });
});
