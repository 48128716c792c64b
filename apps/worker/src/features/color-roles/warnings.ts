import type { Redis } from 'ioredis';

/**
 * Roles the bot cannot hand out because its own role is not above them. Stored in the Redis
 * hash `${REDIS_PREFIX}:color-warnings:<guild id>` (field: role id, value: the sentence the
 * dashboard shows), so the API can list them with HVALS. A later successful assignment or a
 * generate run that finds the role manageable clears the field.
 */
const WARNING_TTL_SECONDS = 30 * 24 * 3600;

export function colorWarningsKey(redisPrefix: string, guildId: string): string {
  return `${redisPrefix}:color-warnings:${guildId}`;
}

export function roleAboveBotWarning(roleName: string): string {
  return `I can't give members the role "${roleName}": my role must be above it in Server Settings → Roles.`;
}

export async function recordColorWarning(
  redis: Redis,
  redisPrefix: string,
  guildId: string,
  roleId: string,
  warning: string,
): Promise<void> {
  const key = colorWarningsKey(redisPrefix, guildId);
  await redis.multi().hset(key, roleId, warning).expire(key, WARNING_TTL_SECONDS).exec();
}

export async function clearColorWarnings(
  redis: Redis,
  redisPrefix: string,
  guildId: string,
  roleIds?: readonly string[],
): Promise<void> {
  const key = colorWarningsKey(redisPrefix, guildId);
  if (roleIds === undefined) await redis.del(key);
  else if (roleIds.length > 0) await redis.hdel(key, ...roleIds);
}

export async function listColorWarnings(
  redis: Redis,
  redisPrefix: string,
  guildId: string,
): Promise<string[]> {
  return redis.hvals(colorWarningsKey(redisPrefix, guildId));
}
