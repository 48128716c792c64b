import { MESSAGES } from '@spacecadet/contract';
import { screen, waitFor } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADA, fakeApi } from '../../test/fake-api.ts';
import { renderAt } from '../../test/render.tsx';
import { getStoredTokens, getStoredUser, SESSION_KEYS } from '../lib/session.ts';
import AuthCallback from './AuthCallback.tsx';

const VERIFIER = 'v'.repeat(64);
const routes = (
  <>
    <Route path="/auth/callback" element={<AuthCallback />} />
    <Route path="/dashboard" element={<p>Dashboard page</p>} />
  </>
);
const deepRoutes = (
  <>
    {routes}
    <Route path="/dashboard/*" element={<p>Dashboard subpage</p>} />
  </>
);

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('AuthCallback', () => {
  it('says no code was provided, as Error: {message}', async () => {
    renderAt('/auth/callback', routes);
    expect((await screen.findByRole('alert')).textContent).toBe(`Error: ${MESSAGES.noCodeProvided}`);
  });

  it('treats a code with guild_id and no verifier as a bot install, with the Invite link', async () => {
    renderAt('/auth/callback?code=abc&guild_id=300000000000000001', routes);
    expect((await screen.findByRole('alert')).textContent).toBe(`Error: ${MESSAGES.botInstallOnSignIn}`);
    expect(screen.getByRole('link', { name: 'Invite' }).getAttribute('href')).toBe(
      'http://127.0.0.1:4000/install?guildId=300000000000000001',
    );
  });

  it('shows Error: {message} and Invite Bot when the exchange fails with guild_id present', async () => {
    window.sessionStorage.setItem(SESSION_KEYS.verifier, VERIFIER);
    fakeApi(() => ({ status: 401, body: { error: 'auth_failed', message: 'Discord refused the code' } }));
    renderAt('/auth/callback?code=fail1&guild_id=300000000000000001', routes);
    expect((await screen.findByRole('alert')).textContent).toBe('Error: Discord refused the code');
    screen.getByRole('link', { name: 'Invite Bot' });
  });

  it('rejects a state that does not match', async () => {
    window.sessionStorage.setItem(SESSION_KEYS.verifier, VERIFIER);
    window.sessionStorage.setItem(SESSION_KEYS.state, 'expected');
    renderAt('/auth/callback?code=abc&state=other', routes);
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Error: Sign-in state did not match/);
  });

  it('exchanges the code, stores the session, shows the user, then goes to /dashboard', async () => {
    window.sessionStorage.setItem(SESSION_KEYS.verifier, VERIFIER);
    window.sessionStorage.setItem(SESSION_KEYS.state, 'st');
    const api = fakeApi(() => ({
      status: 200,
      body: { user: ADA, tokens: { access_token: 'tok', token_type: 'Bearer', expires_in: 120 } },
    }));
    const before = Date.now();
    renderAt('/auth/callback?code=good1&state=st', routes);
    screen.getByText('Completing sign-in…');
    await screen.findByText(/Welcome aboard, ada/);
    screen.getByText(`ID ${ADA.id}`);
    expect(api.calls[0]).toEqual({
      method: 'POST',
      path: '/api/auth/discord/exchange',
      body: { code: 'good1', code_verifier: VERIFIER },
    });
    expect(getStoredUser()).toEqual(ADA);
    const tokens = getStoredTokens();
    expect(tokens?.expires_at).toBeGreaterThanOrEqual(before + 120_000);
    expect(window.sessionStorage.getItem(SESSION_KEYS.authorization)).toBe('Bearer tok');
    expect(window.sessionStorage.getItem(SESSION_KEYS.verifier)).toBeNull();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'));
  });

  it('returns to the dashboard page that asked for sign-in', async () => {
    window.sessionStorage.setItem(SESSION_KEYS.verifier, VERIFIER);
    window.sessionStorage.setItem(
      SESSION_KEYS.returnTo,
      '/dashboard/leveling/boosts?guild=300000000000000001',
    );
    fakeApi(() => ({
      status: 200,
      body: { user: ADA, tokens: { access_token: 'tok', token_type: 'Bearer', expires_in: 120 } },
    }));
    renderAt('/auth/callback?code=deep1', deepRoutes);
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe(
        '/dashboard/leveling/boosts?guild=300000000000000001',
      ),
    );
    expect(window.sessionStorage.getItem(SESSION_KEYS.returnTo)).toBeNull();
  });

  it('ignores a stored return path that leaves the dashboard', async () => {
    for (const [index, evil] of [
      '//evil.example/dashboard',
      'https://evil.example/',
      '/\\evil.example',
    ].entries()) {
      window.sessionStorage.setItem(SESSION_KEYS.verifier, VERIFIER);
      window.sessionStorage.setItem(SESSION_KEYS.returnTo, evil);
      fakeApi(() => ({
        status: 200,
        body: { user: ADA, tokens: { access_token: 'tok', token_type: 'Bearer', expires_in: 120 } },
      }));
      const view = renderAt(`/auth/callback?code=evil${index}`, deepRoutes);
      await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'));
      view.unmount();
    }
  });
});
