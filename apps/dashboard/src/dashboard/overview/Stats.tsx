import { Link } from 'react-router';
import { PageShell } from '../shared/GuildPage.tsx';
import { useGuildParam, withGuild } from '../shared/guild-param.ts';

export default function Stats() {
  const guildId = useGuildParam();
  return (
    <PageShell
      title={
        <>
          In-depth stats <span className="badge badge-soon">Coming Soon</span>
        </>
      }
      before={
        <Link className="back-link" to={withGuild('/dashboard', guildId)}>
          ← Back to overview
        </Link>
      }
    >
      <div className="card">
        <p>Member growth, message activity, command usage and uptime history will appear here.</p>
      </div>
    </PageShell>
  );
}
