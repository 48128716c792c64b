import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADA, fakeApi, STATION, signInAda } from '../../../test/fake-api.ts';
import { renderAt } from '../../../test/render.tsx';
import DashboardApp from '../DashboardApp.tsx';

const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;
const BOARD_URL = 'http://127.0.0.1:4000/admin/queues?ticket=abc';

function api(
  isOwner: boolean,
  ticket: { status: number; body?: unknown } = { status: 200, body: { url: BOARD_URL } },
) {
  return fakeApi(({ method, path }) => {
    const key = `${method} ${path}`;
    if (key === 'GET /api/discord/me/guilds') return { status: 200, body: [STATION] };
    if (key === 'GET /api/auth/session')
      return { status: 200, body: { user: ADA, is_owner: isOwner, expires_at: '2030-01-01T00:00:00Z' } };
    if (key === 'POST /api/admin/queue-view') return ticket;
    if (path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: true } };
    return undefined;
  });
}

/** The tab the browser would open: starts at about:blank, then is sent to the ticket's URL. */
function fakeTab() {
  const tab = { opener: {} as unknown, location: { href: 'about:blank' }, close: vi.fn() };
  const open = vi.spyOn(window, 'open').mockImplementation(() => tab as unknown as Window);
  return { tab, open };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('queue view button', () => {
  it('shows the platform owner a Queue view button that opens the ticket URL in a new tab', async () => {
    signInAda();
    const { calls } = api(true);
    const { tab, open } = fakeTab();
    renderAt(`/dashboard?guild=${STATION.id}`, routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Queue view' }));
    await waitFor(() => expect(tab.location.href).toBe(BOARD_URL));
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(tab.opener).toBeNull();
    expect(calls.filter((call) => call.path === '/api/admin/queue-view').map((call) => call.method)).toEqual([
      'POST',
    ]);
  });

  it('closes the tab and says so when the API refuses the ticket', async () => {
    signInAda();
    api(true, {
      status: 403,
      body: { error: 'forbidden', message: 'Only the platform owner may open the queue view' },
    });
    const { tab } = fakeTab();
    renderAt(`/dashboard?guild=${STATION.id}`, routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Queue view' }));
    await screen.findByRole('button', { name: 'Queue view: try again' });
    expect(tab.close).toHaveBeenCalled();
    expect(tab.location.href).toBe('about:blank');
  });

  it('shows no button to anyone the API does not call the owner', async () => {
    signInAda();
    const { fetchMock } = api(false);
    renderAt(`/dashboard?guild=${STATION.id}`, routes);
    await screen.findByRole('button', { name: /Account/ });
    const sessionAnswer = await waitFor(() => {
      const index = fetchMock.mock.calls.findIndex(([input]) => String(input).endsWith('/api/auth/session'));
      expect(index).toBeGreaterThanOrEqual(0);
      return fetchMock.mock.results[index]?.value;
    });
    // Let the session's answer reach the header before looking for the button.
    await act(async () => {
      await sessionAnswer;
    });
    expect(screen.queryByRole('button', { name: /Queue view/ })).toBeNull();
  });
});
