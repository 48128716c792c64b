import { jobIdFor, MESSAGES } from '@spacecadet/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { describe, expect, it } from 'vitest';
import {
  type FakeRoute,
  fakeApi,
  LEVELING_SETTINGS,
  QUIET,
  STATION,
  signInAda,
} from '../../../test/fake-api.ts';
import { renderAt } from '../../../test/render.tsx';
import { clearSession } from '../../lib/session.ts';
import DashboardApp from '../DashboardApp.tsx';
import { queryKeys } from '../shared/queries.ts';
import { VALUE_PREVIEW_CHARS } from './HistoryEntryItem.tsx';
import {
  areaQueryKeys,
  HISTORY_EMPTY,
  HISTORY_FAILURE,
  HISTORY_PAGE_SIZE,
  relativeTime,
} from './history-model.ts';
import { UNDO_ANYWAY } from './UndoDialog.tsx';

const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;
const base = `/api/guilds/${STATION.id}`;
const GRACE = { id: '200000000000000002', name: 'grace', avatar: 'a1b2c3' };

function entry(id: number, extra: Record<string, unknown> = {}) {
  return {
    id,
    at: new Date(Date.now() - id * 60_000).toISOString(),
    actor_id: '200000000000000001',
    actor_name: 'ada',
    actor_avatar: null,
    area: 'leveling',
    action: 'leveling.settings',
    summary: `Change ${id}`,
    changes: [],
    refs: {},
    undoable: false,
    undone_by: null,
    undo_of: null,
    job_id: null,
    ...extra,
  };
}

const SETTINGS_CHANGE = entry(3, {
  summary: 'Changed XP per message from 15 to 20',
  undoable: true,
  changes: [
    { field: 'xp_per_message', before: '15', after: '20' },
    { field: 'announcement_channel', before: null, after: '300000000000000013' },
  ],
});
const RESET = entry(2, {
  actor_id: GRACE.id,
  actor_name: GRACE.name,
  actor_avatar: GRACE.avatar,
  area: 'color_roles',
  action: 'color_roles.reset',
  summary: 'Reset the color roles',
  undoable: true,
});

function historyApi(handler: FakeRoute): ReturnType<typeof fakeApi> {
  return fakeApi((request) => {
    const key = `${request.method} ${request.path}`;
    if (key === 'GET /api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
    if (request.path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: true } };
    return handler(request);
  });
}

const open = (search = '') => renderAt(`/dashboard/history?guild=${STATION.id}${search}`, routes);

/** Signed in as ada, the page showing one page of these entries: its items. */
async function listed(entries: ReadonlyArray<ReturnType<typeof entry>>): Promise<HTMLElement[]> {
  signInAda();
  historyApi(({ method, path }) =>
    method === 'GET' && path.startsWith(`${base}/history`)
      ? { status: 200, body: { entries, next_before: null } }
      : undefined,
  );
  open();
  const list = await screen.findByRole('list', { name: 'Changes, newest first' });
  return within(list).getAllByRole('listitem');
}

