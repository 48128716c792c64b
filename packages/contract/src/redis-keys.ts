/**
 * Redis keys that more than one app reads or writes, defined once so their layouts cannot drift
 * apart. Builders return the key without the `${REDIS_PREFIX}:` every key of ours starts with:
 * the API's client adds it itself (ioredis `keyPrefix`); a client without a `keyPrefix` (the
 * worker's) passes the result through `prefixedRedisKey`. No zod here.
 */

/**
 * The guilds a user may manage, cached by the API (JSON array of the contract's `Guild`) for a
 * short TTL; the worker deletes it when Discord tells it the user's rights changed.
 * `userGuildsCacheKey('*')` is the SCAN pattern of every user's list.
 */
export function userGuildsCacheKey(userId: string): string {
  return `user-guilds:${userId}`;
}

/** The key as stored, for a client without ioredis' `keyPrefix` option. */
export function prefixedRedisKey(redisPrefix: string, key: string): string {
  return `${redisPrefix}:${key}`;
}
