import { Link } from 'react-router';
import { useGuildParam, withGuild } from './guild-param.ts';

export default function Stats() {
  const guildId = useGuildParam();
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-head">
        <Link className="back-link" to={withGuild('/dashboard', guildId)}>
          ← Back to overview
        </Link>
        <h1 id="page-title">
          In-depth stats <span className="badge badge-soon">Coming Soon</span>
        </h1>
      </div>
      <div className="card">
        <p>Member growth, message activity, command usage and uptime history will appear here.</p>
      </div>
    </section>
  );
}
