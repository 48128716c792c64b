import { MESSAGES } from '@spacecadet/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADA, fakeApi, STATION, signInAda } from '../../../test/fake-api.ts';
import { renderAt } from '../../../test/render.tsx';
import { refreshSession, restoreSignIn } from '../../lib/api.ts';
import { getAuthorizationHeader, hasSignInHint, SESSION_KEYS, SIGNED_IN_HINT } from '../../lib/session.ts';
import DashboardApp from '../DashboardApp.tsx';

const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;
const REFRESHED = { user: ADA, tokens: { access_token: 'fresh', token_type: 'Bearer', expires_in: 3600 } };
const REFUSED = { status: 401, body: { error: 'not_authenticated', message: 'Sign in required' } };

/** The dashboard's API, with the refresh route answering `refresh` (a function: answered when asked). */
type Answer = { status: number; body?: unknown };

function api(refresh: () => Answer, guilds: () => Answer = () => ({ status: 200, body: [STATION] })) {
  return fakeApi(({ method, path }) => {
    const key = `${method} ${path}`;
    if (key === 'POST /api/auth/refresh') return refresh();
    if (key === 'GET /api/discord/me/guilds') return guilds();
    if (path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: true } };
    if (key === 'POST /api/auth/logout' || key === 'POST /api/auth/logout-everywhere') return { status: 204 };
    return undefined;
  });
}

/** A browser that signed in before, in a tab that has no bearer yet (a new tab, a restarted browser). */
function newTabOfSignedInBrowser() {
  window.localStorage.setItem(SIGNED_IN_HINT, '1');
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('a new tab of a signed-in browser', () => {
  it('shows Signing you in… (not signed out) while it trades the cookie, then the dashboard', async () => {
    newTabOfSignedInBrowser();
    let answer: (() => void) | null = null;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const { fetchMock, calls } = api(() => ({ status: 200, body: REFRESHED }));
    // Hold the refresh until the loading state has been seen.
    const real = fetchMock.getMockImplementation();
    fetchMock.mockImplementationOnce(async (...args) => {
      await answered;
      return (real as NonNullable<typeof real>)(...args);
    });
    restoreSignIn();
    renderAt(`/dashboard?guild=${STATION.id}`, routes);
    await screen.findByText('Signing you in…');
    expect(screen.queryByText(MESSAGES.signInRequired)).toBeNull();
    act(() => answer?.());
    await screen.findByRole('button', { name: /Account/ });
    expect(getAuthorizationHeader()).toBe('Bearer fresh');
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toMatch(/\/api\/auth\/refresh$/);
    expect(init?.credentials).toBe('include');
    expect(calls.filter((call) => call.path === '/api/auth/refresh')).toHaveLength(1);
  });

  it('shows Sign in required when the cookie is refused, and stops trying', async () => {
    newTabOfSignedInBrowser();
    const { calls } = api(() => REFUSED);
    restoreSignIn();
    renderAt(`/dashboard?guild=${STATION.id}`, routes);
    await screen.findByText(MESSAGES.signInRequired);
    expect(hasSignInHint()).toBe(false);
    await expect(refreshSession('signed_out')).resolves.toBe(false);
    expect(calls.filter((call) => call.path === '/api/auth/refresh')).toHaveLength(1);
  });

  it('never asks the API for a browser that has not signed in', async () => {
    const { calls } = api(() => ({ status: 200, body: REFRESHED }));
    restoreSignIn();
    renderAt(`/dashboard?guild=${STATION.id}`, routes);
    await screen.findByText(MESSAGES.signInRequired);
    expect(calls).toEqual([]);
  });
});

describe('a bearer the API refuses', () => {
  it('is replaced by one refresh, shared by the calls that were refused, and the calls retried', async () => {
    signInAda();
    let refused = true;
    const { calls } = api(
      () => {
        refused = false;
        return { status: 200, body: REFRESHED };
      },
      () =>
        refused
          ? { status: 401, body: { error: 'session_expired', message: 'expired' } }
          : { status: 200, body: [STATION] },
    );
    renderAt(`/dashboard?guild=${STATION.id}`, routes);
    await screen.findByRole('button', { name: /Account/ });
    await waitFor(() => expect(getAuthorizationHeader()).toBe('Bearer fresh'));
    expect(calls.filter((call) => call.path === '/api/auth/refresh')).toHaveLength(1);
    expect(screen.queryByText('Session Expired')).toBeNull();
  });

  it('shows Session Expired with Re-Authorize when the refresh fails too', async () => {
    signInAda();
    api(
      () => ({ status: 401, body: { error: 'session_expired', message: 'expired' } }),
      () => ({ status: 401, body: { error: 'session_expired', message: 'expired' } }),
    );
    renderAt(`/dashboard?guild=${STATION.id}`, routes);
    await screen.findByText('Session Expired');
    screen.getByRole('button', { name: 'Re-Authorize' });
    expect(window.sessionStorage.getItem(SESSION_KEYS.expired)).toBe('1');
  });
});

describe('the account menu', () => {
  it.each([
    ['Sign out', '/api/auth/logout'],
    ['Sign out everywhere', '/api/auth/logout-everywhere'],
  ])('%s ends the sign-in (with the cookie) and forgets it in every tab', async (item, path) => {
    signInAda();
    const { calls, fetchMock } = api(() => REFUSED);
    const otherTab = new BroadcastChannel('spacecadet-sign-out');
    const heard = new Promise<unknown>((resolve) =>
      otherTab.addEventListener('message', (event) => resolve(event.data)),
    );
    renderAt(`/dashboard?guild=${STATION.id}`, routes);
    fireEvent.click(await screen.findByRole('button', { name: /Account/ }));
    fireEvent.click(screen.getByRole('menuitem', { name: new RegExp(`^${item}(?! everywhere)`) }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([path]);
    const init = fetchMock.mock.calls.find(([url]) => String(url).endsWith(path))?.[1];
    expect(init?.credentials).toBe('include');
    expect(getAuthorizationHeader()).toBeNull();
    expect(hasSignInHint()).toBe(false);
    await expect(heard).resolves.toBe('signed_out');
    otherTab.close();
  });

  it('says so and keeps the user signed in when signing out everywhere fails', async () => {
    signInAda();
    fakeApi(({ method, path }) => {
      if (`${method} ${path}` === 'GET /api/discord/me/guilds') return { status: 200, body: [STATION] };
      if (path === '/api/auth/logout-everywhere')
        return { status: 503, body: { error: 'unavailable', message: 'Database unavailable' } };
      if (path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: true } };
      return undefined;
    });
    renderAt(`/dashboard?guild=${STATION.id}`, routes);
    fireEvent.click(await screen.findByRole('button', { name: /Account/ }));
    fireEvent.click(screen.getByRole('menuitem', { name: /^Sign out everywhere/ }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Error: /);
    expect(getAuthorizationHeader()).toBe('Bearer tok');
  });
});
