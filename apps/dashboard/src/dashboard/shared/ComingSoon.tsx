import { Link } from 'react-router';
import { PageShell } from './GuildPage.tsx';
import { useGuildParam, withGuild } from './guild-param.ts';
import { COMING_SOON_PAGES } from './nav.ts';

export function ComingSoon({ slug }: { slug: string }) {
  const guildId = useGuildParam();
  const feature = COMING_SOON_PAGES.get(slug);
  if (!feature) return null;
  return (
    <PageShell
      title={
        <>
          {feature.name} <span className="badge badge-soon">Coming Soon</span>
        </>
      }
    >
      <div className="card coming-soon-card">
        <p>{feature.description}</p>
        <p className="muted">This section is on the roadmap. Check back soon.</p>
        <Link className="btn btn-secondary" to={withGuild('/dashboard', guildId)}>
          Back to overview
        </Link>
      </div>
    </PageShell>
  );
}

/** Screens of later issues, reachable by URL but not built yet. */
export function NotYetAvailable({ title }: { title: string }) {
  const guildId = useGuildParam();
  return (
    <PageShell title={title}>
      <div className="card">
        <p>This screen is not available in the dashboard yet.</p>
        <Link className="btn btn-secondary" to={withGuild('/dashboard', guildId)}>
          Back to overview
        </Link>
      </div>
    </PageShell>
  );
}
