import type { MemberDataErased } from '@spacecadet/contract';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../dashboard/shared/ConfirmDialog.tsx';
import { SiteFooter } from '../landing/SiteFooter.tsx';
import { SiteHeader } from '../landing/SiteHeader.tsx';
import { apiCall } from '../lib/api.ts';
import { errorText } from '../lib/api-error.ts';
import { download } from '../lib/download.ts';
import { startSignIn } from '../lib/oauth.ts';
import { clearSession, useSession } from '../lib/session.ts';
import '../styles/landing.css';
import { ErrorAlert } from '../ui/Field.tsx';

export const YOUR_DATA_TEXT = {
  downloadFailed: 'Could not prepare your data',
  deleteFailed: 'Could not delete your data',
  confirm:
    'This deletes your XP, levels, daily activity, pending level-ups and role picks in every server, and what the bot keeps about you for the moment (cooldowns, picks being applied, your server list). History entries of server changes stay, without your name and avatar. Then you are signed out everywhere. This cannot be undone.',
} as const;

/**
 * Your data (/account): download everything stored about you as a JSON file, or delete it (then
 * you are signed out, and the page says what went).
 */
export default function YourData() {
  const { user } = useSession();
  const [erased, setErased] = useState<MemberDataErased | null>(null);
  useEffect(() => {
    document.title = 'Your data · Space Cadet';
  }, []);
  return (
    <div className="legal">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" className="container">
        <article className="legal-body your-data">
          <h1>Your data</h1>
          {erased ? (
            <Erased counts={erased} />
          ) : user ? (
            <>
              <p>
                Signed in as <strong>{user.username}</strong> (ID {user.id}). What is kept and for how long is
                in the <Link to="/privacy">Privacy Policy</Link>.
              </p>
              <DownloadSection />
              <DeleteSection onErased={setErased} />
            </>
          ) : (
            <SignInFirst />
          )}
        </article>
      </main>
      <SiteFooter />
    </div>
  );
}

function DownloadSection() {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const run = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const data = await apiCall('exportMemberData');
      download(
        `${JSON.stringify(data, null, 2)}\n`,
        `spacecadet-my-data-${data.exported_at.slice(0, 10)}.json`,
        'application/json',
      );
    } catch (error) {
      setProblem(`${YOUR_DATA_TEXT.downloadFailed}: ${errorText(error)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="download-title">
      <h2 id="download-title">Download my data</h2>
      <p>
        One JSON file with everything stored about you: your sign-in sessions (never their secrets), your XP,
        levels and daily activity in each server, your role picks, the History entries that name you, and what
        the bot holds about you for the moment.
      </p>
      <ErrorAlert>{problem}</ErrorAlert>
      <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void run()}>
        {busy ? 'Preparing your file…' : 'Download my data'}
      </button>
    </section>
  );
}

function DeleteSection({ onErased }: { onErased: (counts: MemberDataErased) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const erase = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const counts = await apiCall('eraseMemberData');
      onErased(counts);
      clearSession();
    } catch (error) {
      setProblem(`${YOUR_DATA_TEXT.deleteFailed}: ${errorText(error)}`);
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="delete-title">
      <h2 id="delete-title">Delete my data</h2>
      <p>
        Deletes your XP, activity and picks in every server and signs you out everywhere. You can keep
        chatting: XP you earn afterwards is new data.
      </p>
      <ErrorAlert>{problem}</ErrorAlert>
      <button type="button" className="btn btn-danger" onClick={() => setConfirming(true)}>
        Delete my data
      </button>
      {confirming ? (
        <ConfirmDialog
          title="Delete your data?"
          confirmLabel={busy ? 'Deleting…' : 'Delete my data'}
          busy={busy}
          onConfirm={() => void erase()}
          onCancel={() => setConfirming(false)}
        >
          <p>{YOUR_DATA_TEXT.confirm}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

function Erased({ counts }: { counts: MemberDataErased }) {
  return (
    <div role="status">
      <h2>Your data was deleted</h2>
      <ul>
        <li>{plural(counts.xp_rows, 'server XP record')}</li>
        <li>{plural(counts.daily_rows, 'day of activity', 'days of activity')}</li>
        <li>{plural(counts.picks, 'role pick')}</li>
        <li>{plural(counts.history_entries, 'History entry', 'History entries')} kept without your name</li>
        <li>{plural(counts.sessions_revoked, 'session')} ended</li>
      </ul>
      <p>You are signed out.</p>
      <Link className="btn btn-secondary" to="/">
        Home
      </Link>
    </div>
  );
}

function SignInFirst() {
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <>
      <p>Sign in with Discord to download or delete what is stored about you.</p>
      <ErrorAlert>{problem}</ErrorAlert>
      <button
        type="button"
        className="btn btn-primary"
        onClick={() => startSignIn('/account').catch((error: unknown) => setProblem(errorText(error)))}
      >
        Sign in with Discord
      </button>
    </>
  );
}
