import { MESSAGES } from '@spacecadet/contract';
import { Link } from 'react-router';
import { startSignIn } from '../lib/oauth.ts';

/** A full-page card that asks the user to (re-)authorize with Discord. */
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
  return (
    <main className="centered-state">
      <div className="card" role={alert ? 'alert' : undefined}>
        <h1 className="state-title">{title}</h1>
        <p className="muted">{text}</p>
        <div className="state-actions">
          <button type="button" className="btn btn-primary" onClick={() => void startSignIn()}>
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
