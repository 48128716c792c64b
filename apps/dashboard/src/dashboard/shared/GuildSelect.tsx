import { useSearchParams } from 'react-router';
import { useGuildParam } from './guild-param.ts';
import { useAdminGuilds } from './queries.ts';

/** Server selector for editor pages: changes the `guild` query parameter. */
export function GuildSelect() {
  const guilds = useAdminGuilds();
  const guildId = useGuildParam();
  const [, setSearch] = useSearchParams();
  return (
    <div className="field guild-select">
      <label htmlFor="guild-select">Server</label>
      <select
        id="guild-select"
        className="select"
        value={guildId ?? ''}
        disabled={!guilds.data || guilds.data.length === 0}
        onChange={(event) => setSearch({ guild: event.target.value })}
      >
        {guildId ? null : <option value="">Select a server</option>}
        {/* A server from the URL that is not (yet) in the list still gets a name, never a blank box. */}
        {guildId && !guilds.data?.some((guild) => guild.id === guildId) ? (
          <option value={guildId}>
            {guilds.isPending
              ? 'Loading servers…'
              : guilds.isError
                ? `Server ${guildId}`
                : `Not one of your servers (${guildId})`}
          </option>
        ) : null}
        {guilds.data?.map((guild) => (
          <option key={guild.id} value={guild.id}>
            {guild.name}
          </option>
        ))}
      </select>
    </div>
  );
}
