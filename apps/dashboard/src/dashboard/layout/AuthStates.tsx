import { MESSAGES } from '@spacecadet/contract';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { errorText } from '../../lib/api-error.ts';
import { startSignIn } from '../../lib/oauth.ts';

/** A full-page card that asks the user to (re-)authorize with Discord, then come back here. */
function SignInState({
  title,
  text,
  action,
  alert = false,
}: {
  title: string;
  text: string;
  action: string;
  alert?: boolean;
}) {
  const { pathname, search, hash } = useLocation();
  const [problem, setProblem] = useState<string | null>(null);
  const signIn = () => {
    setProblem(null);
    startSignIn(`${pathname}${search}${hash}`).catch((error: unknown) => setProblem(errorText(error)));
  };
  return (
    <main className="centered-state">
      <div className="card" role={alert ? 'alert' : undefined}>
        <h1 className="state-title">{title}</h1>
        <p className="muted">{text}</p>
        {problem ? (
          <p role="alert" className="alert alert-error">
            Error: {problem}
          </p>
        ) : null}
        <div className="state-actions">
          <button type="button" className="btn btn-primary" onClick={signIn}>
            {action}
          </button>
          <Link className="btn btn-secondary" to="/">
            Home
          </Link>
        </div>
      </div>
    </main>
  );
}

export function SignInRequired() {
  return (
    <SignInState
      title={MESSAGES.signInRequired}
      text="Sign in with Discord to manage your servers."
      action="Sign in"
    />
  );
}

export function SessionExpired() {
  return (
    <SignInState
      title="Session Expired"
      text="Your sign-in has expired. Authorize again to keep going."
      action="Re-Authorize"
      alert
    />
  );
}

/** While the browser's sign-in is traded for this tab's session: neither signed in nor out yet. */
export function RestoringSession() {
  return (
    <main className="centered-state">
      <div className="card" role="status">
        <p className="muted">Signing you in…</p>
      </div>
    </main>
  );
}
