import { isSnowflake } from '@spacecadet/contract/ids';
import { decodeInstallState } from '@spacecadet/contract/install-state';

/**
 * The bot-install return (`/?install=success&guild_id=...` or `&state=<base64url JSON
 * {guild_id}>`): which guild was installed, or null when the query is not an install return.
 */
export function installedGuildFromQuery(search: URLSearchParams): { guildId: string | null } | null {
  if (search.get('install') !== 'success') return null;
  const direct = search.get('guild_id');
  if (direct && isSnowflake(direct)) return { guildId: direct };
  return { guildId: decodeInstallState(search.get('state')) ?? null };
}
