import { MESSAGES } from '@spacecadet/contract';
import { Link } from 'react-router';
import { startSignIn } from '../lib/oauth.ts';

export function SignInRequired() {
  return (
    <main className="centered-state">
      <div className="card">
        <h1 className="state-title">{MESSAGES.signInRequired}</h1>
        <p className="muted">Sign in with Discord to manage your servers.</p>
        <div className="state-actions">
          <button type="button" className="btn btn-primary" onClick={() => void startSignIn()}>
            Sign in
          </button>
          <Link className="btn btn-secondary" to="/">
            Home
          </Link>
        </div>
      </div>
    </main>
  );
}

export function SessionExpired() {
  return (
    <main className="centered-state">
      <div className="card" role="alert">
        <h1 className="state-title">Session Expired</h1>
        <p className="muted">Your sign-in has expired. Authorize again to keep going.</p>
        <div className="state-actions">
          <button type="button" className="btn btn-primary" onClick={() => void startSignIn()}>
            Re-Authorize
          </button>
          <Link className="btn btn-secondary" to="/">
            Home
          </Link>
        </div>
      </div>
    </main>
  );
}
