import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADA, fakeApi, signInAda } from '../../test/fake-api.ts';
import { restoreSignInAtStart } from './restore-sign-in.ts';
import { getAuthorizationHeader, hasSignInHint, SIGNED_IN_HINT, useSession } from './session.ts';

const REFRESHED = { user: ADA, tokens: { access_token: 'fresh', token_type: 'Bearer', expires_in: 3600 } };

function refreshAnswering(answer: { status: number; body?: unknown }) {
  return fakeApi(({ method, path }) =>
    method === 'POST' && path === '/api/auth/refresh' ? answer : undefined,
  );
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('restoring the sign-in at start', () => {
  it('asks nothing for a browser that never signed in', async () => {
    const { calls } = refreshAnswering({ status: 200, body: REFRESHED });
    const session = renderHook(() => useSession());
    await act(() => restoreSignInAtStart());
    expect(calls).toEqual([]);
    expect(session.result.current.restoring).toBe(false);
    expect(getAuthorizationHeader()).toBeNull();
  });

  it('asks nothing in a tab that has its bearer', async () => {
    signInAda();
    window.localStorage.setItem(SIGNED_IN_HINT, '1');
    const { calls } = refreshAnswering({ status: 200, body: REFRESHED });
    await act(() => restoreSignInAtStart());
    expect(calls).toEqual([]);
  });

  it('shows the loading state at once, before the API client has loaded, then signs the tab in', async () => {
    window.localStorage.setItem(SIGNED_IN_HINT, '1');
    const { calls } = refreshAnswering({ status: 200, body: REFRESHED });
    const session = renderHook(() => useSession());
    let done: Promise<void> = Promise.resolve();
    act(() => {
      done = restoreSignInAtStart();
    });
    expect(session.result.current.restoring).toBe(true);
    await act(() => done);
    expect(session.result.current).toMatchObject({ restoring: false, user: { id: ADA.id } });
    expect(getAuthorizationHeader()).toBe('Bearer fresh');
    expect(calls.filter((call) => call.path === '/api/auth/refresh')).toHaveLength(1);
  });

  it('ends the loading state signed out, and forgets the sign-in, when the cookie is refused', async () => {
    window.localStorage.setItem(SIGNED_IN_HINT, '1');
    refreshAnswering({ status: 401, body: { error: 'not_authenticated', message: 'Sign in required' } });
    const session = renderHook(() => useSession());
    await act(() => restoreSignInAtStart());
    expect(session.result.current).toMatchObject({ restoring: false, user: null });
    expect(hasSignInHint()).toBe(false);
  });
});