describe('History page', () => {
  it('lists the changes newest first: avatar, name, time, area, summary and the diff', async () => {
    const items = await listed([SETTINGS_CHANGE, RESET]);
    expect(items.map((item) => item.querySelector('.history-summary')?.textContent)).toEqual([
      'Changed XP per message from 15 to 20',
      'Reset the color roles',
    ]);
    const [first, second] = items as [HTMLElement, HTMLElement];
    within(first).getByText('ada');
    within(first).getByText('Leveling');
    const time = first.querySelector('time');
    expect(time?.textContent).toBe(relativeTime(SETTINGS_CHANGE.at));
    expect(time?.textContent).toBe('3 minutes ago');
    expect(time?.getAttribute('title')).toMatch(/\d{4}/);
    expect(time?.getAttribute('dateTime')).toBe(SETTINGS_CHANGE.at);
    const diff = first.querySelector('dl.history-diff');
    expect(diff?.getAttribute('aria-label')).toBe('Changes');
    expect(diff?.textContent).toContain('XP per message15→changed to20');
    expect(diff?.textContent).toContain('Announcement channelnot set→changed to300000000000000013');
    // ada has no avatar (default one by her id), grace has hers.
    expect(first.querySelector('img')?.getAttribute('src')).toMatch(/\/embed\/avatars\/\d\.png$/);
    expect(second.querySelector('img')?.getAttribute('src')).toContain(
      `/avatars/${GRACE.id}/${GRACE.avatar}.png`,
    );
    within(second).getByText('Color roles');
    expect(second.querySelector('dl')).toBeNull();
    // The sidebar links to History for the server.
    const sidebar = screen.getByRole('list', { name: 'Server pages' });
    expect(within(sidebar).getByRole('link', { name: 'History' }).getAttribute('href')).toBe(
      `/dashboard/history?guild=${STATION.id}`,
    );
  });

  it('names members, roles and channels as they were then, with the id on hover', async () => {
    const nia = '200000000000000003';
    const general = '300000000000000011';
    const crew = '300000000000000021';
    const unnamed = '300000000000000099';
    const xp = entry(2, {
      action: 'leveling.member_xp',
      summary: `Set the XP of <@${nia}>: 300 → 1200`,
      undoable: true,
      refs: { [nia]: { kind: 'member', name: 'Nia' } },
    });
    const boost = entry(1, {
      action: 'leveling.boost_create',
      summary: `Added a ×2 boost in <#${general}> and <@&${unnamed}>`,
      changes: [
        { field: 'user_id', before: null, after: `-channel:${general}` },
        { field: 'role', before: null, after: `-role:${crew}` },
      ],
      refs: {
        [general]: { kind: 'channel', name: 'general' },
        [crew]: { kind: 'role', name: 'Crew' },
      },
    });
    const [first, second] = (await listed([xp, boost])) as [HTMLElement, HTMLElement];
    expect(first.querySelector('.history-summary')?.textContent).toBe('Set the XP of @Nia: 300 → 1200');
    expect(within(first).getByText('@Nia').getAttribute('title')).toBe(nia);
    within(first).getByRole('button', { name: 'Undo: Set the XP of @Nia: 300 → 1200' });
    // An id the entry kept no name for stays as written.
    expect(second.querySelector('.history-summary')?.textContent).toBe(
      `Added a ×2 boost in #general and <@&${unnamed}>`,
    );
    expect(
      within(second)
        .getAllByText('#general')
        .map((el) => el.getAttribute('title')),
    ).toEqual([general, general]);
    expect(second.querySelector('.history-value.is-after')?.textContent).toBe('#general');
    expect(within(second).getByText('@Crew').getAttribute('title')).toBe(crew);
  });

  it('shows the start of a long value (a whole raw config), with Show all', async () => {
    signInAda();
    const config = JSON.stringify({
      welcome: Array.from({ length: 30 }, (_, i) => `Welcome aboard, cadet ${i}!`),
    });
    const edit = entry(1, {
      area: 'config',
      action: 'config.update',
      summary: 'Edited the raw config: value',
      undoable: true,
      changes: [{ field: 'value', before: null, after: config }],
    });
    historyApi(({ method, path }) =>
      method === 'GET' && path.startsWith(`${base}/history`)
        ? { status: 200, body: { entries: [edit], next_before: null } }
        : undefined,
    );
    open();
    const item = (await screen.findByText('Edited the raw config: value')).closest('li') as HTMLElement;
    const value = () => item.querySelector('.history-value.is-after')?.textContent ?? '';
    expect(value()).toBe(`${config.slice(0, VALUE_PREVIEW_CHARS)}…`);
    fireEvent.click(within(item).getByRole('button', { name: `Show all ${config.length} characters` }));
    expect(value()).toBe(config);
    fireEvent.click(within(item).getByRole('button', { name: 'Show less' }));
    expect(value()).toHaveLength(VALUE_PREVIEW_CHARS + 1);
  });

  it('filters by area and pages with Older', async () => {
    signInAda();
    const firstPage = Array.from({ length: HISTORY_PAGE_SIZE }, (_, i) => entry(i + 1));
    const api = historyApi(({ method, path }) => {
      if (method !== 'GET' || !path.startsWith(`${base}/history`)) return undefined;
      const query = new URLSearchParams(path.split('?')[1]);
      if (query.get('area') === 'color_roles')
        return query.get('before') === '2'
          ? {
              status: 200,
              body: {
                entries: [entry(30, { area: 'color_roles', summary: 'Posted the color panel' })],
                next_before: null,
              },
            }
          : { status: 200, body: { entries: [RESET], next_before: 2 } };
      if (query.get('before') === String(HISTORY_PAGE_SIZE))
        return { status: 200, body: { entries: [entry(HISTORY_PAGE_SIZE + 1)], next_before: null } };
      return { status: 200, body: { entries: firstPage, next_before: HISTORY_PAGE_SIZE } };
    });
    open();
    const list = await screen.findByRole('list', { name: 'Changes, newest first' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(HISTORY_PAGE_SIZE);
    fireEvent.click(screen.getByRole('button', { name: 'Older' }));
    await within(list).findByText(`Change ${HISTORY_PAGE_SIZE + 1}`);
    expect(within(list).getAllByRole('listitem')).toHaveLength(HISTORY_PAGE_SIZE + 1);
    expect(screen.queryByRole('button', { name: 'Older' })).toBeNull();
    expect(api.calls.map((c) => c.path).filter((p) => p.startsWith(`${base}/history`))).toEqual([
      `${base}/history?limit=${HISTORY_PAGE_SIZE}`,
      `${base}/history?limit=${HISTORY_PAGE_SIZE}&before=${HISTORY_PAGE_SIZE}`,
    ]);

    const filter = screen.getByLabelText('Area');
    expect([...(filter as HTMLSelectElement).options].map((o) => o.text)).toEqual([
      'All areas',
      'Config',
      'Reaction roles',
      'Role menus',
      'Color roles',
      'Personality roles',
      'Leveling',
      'Welcome',
      'Temporary roles',
    ]);
    fireEvent.change(filter, { target: { value: 'color_roles' } });
    await screen.findByText('Reset the color roles');
    expect(screen.queryByText('Change 1')).toBeNull();
    expect(screen.getByTestId('location').textContent).toBe(
      `/dashboard/history?guild=${STATION.id}&area=color_roles`,
    );
    expect(api.calls.at(-1)?.path).toBe(`${base}/history?limit=${HISTORY_PAGE_SIZE}&area=color_roles`);
    // Older keeps the filter.
    fireEvent.click(screen.getByRole('button', { name: 'Older' }));
    await screen.findByText('Posted the color panel');
    expect(api.calls.at(-1)?.path).toBe(
      `${base}/history?limit=${HISTORY_PAGE_SIZE}&before=2&area=color_roles`,
    );
    expect(
      within(screen.getByRole('list', { name: 'Changes, newest first' })).getAllByRole('listitem'),
    ).toHaveLength(2);
  });

  it('says it is loading, asks to sign in when signed out, and to re-authorize when the session expired', async () => {
    clearSession('signed_out');
    historyApi(() => ({ status: 200, body: { entries: [], next_before: null } }));
    const signedOut = open();
    screen.getByText(MESSAGES.signInRequired);
    signedOut.unmount();

    signInAda();
    let answer = (_: unknown) => {};
    const waiting = new Promise((resolve) => {
      answer = resolve;
    });
    const api = historyApi(() => undefined);
    const reply = api.fetchMock.getMockImplementation();
    api.fetchMock.mockImplementation(async (input, init) => {
      if (String(input).includes('/history')) {
        await waiting;
        return new Response(JSON.stringify({ error: 'session_expired', message: 'Session expired' }), {
          status: 401,
          headers: { 'content-type': 'application/json' },
        });
      }
      return reply?.(input, init) as Promise<Response>;
    });
    const expired = open();
    await screen.findByText('Loading the history…');
    answer(null);
    await screen.findByText('Session Expired');
    screen.getByRole('button', { name: 'Re-Authorize' });
    expired.unmount();
    clearSession('signed_out');
  });

  it('says when there is nothing yet, and why a load failed', async () => {
    signInAda();
    let fail = false;
    const api = historyApi(({ method, path }) => {
      if (method !== 'GET' || !path.startsWith(`${base}/history`)) return undefined;
      return fail
        ? { status: 403, body: { error: 'forbidden', message: 'You do not manage this server' } }
        : { status: 200, body: { entries: [], next_before: null } };
    });
    open('&area=role_menus');
    await screen.findByRole('heading', { name: HISTORY_EMPTY });
    screen.getByText('Nothing changed in this area yet. Pick All areas to see every change.');
    fail = true;
    fireEvent.change(screen.getByLabelText('Area'), { target: { value: 'config' } });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('You do not manage this server');
    // No answer at all (the API is down): the page's own sentence, after the query's retries.
    const answer = api.fetchMock.getMockImplementation();
    api.fetchMock.mockImplementation(async (input, init) => {
      if (String(input).includes('/history')) throw new TypeError('Failed to fetch');
      return answer?.(input, init) as Promise<Response>;
    });
    fireEvent.change(screen.getByLabelText('Area'), { target: { value: 'leveling' } });
    await screen.findByText(HISTORY_FAILURE, {}, { timeout: 8000 });
  });
});

describe('Undo', () => {
  it('reloads the seasons page too when a leveling change (an ended season) is undone', () => {
    const keys = areaQueryKeys(STATION.id, 'leveling').map((key) => JSON.stringify(key));
    expect(keys).toContain(JSON.stringify(queryKeys.seasons(STATION.id)));
    expect(keys).toContain(JSON.stringify(queryKeys.leaderboard(STATION.id)));
  });

  it('asks first, says what changed since, and undoes anyway when told to', async () => {
    signInAda();
    let undone = false;
    const api = historyApi(({ method, path, body }) => {
      if (method === 'GET' && path.startsWith(`${base}/history`)) {
        const entries = undone
          ? [
              entry(4, { summary: 'Undid: Changed XP per message from 15 to 20', undo_of: 3 }),
              { ...SETTINGS_CHANGE, undoable: false, undone_by: 4 },
            ]
          : [SETTINGS_CHANGE];
        return { status: 200, body: { entries, next_before: null } };
      }
      if (method === 'POST' && path === `${base}/history/3/undo`) {
        if (!(body as { confirm?: boolean }).confirm)
          return {
            status: 409,
            body: {
              error: 'changed_since',
              message: 'XP per message changed since (by grace, 2 minutes ago). Undo anyway?',
            },
          };
        undone = true;
        return { status: 200, body: { entry: entry(4, { undo_of: 3 }) } };
      }
      return undefined;
    });
    open();
    fireEvent.click(
      await screen.findByRole('button', { name: 'Undo: Changed XP per message from 15 to 20' }),
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Undo this change?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Undo' }));
    const why = await within(dialog).findByRole('alert');
    expect(why.textContent).toBe('XP per message changed since (by grace, 2 minutes ago). Undo anyway?');
    fireEvent.click(within(dialog).getByRole('button', { name: UNDO_ANYWAY }));
    await screen.findByText('Undid: Changed XP per message from 15 to 20');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    const undoneItem = screen.getByText('Undone').closest('li') as HTMLElement;
    within(undoneItem).getByText('Changed XP per message from 15 to 20');
    expect(within(undoneItem).queryByRole('button', { name: /^Undo/ })).toBeNull();
    // Each points at the other: the undone change at its undo, the undo at what it undid.
    const undoItem = screen
      .getByText('Undid: Changed XP per message from 15 to 20')
      .closest('li') as HTMLElement;
    const toUndo = within(undoneItem).getByRole('link', { name: 'Undone by ada, 4 minutes ago' });
    expect(toUndo.getAttribute('href')).toBe(`#${undoItem.id}`);
    const toUndone = within(undoItem).getByRole('link', { name: 'Undoes the change by ada, 3 minutes ago' });
    expect(toUndone.getAttribute('href')).toBe(`#${undoneItem.id}`);
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { confirm: false },
      { confirm: true },
    ]);
  });

  it('shows any other refusal in the dialog', async () => {
    signInAda();
    historyApi(({ method, path }) => {
      if (method === 'GET' && path.startsWith(`${base}/history`))
        return { status: 200, body: { entries: [RESET], next_before: null } };
      if (method === 'POST')
        return {
          status: 409,
          body: { error: 'conflict', message: 'What this reset removed is no longer kept (7 days).' },
        };
      return undefined;
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Undo: Reset the color roles' }));
    const dialog = await screen.findByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Undo' }));
    const why = await within(dialog).findByRole('alert');
    expect(why.textContent).toBe('What this reset removed is no longer kept (7 days).');
    expect(within(dialog).queryByRole('button', { name: UNDO_ANYWAY })).toBeNull();
  });

  it("follows a restore's job, then reloads the list", async () => {
    signInAda();
    const jobId = jobIdFor('color-roles.restore', STATION.id);
    let polls = 0;
    let listLoads = 0;
    historyApi(({ method, path }) => {
      if (method === 'GET' && path.startsWith(`${base}/history`)) {
        listLoads += 1;
        return { status: 200, body: { entries: [RESET], next_before: null } };
      }
      if (method === 'POST' && path === `${base}/history/2/undo`)
        return { status: 202, body: { job_id: jobId, entry: entry(5, { undo_of: 2 }) } };
      if (path === `/api/jobs/${encodeURIComponent(jobId)}` || path === `/api/jobs/${jobId}`) {
        polls += 1;
        const done = polls >= 2;
        return {
          status: 200,
          body: {
            id: jobId,
            name: 'color-roles.restore',
            guild_id: STATION.id,
            state: done ? 'completed' : 'active',
            progress: done ? 100 : 30,
            result: done ? { ok: true, summary: 'Recreated 38 roles for 412 members' } : undefined,
            error: null,
          },
        };
      }
      return undefined;
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Undo: Reset the color roles' }));
    const dialog = await screen.findByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Undo' }));
    const progress = await screen.findByRole('region', { name: 'Undo progress' });
    await within(progress).findByText('Restoring color roles: done');
    within(progress).getByText('Recreated 38 roles for 412 members');
    const loadsAtEnd = listLoads;
    await waitFor(() => expect(listLoads).toBeGreaterThan(loadsAtEnd));
  });

  it("shows the restored values on the area's page afterwards, without a reload", async () => {
    signInAda();
    let xpPerMessage = 20;
    let undone = false;
    historyApi(({ method, path }) => {
      if (method === 'GET' && path === `${base}/leveling`)
        return {
          status: 200,
          body: {
            leveling: {
              ...LEVELING_SETTINGS,
              xp_per_message: xpPerMessage,
              xp_min: xpPerMessage,
              xp_max: xpPerMessage,
            },
            roles: [],
            boosts: [],
            rank_card_background: false,
          },
        };
      if (method === 'GET' && path === `${base}/channels`) return { status: 200, body: { channels: [] } };
      if (method === 'GET' && path === `${base}/roles`) return { status: 200, body: { roles: [] } };
      if (method === 'GET' && path.startsWith(`${base}/history`))
        return {
          status: 200,
          body: { entries: [{ ...SETTINGS_CHANGE, undoable: !undone }], next_before: null },
        };
      if (method === 'POST' && path === `${base}/history/3/undo`) {
        xpPerMessage = 15;
        undone = true;
        return { status: 200, body: { entry: entry(4, { undo_of: 3 }) } };
      }
      return undefined;
    });
    renderAt(`/dashboard/leveling/settings?guild=${STATION.id}`, routes);
    await waitFor(() => expect(screen.getByLabelText('Most XP per message')).toHaveProperty('value', '20'));
    const sidebar = screen.getByRole('list', { name: 'Server pages' });
    fireEvent.click(within(sidebar).getByRole('link', { name: 'History' }));
    fireEvent.click(
      await screen.findByRole('button', { name: 'Undo: Changed XP per message from 15 to 20' }),
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Undo this change?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    const settingsLink = screen
      .getAllByRole('link')
      .find((link) => link.getAttribute('href')?.startsWith('/dashboard/leveling/settings'));
    fireEvent.click(settingsLink as HTMLElement);
    // The form starts from the restored settings, not from what the cache held before the undo.
    const field = await screen.findByLabelText('Most XP per message');
    expect(field).toHaveProperty('value', '15');
  });
});
