import type { Guild } from '@spacecadet/contract';
import { MESSAGES } from '@spacecadet/contract';
import { Link, useLocation } from 'react-router';
import { errorText } from '../../lib/api-error.ts';
import { guildIconUrl } from '../../lib/cdn.ts';
import { installUrl } from '../../lib/oauth.ts';
import { Avatar } from '../../ui/Avatar.tsx';
import { withGuild } from '../shared/guild-param.ts';
import { useAdminGuilds, useGuildDepartures } from '../shared/queries.ts';

/** The day a purge is due, as the rail's label says it ("2 January 2027"). */
function purgeDay(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'long', year: 'numeric' });
}

export function GuildRail({ activeGuildId }: { activeGuildId: string | null }) {
  const guilds = useAdminGuilds();
  const departures = useGuildDepartures();
  const purgeOn = new Map((departures.data?.guilds ?? []).map((g) => [g.guild_id, g.purge_after]));
  const { pathname } = useLocation();

  return (
    <nav className="guild-rail" aria-label="Your servers">
      <div className="guild-rail-inner">
        {guilds.isPending ? (
          <span className="spinner rail-spinner" role="status" aria-label="Loading servers" />
        ) : null}
        {guilds.isError ? (
          <div className="rail-message" role="alert">
            <p>{errorText(guilds.error)}</p>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => void guilds.refetch()}>
              Retry
            </button>
          </div>
        ) : null}
        {guilds.data?.length === 0 ? <p className="rail-message">{MESSAGES.noAdminServers}</p> : null}
        <ul className="rail-list">
          {guilds.data?.map((guild: Guild) => {
            const purge = purgeOn.get(guild.id);
            const label =
              purge === undefined
                ? guild.name
                : `${guild.name}: Space Cadet was removed; its data is deleted on ${purgeDay(purge)} unless you invite it back`;
            return (
              <li key={guild.id}>
                <Link
                  to={withGuild(pathname, guild.id)}
                  className={`rail-item${guild.id === activeGuildId ? ' active' : ''}`}
                  aria-current={guild.id === activeGuildId ? 'page' : undefined}
                  aria-label={label}
                  title={label}
                >
                  <Avatar src={guildIconUrl(guild)} name={guild.name} size={48} className="rail-icon" />
                  {purge === undefined ? null : (
                    <span className="rail-badge rail-badge-pending" aria-hidden="true">
                      ⏳
                    </span>
                  )}
                </Link>
              </li>
            );
          })}
          <li>
            <a
              className="rail-item rail-add"
              href={installUrl()}
              aria-label="Invite Space Cadet to a server"
              title="Invite to a server"
            >
              <span aria-hidden="true">+</span>
              <span className="sr-only">Invite Space Cadet to a server</span>
            </a>
          </li>
        </ul>
      </div>
    </nav>
  );
}
