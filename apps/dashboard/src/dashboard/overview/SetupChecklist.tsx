import type { SetupChecklist as Checklist, SetupLine, SetupRoleOrderEntry } from '@spacecadet/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { withGuild } from '../shared/guild-param.ts';
import '../../styles/setup-checklist.css';

/** Polled while the overview is open: the API answers from its cache until the worker drops it. */
const REFRESH_MS = 4000;

/**
 * The server's setup checklist (services/setup-checklist.ts in the API), shown on the overview
 * until an admin dismisses it for everyone; each line links to its fix and turns ✓ live.
 */
export function SetupChecklist({ guildId }: { guildId: string }) {
  const client = useQueryClient();
  const key = ['setup-checklist', guildId];
  const query = useQuery({
    queryKey: key,
    queryFn: () => apiCall('getSetupChecklist', { params: { guildId } }),
    refetchInterval: REFRESH_MS,
    staleTime: 0,
  });
  const toggle = useMutation({
    mutationFn: (dismiss: boolean) =>
      apiCall(dismiss ? 'dismissSetupChecklist' : 'restoreSetupChecklist', { params: { guildId } }),
    onSuccess: (data) => client.setQueryData(key, data),
  });
  if (query.isPending) {
    return (
      <section className="card setup-card" aria-busy="true">
        <p className="muted">Checking this server&rsquo;s setup…</p>
      </section>
    );
  }
  if (query.isError) {
    return (
      <p className="alert alert-error" role="alert">
        The setup checklist could not be loaded: {errorText(query.error)}
      </p>
    );
  }
  const checklist: Checklist = query.data;
  if (checklist.dismissed_at) {
    return (
      <p className="setup-restore muted">
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => toggle.mutate(false)}>
          Show the setup checklist
        </button>
      </p>
    );
  }
  const done = checklist.lines.filter((l) => l.status === 'ok').length;
  return (
    <section className="card setup-card" aria-labelledby="setup-title">
      <header className="setup-header">
        <div>
          <h2 id="setup-title" className="section-heading">
            Setup checklist
          </h2>
          <p className="muted">
            {done} of {checklist.lines.length} done{checklist.done ? ' — all set!' : ''}. Lines turn ✓ as you
            fix them.
          </p>
        </div>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={toggle.isPending}
          onClick={() => toggle.mutate(true)}
        >
          {toggle.isPending ? 'Hiding…' : 'Dismiss'}
        </button>
      </header>
      {toggle.isError ? (
        <p className="alert alert-error" role="alert">
          {errorText(toggle.error)}
        </p>
      ) : null}
      <ol className="setup-lines">
        {checklist.lines.map((line) => (
          <SetupLineView key={line.id} line={line} guildId={guildId} />
        ))}
      </ol>
    </section>
  );
}

function SetupLineView({ line, guildId }: { line: SetupLine; guildId: string }) {
  const ok = line.status === 'ok';
  return (
    <li className={`setup-line ${ok ? 'is-ok' : 'is-todo'}`} data-line={line.id} data-status={line.status}>
      <span className="setup-mark" aria-hidden="true">
        {ok ? '✓' : '✗'}
      </span>
      <div className="setup-body">
        <strong>
          {line.title}
          <span className="sr-only">{ok ? ' (done)' : ' (to do)'}</span>
        </strong>
        <p className="muted">{line.text}</p>
        {line.items.length > 0 && !ok ? (
          <ul className="setup-items">
            {line.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        ) : null}
        {line.role_order && !ok ? <RoleOrder roles={line.role_order} /> : null}
        {line.fix && !ok ? <FixLink fix={line.fix} guildId={guildId} /> : null}
      </div>
    </li>
  );
}

function FixLink({ fix, guildId }: { fix: NonNullable<SetupLine['fix']>; guildId: string }) {
  if (fix.href.startsWith('/')) {
    return (
      <Link className="btn btn-primary btn-sm" to={withGuild(fix.href, guildId)}>
        {fix.label} →
      </Link>
    );
  }
  return (
    <a className="btn btn-primary btn-sm" href={fix.href} target="_blank" rel="noreferrer">
      {fix.label} ↗
    </a>
  );
}

/** The server's roles top to bottom: the bot's role and the roles it must be above stand out. */
function RoleOrder({ roles }: { roles: readonly SetupRoleOrderEntry[] }) {
  return (
    <figure className="role-order">
      <figcaption className="muted">
        Role order (Server Settings → Roles), top to bottom. Drag the bot&rsquo;s role above the red ones.
      </figcaption>
      <ol>
        {roles.map((role) => (
          <li
            key={role.id}
            className={
              role.is_bot
                ? 'role-bot'
                : role.blocked
                  ? 'role-blocked'
                  : role.managed_by_bot
                    ? 'role-managed'
                    : ''
            }
          >
            <span
              className="role-dot"
              style={{ background: role.color ? `#${role.color.toString(16).padStart(6, '0')}` : '#99aab5' }}
            />
            {role.name}
            {role.is_bot ? <span className="badge">bot</span> : null}
            {role.blocked ? <span className="badge badge-danger">must be below the bot</span> : null}
          </li>
        ))}
      </ol>
    </figure>
  );
}
