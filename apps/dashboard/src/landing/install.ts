/**
 * The bot-install return (`/?install=success&guild_id=...` or `&state=<base64url JSON
 * {guildId}>`): which guild was installed, or null when the query is not an install return.
 */
export function installedGuildFromQuery(search: URLSearchParams): { guildId: string | null } | null {
  if (search.get('install') !== 'success') return null;
  const direct = search.get('guild_id');
  if (direct && /^\d{5,20}$/.test(direct)) return { guildId: direct };
  return { guildId: guildIdFromState(search.get('state')) };
}

export function guildIdFromState(state: string | null): string | null {
  if (!state) return null;
  try {
    const base64 = state.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
    const parsed: unknown = JSON.parse(atob(padded));
    if (typeof parsed !== 'object' || parsed === null) return null;
    const guildId = (parsed as Record<string, unknown>).guildId;
    return typeof guildId === 'string' && /^\d{5,20}$/.test(guildId) ? guildId : null;
  } catch {
    return null;
  }
}
