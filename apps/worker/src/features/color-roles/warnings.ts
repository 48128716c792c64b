import { colorWarningsKey } from '@spacecadet/contract';
import type { Redis } from 'ioredis';

/**
 * Roles the bot cannot hand out because its own role is not above them, in the hash
 * `colorWarningsKey(guild)` the API lists. A later successful assignment or a generate run that
 * finds the role manageable clears the field.
 */
const WARNING_TTL_SECONDS = 30 * 24 * 3600;

export { roleAboveBotWarning } from '../../roles/guild-roles.ts';

export async function recordColorWarning(
  redis: Redis,
  guildId: string,
  roleId: string,
  warning: string,
): Promise<void> {
  const key = colorWarningsKey(guildId);
  await redis.multi().hset(key, roleId, warning).expire(key, WARNING_TTL_SECONDS).exec();
}

export async function clearColorWarnings(
  redis: Redis,
  guildId: string,
  roleIds?: readonly string[],
): Promise<void> {
  const key = colorWarningsKey(guildId);
  if (roleIds === undefined) await redis.del(key);
  else if (roleIds.length > 0) await redis.hdel(key, ...roleIds);
}
