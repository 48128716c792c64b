import { MESSAGES } from '@spacecadet/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  fakeApi,
  leaderboardMember as member,
  periodOf,
  QUIET,
  STATION,
  signInAda,
} from '../../../test/fake-api.ts';
import { renderAt } from '../../../test/render.tsx';
import { clearSession } from '../../lib/session.ts';
import DashboardApp from '../DashboardApp.tsx';
import { UNDO_FROM_HISTORY } from '../shared/ConfirmDialog.tsx';
import { resetMemberConfirm } from './LeaderboardRowMenu.tsx';
import { LEADERBOARD_EMPTY, LEADERBOARD_FAILURE, leaderboardName } from './LevelingLeaderboard.tsx';

const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;
const PAGE = `/dashboard/leveling/leaderboard?guild=${STATION.id}`;
const board = `/api/guilds/${STATION.id}/leveling/leaderboard`;

type Answer = { status: number; body?: unknown };
/** The dashboard's API with the leaderboard answered by `leaderboard(path)`. */
function leaderboardApi(leaderboard: (path: string) => Answer) {
  return fakeApi(({ method, path }) => {
    if (path === '/api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
    if (path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: true } };
    if (method === 'GET' && path.startsWith(board)) return leaderboard(path);
    return undefined;
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('leaderboard page', () => {
  it('asks for the first page of 25 and lists rank, avatar, name, level, XP and progress', async () => {
    signInAda();
    const api = leaderboardApi(() => ({
      status: 200,
      body: {
        period: 'all',
        total: 3,
        members: [
          member(1, {
            username: 'Ada',
            avatar: 'abc123',
            xp: 1255,
            level: 4,
            xp_into_level: 0,
            xp_for_next: 320,
          }),
          member(2, { username: 'Mo', xp: 255, level: 2, xp_into_level: 0, xp_for_next: 220 }),
          member(3, { username: null, xp: 150, level: 1, xp_into_level: 50, xp_for_next: 155 }),
        ],
      },
    }));
    renderAt(PAGE, routes);
    const list = await screen.findByRole('list', { name: 'Top members' });
    expect(api.calls.find((c) => c.path.startsWith(board))?.path).toBe(`${board}?limit=25&offset=0`);
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    const [first, , third] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(first.textContent).toContain('#1');
    within(first).getByText('Ada');
    within(first).getByText('Level 4');
    within(first).getByText('1,255 XP');
    within(first).getByText('0 / 320 XP');
    expect(first.querySelector('img')?.getAttribute('src')).toBe(
      `https://cdn.discordapp.com/avatars/${member(1).user_id}/abc123.png?size=64`,
    );
    // No name stored: the id stands in; no avatar: Discord's default one.
    within(third).getByText(member(3).user_id);
    expect(third.querySelector('img')?.getAttribute('src')).toMatch(
      /^https:\/\/cdn\.discordapp\.com\/embed\/avatars\/[0-5]\.png$/,
    );
    const bar = within(third).getByRole('progressbar');
    expect(bar.getAttribute('value')).toBe(String((50 / 155) * 100));
    expect(bar.getAttribute('aria-label')).toBe(`${member(3).user_id}: progress to level 2`);
    screen.getByText('3 members ranked');
    // One page: no pager.
    expect(screen.queryByRole('navigation', { name: 'Leaderboard pages' })).toBeNull();
  });

  it('pages through the board with Previous and Next, keeping the page in the URL', async () => {
    signInAda();
    const api = leaderboardApi((path) => {
      const offset = Number(new URL(path, 'http://x').searchParams.get('offset'));
      const count = Math.min(25, 60 - offset);
      return {
        status: 200,
        body: {
          period: 'all',
          total: 60,
          members: Array.from({ length: count }, (_, i) => member(offset + i + 1)),
        },
      };
    });
    renderAt(PAGE, routes);
    const pager = await screen.findByRole('navigation', { name: 'Leaderboard pages' });
    within(pager).getByText('1–25 of 60 · Page 1 of 3');
    expect(within(pager).getByRole('button', { name: 'Previous' })).toHaveProperty('disabled', true);
    fireEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    await within(pager).findByText('26–50 of 60 · Page 2 of 3');
    await screen.findByText('member-26');
    expect(api.calls.some((c) => c.path === `${board}?limit=25&offset=25`)).toBe(true);
    expect(screen.getByTestId('location').textContent).toBe(`${PAGE}&page=2`);
    fireEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    await within(pager).findByText('51–60 of 60 · Page 3 of 3');
    expect(within(pager).getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true);
    fireEvent.click(within(pager).getByRole('button', { name: 'Previous' }));
    await within(pager).findByText('26–50 of 60 · Page 2 of 3');
  });

  it('says Nobody has earned XP in this server yet on an empty board', async () => {
    signInAda();
    leaderboardApi(() => ({ status: 200, body: { period: 'all', total: 0, members: [] } }));
    renderAt(PAGE, routes);
    await screen.findByRole('heading', { name: LEADERBOARD_EMPTY });
    expect(screen.queryByRole('list', { name: 'Top members' })).toBeNull();
  });

  it('picks a period: the request carries it, the URL keeps it, and an empty period says so', async () => {
    signInAda();
    const api = leaderboardApi((path) => {
      const period = periodOf(path);
      return period === 'week'
        ? { status: 200, body: { period, total: 0, members: [] } }
        : { status: 200, body: { period, total: 1, members: [member(1, { username: `Ada-${period}` })] } };
    });
    renderAt(`${PAGE}&page=2`, routes);
    await screen.findByText('Ada-all');
    const periods = screen.getByRole('group', { name: 'Period' });
    expect(within(periods).getByRole('button', { name: 'All time' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    fireEvent.click(within(periods).getByRole('button', { name: 'This week' }));
    await screen.findByRole('heading', { name: 'Nobody has earned XP this week yet.' });
    expect(api.calls.some((c) => c.path === `${board}?limit=25&offset=0&period=week`)).toBe(true);
    // A new period starts on its first page.
    expect(screen.getByTestId('location').textContent).toBe(`${PAGE}&period=week`);
    expect(screen.queryByRole('list', { name: 'Top members' })).toBeNull();
    // The empty period still offers the others.
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Period' })).getByRole('button', { name: 'This season' }),
    );
    await screen.findByText('Ada-season');
    expect(screen.getByTestId('location').textContent).toBe(`${PAGE}&period=season`);
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Period' })).getByRole('button', { name: 'All time' }),
    );
    await screen.findByText('Ada-all');
    expect(screen.getByTestId('location').textContent).toBe(PAGE);
  });

  it('opens on the period a shared link names', async () => {
    signInAda();
    const api = leaderboardApi((path) => ({
      status: 200,
      body: { period: periodOf(path), total: 1, members: [member(1, { username: 'Mo' })] },
    }));
    renderAt(`${PAGE}&period=month`, routes);
    await screen.findByText('Mo');
    expect(api.calls.find((c) => c.path.startsWith(board))?.path).toBe(
      `${board}?limit=25&offset=0&period=month`,
    );
    const month = within(screen.getByRole('group', { name: 'Period' })).getByRole('button', {
      name: 'This month',
    });
    expect(month.getAttribute('aria-pressed')).toBe('true');
    // A month's XP is a slice, not what Set XP sets: its rows have no XP tools; the season's do.
    expect(screen.queryByRole('button', { name: 'Actions for Mo' })).toBeNull();
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Period' })).getByRole('button', { name: 'This season' }),
    );
    await screen.findByRole('button', { name: 'Actions for Mo' });
  });

  it('shows the loading state until the board arrives', async () => {
    signInAda();
    const api = leaderboardApi(() => ({ status: 200, body: { period: 'all', total: 0, members: [] } }));
    const answer = api.fetchMock.getMockImplementation();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    api.fetchMock.mockImplementation(async (input, init) => {
      if (String(input).includes('/leveling/leaderboard')) await gate;
      return (answer as NonNullable<typeof answer>)(input, init);
    });
    renderAt(PAGE, routes);
    await screen.findByText('Loading the leaderboard…');
    release();
    await screen.findByRole('heading', { name: LEADERBOARD_EMPTY });
  });

  it("shows a failed load in the red box, in the server's words or the page's fallback", async () => {
    signInAda();
    leaderboardApi(() => ({ status: 500, body: {} }));
    renderAt(PAGE, routes);
    expect((await screen.findByRole('alert')).textContent).toContain(LEADERBOARD_FAILURE);
    vi.unstubAllGlobals();
  });

  it('shows the API message of a refused load', async () => {
    signInAda();
    leaderboardApi(() => ({
      status: 403,
      body: { error: 'forbidden', message: 'You do not manage this server' },
    }));
    renderAt(PAGE, routes);
    expect((await screen.findByRole('alert')).textContent).toContain('You do not manage this server');
  });

  it('asks to sign in when signed out, and to re-authorize when the session expired', async () => {
    clearSession('signed_out');
    leaderboardApi(() => ({ status: 200, body: { period: 'all', total: 0, members: [] } }));
    const signedOut = renderAt(PAGE, routes);
    screen.getByText(MESSAGES.signInRequired);
    signedOut.unmount();

    signInAda();
    leaderboardApi(() => ({ status: 401, body: { error: 'session_expired', message: 'Session expired' } }));
    renderAt(PAGE, routes);
    await screen.findByText('Session Expired');
    screen.getByRole('button', { name: 'Re-Authorize' });
    clearSession('signed_out');
  });

  it('names a member by their stored name, else by id', () => {
    expect(leaderboardName({ username: 'Ada', user_id: '1' })).toBe('Ada');
    expect(leaderboardName({ username: null, user_id: '123456' })).toBe('123456');
    expect(leaderboardName({ username: '  ', user_id: '123456' })).toBe('123456');
  });

  it('is linked from the sidebar', async () => {
    signInAda();
    leaderboardApi(() => ({ status: 200, body: { period: 'all', total: 0, members: [] } }));
    renderAt(PAGE, routes);
    await screen.findByRole('heading', { name: LEADERBOARD_EMPTY });
    const links = screen.getAllByRole('link', { name: 'Leaderboard' });
    expect(
      links.some((link) => link.getAttribute('href')?.startsWith('/dashboard/leveling/leaderboard')),
    ).toBe(true);
  });
});

describe('leaderboard XP tools', () => {
  const base = `/api/guilds/${STATION.id}/leveling`;
  /** A board whose members' XP the handlers below change, as the API would. */
  function toolsApi(extra: (request: { method: string; path: string; body: unknown }) => Answer | undefined) {
    const members = [
      member(1, { username: 'Ada', xp: 500, level_xp: 120 }),
      member(2, { username: 'Mo', xp: 300 }),
    ];
    const api = fakeApi((request) => {
      const { method, path } = request;
      if (path === '/api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
      if (path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: true } };
      const answer = extra(request);
      if (answer) return answer;
      if (method === 'GET' && path.startsWith(board)) {
        return { status: 200, body: { period: 'all', total: members.length, members } };
      }
      return undefined;
    });
    return { api, members };
  }

  it('pre-fills Set XP with the current XP, not all time with past seasons', async () => {
    signInAda();
    toolsApi(() => undefined);
    renderAt(PAGE, routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Ada' }));
    // Ada's 500 all-time XP holds 380 from a season that ended: Set XP replaces the 120 of now.
    expect(within(screen.getByRole('group', { name: 'XP of Ada' })).getByLabelText('Set XP')).toHaveProperty(
      'value',
      '120',
    );
  });

  it("sets a member's XP from the row menu, and resets one after the confirm", async () => {
    signInAda();
    const { api, members } = toolsApi(({ method, path, body }) => {
      if (method === 'PUT' && path === `${base}/members/${member(2).user_id}`) {
        const xp = (body as { xp: number }).xp;
        members[1] = { ...(members[1] as ReturnType<typeof member>), xp };
        return { status: 200, body: { user_id: member(2).user_id, xp, level: 5 } };
      }
      if (method === 'DELETE' && path === `${base}/members/${member(1).user_id}`) {
        members.splice(0, 1);
        return { status: 204 };
      }
      return undefined;
    });
    renderAt(PAGE, routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Mo' }));
    const panel = screen.getByRole('group', { name: 'XP of Mo' });
    const xp = within(panel).getByLabelText('Set XP');
    expect(xp).toHaveProperty('value', '300');
    fireEvent.change(xp, { target: { value: '-4' } });
    expect(within(panel).getByRole('button', { name: 'Set XP' })).toHaveProperty('disabled', true);
    within(panel).getByText('XP is a whole number of at least 0.');
    fireEvent.change(xp, { target: { value: '1234' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Set XP' }));
    await screen.findByText('1,234 XP');
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({ xp: 1234 });

    fireEvent.click(screen.getByRole('button', { name: 'Actions for Ada' }));
    const resetXp = () =>
      within(screen.getByRole('group', { name: 'XP of Ada' })).getByRole('button', { name: 'Reset XP' });
    // A click focuses the button in a browser (jsdom does not): the dialog gives the focus back to it.
    resetXp().focus();
    fireEvent.click(resetXp());
    let dialog = await screen.findByRole('alertdialog', { name: "Reset Ada's XP?" });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    within(dialog).getByText(resetMemberConfirm('Ada'));
    within(dialog).getByText(UNDO_FROM_HISTORY);
    // Escape closes the dialog only: the row menu under it stays open, the XP untouched.
    fireEvent.keyDown(within(dialog).getByRole('button', { name: 'Cancel' }), { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(resetXp());
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(resetXp());
    dialog = await screen.findByRole('alertdialog', { name: "Reset Ada's XP?" });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset XP' }));
    await waitFor(() => expect(screen.queryByText('Ada')).toBeNull());
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('moves the keyboard into the row menu and back: Escape and a change made close it onto its button', async () => {
    signInAda();
    toolsApi(({ method, path, body }) =>
      method === 'PUT' && path === `${base}/members/${member(2).user_id}`
        ? { status: 200, body: { user_id: member(2).user_id, xp: (body as { xp: number }).xp, level: 5 } }
        : undefined,
    );
    renderAt(PAGE, routes);
    const menuButton = await screen.findByRole('button', { name: 'Actions for Mo' });
    fireEvent.click(menuButton);
    const xp = within(screen.getByRole('group', { name: 'XP of Mo' })).getByLabelText('Set XP');
    await waitFor(() => expect(document.activeElement).toBe(xp));
    fireEvent.keyDown(xp, { key: 'Escape' });
    expect(screen.queryByRole('group', { name: 'XP of Mo' })).toBeNull();
    expect(document.activeElement).toBe(menuButton);
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(menuButton);
    const panel = screen.getByRole('group', { name: 'XP of Mo' });
    fireEvent.change(within(panel).getByLabelText('Set XP'), { target: { value: '700' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Set XP' }));
    await waitFor(() => expect(screen.queryByRole('group', { name: 'XP of Mo' })).toBeNull());
    expect(document.activeElement).toBe(menuButton);
  });

  it('downloads Export CSV as a file', async () => {
    signInAda();
    const csv = 'user_id,username,xp,level,rank\n900000000000000001,Ada,500,3,1\n';
    const { api } = toolsApi(({ method, path }) =>
      method === 'GET' && path === `${base}/export`
        ? { status: 200, text: csv, type: 'text/csv' }
        : undefined,
    );
    const created: Blob[] = [];
    // The browser's object URLs: the test keeps the Blob the page hands over.
    const createObjectURL = URL.createObjectURL;
    URL.createObjectURL = (blob: Blob) => {
      created.push(blob);
      return 'blob:export';
    };
    onTestFinished(() => {
      URL.createObjectURL = createObjectURL;
    });
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    renderAt(PAGE, routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(clicked).toEqual([`leaderboard-${STATION.id}.csv`]));
    expect(await created[0]?.text()).toBe(csv);
    expect(api.calls.some((c) => c.path === `${base}/export`)).toBe(true);
  });

  it('previews an import file, uploads it with the mode, and lists the skipped rows', async () => {
    signInAda();
    const { api, members } = toolsApi(({ method, path }) => {
      if (method === 'POST' && path === `${base}/import?mode=add`) {
        members.push(member(3, { username: 'Nia', xp: 90 }));
        return {
          status: 200,
          body: {
            imported: 1,
            skipped: 2,
            skipped_rows: [
              { row: 3, reason: 'user_id is not a Discord id' },
              { row: 4, reason: 'xp is not a whole number of at least 0' },
            ],
            job_id: null,
          },
        };
      }
      return undefined;
    });
    renderAt(PAGE, routes);
    const input = await screen.findByLabelText('File');
    const csv = 'user_id,xp,extra\n900000000000000003,90,x\nnope,5,\n900000000000000004,-1,\n';
    fireEvent.change(input, { target: { files: [new File([csv], 'xp.csv', { type: 'text/csv' })] } });
    await screen.findByText('CSV, 3 rows (2 rows will be skipped):');
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    within(table).getByText('Will be skipped: user_id is not a Discord id');
    fireEvent.click(screen.getByLabelText(/^Add:/));
    fireEvent.click(screen.getByRole('button', { name: 'Import 3 rows' }));
    await screen.findByText('Imported 1 member');
    const skipped = screen.getByRole('list', { name: 'Skipped rows' });
    expect(
      within(skipped)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Row 3: user_id is not a Discord id', 'Row 4: xp is not a whole number of at least 0']);
    await screen.findByText('Nia');
    const upload = api.calls.find((c) => c.method === 'POST');
    expect(upload?.type).toBe('text/csv');
    expect(upload?.body).toBe(csv);
    // Imported once: no button left to add the same file a second time until one is picked again.
    expect(screen.queryByRole('button', { name: /^Import/ })).toBeNull();
    fireEvent.change(input, { target: { files: [new File([csv], 'xp.csv', { type: 'text/csv' })] } });
    await screen.findByRole('button', { name: 'Import 3 rows' });
    expect(screen.queryByText('Imported 1 member')).toBeNull();
  });

  it('refuses a CSV without user_id and xp before sending it', async () => {
    signInAda();
    const { api } = toolsApi(() => undefined);
    renderAt(PAGE, routes);
    fireEvent.change(await screen.findByLabelText('File'), {
      target: { files: [new File(['id,points\n1,2\n'], 'xp.csv')] },
    });
    await screen.findByText(
      "The CSV's first line must be a header naming the columns user_id and xp (it has: id, points).",
    );
    expect(screen.queryByRole('button', { name: /^Import/ })).toBeNull();
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
  });
});
