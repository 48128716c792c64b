import type { SessionUser } from '@spacecadet/contract';
import { MESSAGES } from '@spacecadet/contract';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { apiCall } from '../lib/api.ts';
import { errorText } from '../lib/api-error.ts';
import { avatarUrl } from '../lib/cdn.ts';
import { installUrl, peekReturnPath, startSignIn, takeReturnPath } from '../lib/oauth.ts';
import { SESSION_KEYS, storeSession } from '../lib/session.ts';
import '../styles/landing.css';
import { Avatar } from '../ui/Avatar.tsx';

export const REDIRECT_AFTER_SIGN_IN_MS = 500;

export type CallbackState =
  | { status: 'idle' }
  | { status: 'exchanging' }
  | { status: 'done'; user: SessionUser }
  /** `message` without the `Error: ` prefix: the page adds it, the same for every error. */
  | { status: 'error'; message: string; inviteHint?: boolean };

// StrictMode runs effects twice; a code can be exchanged only once.
const exchanges = new Map<string, Promise<SessionUser>>();

function exchange(code: string, verifier: string): Promise<SessionUser> {
  let pending = exchanges.get(code);
  if (!pending) {
    pending = apiCall('exchangeCode', { body: { code, code_verifier: verifier } }).then(
      ({ user, tokens }) => {
        storeSession(user, tokens);
        window.sessionStorage.removeItem(SESSION_KEYS.verifier);
        window.sessionStorage.removeItem(SESSION_KEYS.state);
        return user;
      },
    );
    exchanges.set(code, pending);
  }
  return pending;
}

/**
 * Checks the sign-in's code, verifier and state, exchanges the code for a session once, and goes
 * back to the page that asked for sign-in (or the dashboard) soon after.
 */
function useSignInExchange(
  code: string | null,
  guildId: string | null,
  returnedState: string | null,
): CallbackState {
  const navigate = useNavigate();
  const [state, setState] = useState<CallbackState>({ status: 'idle' });

  useEffect(() => {
    if (!code) {
      setState({ status: 'error', message: MESSAGES.noCodeProvided });
      return;
    }
    const verifier = window.sessionStorage.getItem(SESSION_KEYS.verifier);
    if (!verifier) {
      setState(
        guildId
          ? { status: 'error', message: MESSAGES.botInstallOnSignIn, inviteHint: true }
          : {
              status: 'error',
              message: 'This sign-in was not started here. Please try signing in again.',
            },
      );
      return;
    }
    const expectedState = window.sessionStorage.getItem(SESSION_KEYS.state);
    if (expectedState && returnedState !== expectedState) {
      setState({
        status: 'error',
        message: 'Sign-in state did not match. Please try signing in again.',
      });
      return;
    }
    let active = true;
    let timer = 0;
    setState({ status: 'exchanging' });
    exchange(code, verifier)
      .then((user) => {
        if (!active) return;
        setState({ status: 'done', user });
        // Back to the dashboard page that asked for sign-in, if any.
        const target = takeReturnPath() ?? '/dashboard';
        timer = window.setTimeout(() => navigate(target, { replace: true }), REDIRECT_AFTER_SIGN_IN_MS);
      })
      .catch((error: unknown) => {
        if (active) setState({ status: 'error', message: errorText(error) });
      });
    return () => {
      active = false;
      window.clearTimeout(timer);
    };
  }, [code, guildId, returnedState, navigate]);
  return state;
}

export default function AuthCallback() {
  const [search] = useSearchParams();
  const code = search.get('code');
  const guildId = search.get('guild_id');
  const returnedState = search.get('state');
  const state = useSignInExchange(code, guildId, returnedState);

  return (
    <main className="centered-state">
      <div className="card callback-card" aria-live="polite">
        {state.status === 'idle' || state.status === 'exchanging' ? (
          <>
            <span className="spinner" aria-hidden="true" />
            <h1 className="callback-title">Completing sign-in…</h1>
          </>
        ) : null}
        {state.status === 'done' ? (
          <>
            <Avatar
              src={avatarUrl(state.user)}
              name={state.user.username}
              size={64}
              className="callback-avatar"
            />
            <h1 className="callback-title">Welcome aboard, {state.user.username}</h1>
            <p className="muted">ID {state.user.id}</p>
            <p>Taking you to the dashboard…</p>
          </>
        ) : null}
        {state.status === 'error' ? (
          <>
            <h1 className="callback-title">Sign-in failed</h1>
            <p role="alert" className="alert alert-error">
              Error: {state.message}
            </p>
            <div className="callback-actions">
              {guildId ? (
                <a className="btn btn-discord" href={installUrl(guildId)}>
                  {state.inviteHint ? 'Invite' : 'Invite Bot'}
                </a>
              ) : null}
              <button
                type="button"
                className="btn btn-secondary"
                onClick={() => void startSignIn(peekReturnPath())}
              >
                Try again
              </button>
              <Link className="btn btn-ghost" to="/">
                Home
              </Link>
            </div>
          </>
        ) : null}
      </div>
    </main>
  );
}
