import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, STATION, signInAda } from '../../test/fake-api.ts';
import { renderAt } from '../../test/render.tsx';
import { clearSession } from '../lib/session.ts';
import LinkedRolesPage, { LINKED_ROLES_TEXT as TEXT } from './LinkedRolesPage.tsx';
import { LINK_STATE_KEY } from './link-oauth.ts';

const routes = <Route path="/linked-roles" element={<LinkedRolesPage />} />;
const ORBIT = { id: '300000000000000003', name: 'Other Orbit' };
const SERVERS = [
  { guild_id: STATION.id, name: STATION.name, level: 4, xp: 900 },
  { guild_id: ORBIT.id, name: ORBIT.name, level: 1, xp: 120 },
];
const NOT_LINKED = { linked: false, guild_id: null, pushed: null, push_pending: false, servers: SERVERS };
const LINKED = {
  linked: true,
  guild_id: STATION.id,
  pushed: { level: 4, xp: 900, at: '2026-11-29T00:00:00.000Z' },
  push_pending: false,
  servers: SERVERS,
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  clearSession();
  window.sessionStorage.clear();
});

describe('Linked Roles page', () => {
  it('explains and offers Link with Discord when signed out, asking the API nothing', async () => {
    const { calls } = fakeApi(() => undefined);
    renderAt('/linked-roles', routes);
    await screen.findByRole('button', { name: 'Link with Discord' });
    expect(screen.getByText(TEXT.signInFirst)).toBeTruthy();
    expect(calls.filter((c) => c.path.startsWith('/api/me/linked-roles'))).toEqual([]);
  });

  it('starts the linking OAuth without PKCE and with a state when signed in and not linked', async () => {
    signInAda();
    fakeApi(({ method, path }) =>
      method === 'GET' && path === '/api/me/linked-roles' ? { status: 200, body: NOT_LINKED } : undefined,
    );
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, origin: window.location.origin });
    renderAt('/linked-roles', routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Link with Discord' }));
    const url = new URL(String(assign.mock.calls[0]?.[0]));
    expect(url.searchParams.get('scope')).toBe('identify role_connections.write');
    expect(url.searchParams.get('code_challenge')).toBeNull();
    expect(url.searchParams.get('redirect_uri')).toMatch(/\/linked-roles$/);
    expect(url.searchParams.get('state')).toBe(window.sessionStorage.getItem(LINK_STATE_KEY));
  });

  it("trades Discord's code once, then shows the value pushed and lets the member pick another server", async () => {
    signInAda();
    window.sessionStorage.setItem(LINK_STATE_KEY, 'st-1');
    const { calls } = fakeApi(({ method, path, body }) => {
      if (path !== '/api/me/linked-roles') return undefined;
      if (method === 'POST') return { status: 200, body: LINKED };
      if (method === 'PUT') {
        const pick = (body as { guild_id: string }).guild_id;
        return { status: 200, body: { ...LINKED, guild_id: pick, push_pending: true } };
      }
      return { status: 200, body: LINKED };
    });
    renderAt('/linked-roles?code=the-code&state=st-1', routes);
    await screen.findByText(/in Sandbox Station/);
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', path: '/api/me/linked-roles', body: { code: 'the-code' } },
    ]);
    fireEvent.change(screen.getByRole('combobox'), { target: { value: ORBIT.id } });
    await screen.findByText(TEXT.pending);
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ guild_id: ORBIT.id }]);
  });

  it('refuses a code whose state this tab did not send, and shows the API refusing a link', async () => {
    signInAda();
    window.sessionStorage.setItem(LINK_STATE_KEY, 'mine');
    const { calls } = fakeApi(({ method, path }) =>
      path === '/api/me/linked-roles' && method === 'GET' ? { status: 200, body: NOT_LINKED } : undefined,
    );
    renderAt('/linked-roles?code=stolen&state=theirs', routes);
    expect((await screen.findByRole('alert')).textContent).toBe(TEXT.staleState);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    cleanup();

    window.sessionStorage.setItem(LINK_STATE_KEY, 'st-2');
    fakeApi(({ method, path }) => {
      if (path !== '/api/me/linked-roles') return undefined;
      if (method === 'POST') {
        return { status: 403, body: { error: 'forbidden', message: 'That is another Discord account' } };
      }
      return { status: 200, body: NOT_LINKED };
    });
    renderAt('/linked-roles?code=c&state=st-2', routes);
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        `${TEXT.linkFailed}: That is another Discord account`,
      ),
    );
  });

  it('unlinks and offers linking again', async () => {
    signInAda();
    let linked = true;
    fakeApi(({ method, path }) => {
      if (path !== '/api/me/linked-roles') return undefined;
      if (method === 'DELETE') {
        linked = false;
        return { status: 204 };
      }
      return { status: 200, body: linked ? LINKED : NOT_LINKED };
    });
    renderAt('/linked-roles', routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Unlink' }));
    await screen.findByRole('button', { name: 'Link with Discord' });
    expect(linked).toBe(false);
  });
});
