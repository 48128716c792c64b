/**
 * The OAuth `state` of a bot install: base64url of JSON `{guild_id}`. The API and the
 * dashboard's built-in invite link write it; the API's install callback and the landing page
 * read it. No zod here, so the landing page can import it without loading the schemas.
 */
const GUILD_ID = /^\d{5,20}$/;

export function encodeInstallState(guildId: string | undefined): string {
  const json = JSON.stringify(guildId === undefined ? {} : { guild_id: guildId });
  return btoa(json).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The guild id carried in an install `state`, or undefined for a missing or foreign state. */
export function decodeInstallState(state: string | null | undefined): string | undefined {
  if (!state) return undefined;
  try {
    const base64 = state.replace(/-/g, '+').replace(/_/g, '/');
    const parsed: unknown = JSON.parse(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const guildId = (parsed as Record<string, unknown>).guild_id;
    return typeof guildId === 'string' && GUILD_ID.test(guildId) ? guildId : undefined;
  } catch {
    return undefined;
  }
}
