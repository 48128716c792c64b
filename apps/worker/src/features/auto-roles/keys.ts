/**
 * The auto-roles feature's Redis keys (this worker's only; the client adds the prefix). Both end
 * in the guild id or `:<guild>:`, so a guild's data deletion finds them (`guildKeyPatterns`).
 */

/** Hash of a sticky-roles server's members (field: user id) → the role ids they hold now, comma-joined. */
export function lastRolesKey(guildId: string): string {
  return `auto-roles:last-roles:${guildId}`;
}

/** A member who joined pending (screening / Onboarding): their `joined_at`, until they complete. */
export function awaitingKey(guildId: string, userId: string): string {
  return `auto-roles:awaiting:${guildId}:${userId}`;
}
