import type { LinkedRolesState } from '@spacecadet/contract';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { SiteFooter } from '../landing/SiteFooter.tsx';
import { SiteHeader } from '../landing/SiteHeader.tsx';
import { apiCall } from '../lib/api.ts';
import { errorText } from '../lib/api-error.ts';
import { startSignIn } from '../lib/oauth.ts';
import { useSession } from '../lib/session.ts';
import '../styles/landing.css';
import { ErrorAlert } from '../ui/Field.tsx';
import { buildLinkUrl, takeLinkState } from './link-oauth.ts';

export const LINKED_ROLES_TEXT = {
  intro:
    'Show your Space Cadet level and XP in Discord: servers can then give roles like "Level ≥ 10" through Linked Roles, and your level shows on your profile.',
  signInFirst: 'Sign in with Discord first, then allow Space Cadet to update your role connection.',
  notLinked: 'Allow Space Cadet to update your role connection; it only ever sends your level and XP.',
  staleState: 'This link did not start on this page. Link again.',
  loadFailed: 'Could not load your link',
  linkFailed: 'Could not link',
  pickFailed: 'Could not change the server',
  unlinkFailed: 'Could not unlink',
  noServers: 'You have no XP yet in a server with Space Cadet. Chat there, then pick it here.',
  pending: 'Sending to Discord…',
} as const;

/**
 * Linked Roles (/linked-roles): the application's verification URL. Signed out it explains and
 * offers sign-in; signed in it links (the linking OAuth comes back here with a code), shows what
 * Discord holds, lets the member pick the server whose level it shows, and unlinks.
 */
export default function LinkedRolesPage() {
  const { user } = useSession();
  useEffect(() => {
    document.title = 'Linked Roles · Space Cadet';
  }, []);
  return (
    <div className="legal">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" className="container">
        <article className="legal-body linked-roles">
          <h1>Your level in Discord's Linked Roles</h1>
          <p>{LINKED_ROLES_TEXT.intro}</p>
          {user ? <LinkedRoles /> : <SignInFirst />}
        </article>
      </main>
      <SiteFooter />
    </div>
  );
}

function SignInFirst() {
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <>
      <p>{LINKED_ROLES_TEXT.signInFirst}</p>
      <ErrorAlert>{problem}</ErrorAlert>
      <button
        type="button"
        className="btn btn-primary"
        onClick={() => startSignIn('/linked-roles').catch((error: unknown) => setProblem(errorText(error)))}
      >
        Link with Discord
      </button>
    </>
  );
}

/** Trades Discord's code once (a React re-run must not send it twice), else loads the link. */
function useLinkState() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const [state, setState] = useState<LinkedRolesState | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const code = search.get('code');
    const refused = search.get('error');
    const run = async () => {
      if (refused !== null || code !== null) navigate('/linked-roles', { replace: true });
      if (refused !== null) {
        setProblem(`${LINKED_ROLES_TEXT.linkFailed}: ${search.get('error_description') ?? refused}`);
      } else if (code !== null) {
        if (!takeLinkState(search.get('state'))) setProblem(LINKED_ROLES_TEXT.staleState);
        else {
          try {
            setState(await apiCall('linkRoleConnection', { body: { code } }));
            return;
          } catch (error) {
            setProblem(`${LINKED_ROLES_TEXT.linkFailed}: ${errorText(error)}`);
          }
        }
      }
      try {
        setState(await apiCall('getLinkedRoles'));
      } catch (error) {
        setProblem(`${LINKED_ROLES_TEXT.loadFailed}: ${errorText(error)}`);
      }
    };
    void run();
  }, [search, navigate]);
  return { state, setState, problem, setProblem };
}

function LinkedRoles() {
  const { state, setState, problem, setProblem } = useLinkState();
  const [busy, setBusy] = useState(false);
  const act = async (what: string, call: () => Promise<LinkedRolesState>) => {
    setBusy(true);
    setProblem(null);
    try {
      setState(await call());
    } catch (error) {
      setProblem(`${what}: ${errorText(error)}`);
    } finally {
      setBusy(false);
    }
  };
  if (state === null) return problem ? <ErrorAlert>{problem}</ErrorAlert> : <p>Loading…</p>;
  return (
    <>
      <ErrorAlert>{problem}</ErrorAlert>
      {state.linked ? (
        <Linked
          state={state}
          busy={busy}
          onPick={(guildId) =>
            void act(LINKED_ROLES_TEXT.pickFailed, () =>
              apiCall('pickLinkedServer', { body: { guild_id: guildId } }),
            )
          }
          onUnlink={() =>
            void act(LINKED_ROLES_TEXT.unlinkFailed, async () => {
              await apiCall('unlinkRoleConnection');
              return apiCall('getLinkedRoles');
            })
          }
        />
      ) : (
        <>
          <p>{LINKED_ROLES_TEXT.notLinked}</p>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => window.location.assign(buildLinkUrl())}
          >
            Link with Discord
          </button>
        </>
      )}
    </>
  );
}

function Linked(props: {
  state: LinkedRolesState;
  busy: boolean;
  onPick: (guildId: string) => void;
  onUnlink: () => void;
}) {
  const { state, busy } = props;
  const shown = state.servers.find((s) => s.guild_id === state.guild_id);
  return (
    <>
      <section aria-labelledby="shown-title">
        <h2 id="shown-title">What Discord shows</h2>
        {state.pushed ? (
          <p>
            Level <strong>{state.pushed.level}</strong> · {state.pushed.xp.toLocaleString('en-US')} XP
            {shown ? ` in ${shown.name}` : ''}
          </p>
        ) : (
          <p>Nothing yet.</p>
        )}
        {state.push_pending ? <p role="status">{LINKED_ROLES_TEXT.pending}</p> : null}
      </section>
      <section aria-labelledby="server-title">
        <h2 id="server-title">Server</h2>
        {state.servers.length === 0 ? (
          <p>{LINKED_ROLES_TEXT.noServers}</p>
        ) : (
          <label>
            Show my level in{' '}
            <select
              value={state.guild_id ?? ''}
              disabled={busy}
              onChange={(event) => props.onPick(event.target.value)}
            >
              {state.guild_id === null ? <option value="">Pick a server</option> : null}
              {state.servers.map((s) => (
                <option key={s.guild_id} value={s.guild_id}>
                  {s.name} (level {s.level})
                </option>
              ))}
            </select>
          </label>
        )}
      </section>
      <section aria-labelledby="unlink-title">
        <h2 id="unlink-title">Unlink</h2>
        <p>Removes your level from Discord and forgets the link.</p>
        <button type="button" className="btn btn-danger" disabled={busy} onClick={props.onUnlink}>
          Unlink
        </button>
      </section>
    </>
  );
}
