import { MESSAGES } from '@spacecadet/contract';
import { act, screen } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../../test/render.tsx';
import { SESSION_KEYS } from '../../lib/session.ts';
import { SessionExpired, SignInRequired } from './AuthStates.tsx';

const DEEP = '/dashboard/leveling/boosts?guild=300000000000000001';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Clicks the sign-in button and waits for the authorize redirect it starts. */
async function clickAndCatchRedirect(name: string): Promise<string> {
  const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
  await act(async () => screen.getByRole('button', { name }).click());
  await vi.waitFor(() => expect(assign).toHaveBeenCalled());
  return String(assign.mock.calls[0]?.[0]);
}

describe('sign-in from a dashboard page', () => {
  it('Sign in remembers the page (path and query) to come back to', async () => {
    renderAt(DEEP, <Route path="/dashboard/*" element={<SignInRequired />} />);
    screen.getByText(MESSAGES.signInRequired);
    const authorize = await clickAndCatchRedirect('Sign in');
    expect(authorize).toContain('/oauth2/authorize?');
    expect(window.sessionStorage.getItem(SESSION_KEYS.returnTo)).toBe(DEEP);
  });

  it('Re-Authorize does too', async () => {
    renderAt(DEEP, <Route path="/dashboard/*" element={<SessionExpired />} />);
    await clickAndCatchRedirect('Re-Authorize');
    expect(window.sessionStorage.getItem(SESSION_KEYS.returnTo)).toBe(DEEP);
  });

  it('shows a sign-in that cannot start as Error: {message}', async () => {
    vi.spyOn(crypto.subtle, 'digest').mockRejectedValue(new Error('Web Crypto is unavailable'));
    renderAt(DEEP, <Route path="/dashboard/*" element={<SignInRequired />} />);
    await act(async () => screen.getByRole('button', { name: 'Sign in' }).click());
    expect((await screen.findByText(/^Error: /)).textContent).toBe('Error: Web Crypto is unavailable');
  });
});
