import type { Guild } from '@spacecadet/contract';
import { Link } from 'react-router';
import { guildIconUrl } from '../../lib/cdn.ts';
import { installUrl } from '../../lib/oauth.ts';
import { getInstalledGuilds } from '../../lib/preferences.ts';
import { Avatar } from '../../ui/Avatar.tsx';
import { PageLoading } from '../../ui/PageLoading.tsx';
import { usePageGuard } from '../shared/GuildPage.tsx';
import { useGuildParam, withGuild } from '../shared/guild-param.ts';
import { FEATURE_TILES } from '../shared/nav.ts';
import { useAdminGuilds, useBotInGuild, useIsOwner } from '../shared/queries.ts';
import { CONFIG_EDITOR_ID, ConfigEditor } from './ConfigEditor.tsx';
import { GuildData } from './GuildData.tsx';
import { SetupChecklist } from './SetupChecklist.tsx';

const STAT_TILES = ['Members', 'Msgs Today', 'Commands', 'Uptime'] as const;

export default function Overview() {
  const guildId = useGuildParam();
  const guilds = useAdminGuilds();
  const inGuild = useBotInGuild(guildId);
  // Loading failures show the raw message.
  const guard = usePageGuard(guildId, guilds, { loading: 'Loading your servers…' });
  if (!guard.ready) return guard.view;
  return (
    <>
      {guard.banner}
      <OverviewOf
        guilds={guard.data}
        guildId={guildId}
        inGuild={inGuild.isPending ? undefined : inGuild.data}
      />
    </>
  );
}

/** The picked server's overview, its invite prompt, or why there is none. */
function OverviewOf({
  guilds,
  guildId,
  inGuild,
}: {
  guilds: readonly Guild[];
  guildId: string | null;
  /** Whether the bot is there; undefined while it is being checked. */
  inGuild: boolean | undefined;
}) {
  if (guilds.length === 0) {
    return (
      <section className="page">
        <div className="card empty-card">
          <h1 className="state-title">No admin servers</h1>
          <p className="muted">
            You need Administrator or Manage Server in a server to configure Space Cadet there.
          </p>
          <a className="btn btn-discord" href={installUrl()}>
            Invite Space Cadet
          </a>
        </div>
      </section>
    );
  }
  const guild = guilds.find((g) => g.id === guildId);
  if (!guild) {
    return guildId ? (
      <p className="alert alert-warning" role="alert">
        This server is not one of your admin servers. Pick one on the left.
      </p>
    ) : (
      <PageLoading />
    );
  }
  if (inGuild === undefined) return <PageLoading label="Checking the bot…" />;
  return inGuild ? <ServerOverview guild={guild} /> : <InvitePrompt guild={guild} />;
}

function InvitePrompt({ guild }: { guild: Guild }) {
  const justInstalled = getInstalledGuilds().includes(guild.id);
  return (
    <section className="page" aria-labelledby="invite-title">
      <div className="card invite-card">
        <Avatar src={guildIconUrl(guild)} name={guild.name} size={72} className="server-icon" />
        <h1 id="invite-title" className="state-title">
          Space Cadet isn&rsquo;t in {guild.name} yet
        </h1>
        <p className="muted">
          {justInstalled
            ? 'You added the bot recently: it can take a moment to arrive. Reload if it does not show up.'
            : 'Invite the bot to this server to configure its features.'}
        </p>
        <a className="btn btn-discord btn-lg" href={installUrl(guild.id)}>
          Invite to Server
        </a>
      </div>
      <GuildData guild={guild} />
    </section>
  );
}

function ServerOverview({ guild }: { guild: Guild }) {
  const isOwner = useIsOwner();
  const tiles = FEATURE_TILES.filter((tile) => tile.tile === 'everyone' || isOwner);
  return (
    <section className="page" aria-labelledby="server-title">
      <header className="server-header card">
        <Avatar src={guildIconUrl(guild)} name={guild.name} size={64} className="server-icon" />
        <div className="server-header-text">
          <h1 id="server-title">{guild.name}</h1>
          <p className="muted">Server ID {guild.id}</p>
        </div>
        <div className="server-header-actions">
          <a className="btn btn-secondary btn-sm" href={installUrl(guild.id)}>
            Re-invite / Fix perms
          </a>
          {/* The server's settings that exist today: the raw configuration below. */}
          <a className="btn btn-secondary btn-sm" href={`#${CONFIG_EDITOR_ID}`}>
            Server settings
          </a>
        </div>
      </header>
      <SetupChecklist guildId={guild.id} />

      <div className="stat-grid">
        {STAT_TILES.map((label) => (
          <div key={label} className="stat-tile">
            <span className="stat-label">{label}</span>
            <span className="stat-value">
              <span aria-hidden="true">—</span>
              <span className="sr-only">not available yet</span>
            </span>
          </div>
        ))}
      </div>
      <p>
        <Link to={withGuild('/dashboard/stats', guild.id)}>View in-depth stats →</Link>
      </p>

      <h2 className="section-heading">Features</h2>
      <ul className="tile-grid">
        {tiles.map((tile) => (
          <li key={tile.id}>
            <Link className="feature-tile" to={withGuild(tile.route, guild.id)}>
              <span className="feature-tile-title">
                {tile.name}
                {tile.status === 'coming_soon' ? <span className="badge badge-soon">Coming Soon</span> : null}
              </span>
              <span className="feature-tile-text">{tile.summary}</span>
            </Link>
          </li>
        ))}
      </ul>

      <ConfigEditor guildId={guild.id} />
      <p className="muted">
        Prefer a form? Edit the lists in the{' '}
        <Link to={withGuild('/dashboard/reaction-roles', guild.id)}>Reaction Roles editor</Link>.
      </p>
      <GuildData guild={guild} />
    </section>
  );
}
