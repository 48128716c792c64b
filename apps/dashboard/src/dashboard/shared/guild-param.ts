import { isSnowflake } from '@spacecadet/contract';
import { useSearchParams } from 'react-router';

/** The active server lives in the `guild` query parameter on every dashboard route. */
export function useGuildParam(): string | null {
  const [search] = useSearchParams();
  const guild = search.get('guild');
  return guild && isSnowflake(guild) ? guild : null;
}

export function withGuild(path: string, guildId: string | null): string {
  return guildId ? `${path}?guild=${encodeURIComponent(guildId)}` : path;
}
