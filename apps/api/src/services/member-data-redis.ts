import {
  guildMembershipCacheKey,
  lastColorPickKey,
  lastPersonalityPickKey,
  memberPickLockKey,
  memberPicksKey,
  memberPicksWaitingKey,
  userGuildsCacheKey,
  XP_SLOT_GROUPS,
  xpBatchesKey,
  xpBatchKey,
  xpBatchKeyStart,
  xpCooldownKey,
  xpPendingKey,
  xpSlotGroup,
} from '@spacecadet/contract';
import { keyPrefixOf, scanAllNodes } from '@spacecadet/runtime/redis-client';
import type { Redis } from 'ioredis';

/**
 * What Redis holds about one user that outlives a request: their key of each kind (cooldowns,
 * picks and last picks, cached guild lists and memberships), their entries in the sets of
 * members whose picks wait, and their fields in the XP buffer (pending hashes and batches in
 * flight). Every pattern is built with the contract's key builders, so a key renamed there is
 * renamed here.
 */

const BUFFER_FIELDS = ['x', 'm', 'n', 's'] as const;

/** SCAN patterns (without the client's prefix) of the user's own keys. */
function userKeyPatterns(userId: string): string[] {
  return [
    userGuildsCacheKey(userId),
    guildMembershipCacheKey('*', userId),
    xpCooldownKey('*', userId),
    memberPickLockKey('*', '*', userId),
    memberPicksKey('*', '*', userId),
    lastColorPickKey('*', userId),
    lastPersonalityPickKey('*', userId, '*'),
  ];
}

/**
 * Every key matching the pattern, without the client's prefix (SCAN ignores ioredis' keyPrefix),
 * from every master of a cluster.
 */
async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const keyPrefix = keyPrefixOf(redis);
  const keys = new Set<string>();
  await scanAllNodes(redis, `${keyPrefix}${pattern}`, 500, (found) => {
    for (const key of found) keys.add(key.slice(keyPrefix.length));
  });
  return [...keys];
}

async function userKeys(redis: Redis, userId: string): Promise<string[]> {
  const found = await Promise.all(userKeyPatterns(userId).map((pattern) => scanKeys(redis, pattern)));
  return [...new Set(found.flat())].sort();
}

/** `member-picks:waiting:<guild>` sets and the user's entries in them (`<feature>:<user id>`). */
async function waitingEntries(
  redis: Redis,
  userId: string,
): Promise<Array<{ key: string; members: string[] }>> {
  const sets = await scanKeys(redis, memberPicksWaitingKey('*'));
  const entries = await Promise.all(
    sets.map(async (key) => ({
      key,
      members: (await redis.smembers(key)).filter((member) => member.endsWith(`:${userId}`)),
    })),
  );
  return entries.filter((entry) => entry.members.length > 0);
}

export interface RedisEntry {
  key: string;
  type: string;
  value: unknown;
  expires_in_ms: number | null;
}

async function readKey(redis: Redis, key: string): Promise<RedisEntry | null> {
  const [type, ttl] = await Promise.all([redis.type(key), redis.pttl(key)]);
  let value: unknown;
  if (type === 'string') value = await redis.get(key);
  else if (type === 'hash') value = await redis.hgetall(key);
  else if (type === 'set') value = await redis.smembers(key);
  else if (type === 'list') value = await redis.lrange(key, 0, -1);
  else if (type === 'none') return null;
  else value = null;
  return { key, type, value, expires_in_ms: ttl >= 0 ? ttl : null };
}

/** The pending XP hashes and batches in flight (without the prefix). */
async function xpBufferKeys(redis: Redis): Promise<string[]> {
  const groups = Array.from({ length: XP_SLOT_GROUPS }, (_, group) => group);
  const [pending, batches] = await Promise.all([
    scanKeys(redis, xpPendingKey('*')),
    Promise.all(groups.map((group) => redis.zrange(xpBatchesKey(group), '0', '-1'))),
  ]);
  return [...pending, ...batches.flat().map((id) => xpBatchKey(id))];
}

/** Everything Redis holds about the user, for their export. */
export async function readUserRedis(redis: Redis, userId: string): Promise<RedisEntry[]> {
  const keys = await userKeys(redis, userId);
  const entries = (await Promise.all(keys.map((key) => readKey(redis, key)))).filter((e) => e !== null);
  for (const { key, members } of await waitingEntries(redis, userId)) {
    entries.push({ key, type: 'set-members', value: members, expires_in_ms: null });
  }
  const fields = BUFFER_FIELDS.map((kind) => `${userId}:${kind}`);
  for (const key of await xpBufferKeys(redis)) {
    const values = await redis.hmget(key, ...fields);
    const held = Object.fromEntries(
      fields.flatMap((field, index) => (values[index] == null ? [] : [[field, values[index]]])),
    );
    if (Object.keys(held).length > 0)
      entries.push({ key, type: 'hash-fields', value: held, expires_in_ms: null });
  }
  return entries;
}

// KEYS: a slot group's batches set, then its pending hashes. ARGV: the client's key prefix and
// the group's batch key start (`xpBatchKeyStart`), then the fields. Drops the fields from the
// group's pending hashes and batches in flight in one step, so no batch taken afterwards holds
// them; answers the ids of the batches in flight, then the count dropped.
const DROP_BUFFERED = `
local prefix = ARGV[1] .. ARGV[2]
local dropped = 0
for i = 2, #KEYS do
  dropped = dropped + redis.call('HDEL', KEYS[i], unpack(ARGV, 3))
end
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
for _, id in ipairs(ids) do
  dropped = dropped + redis.call('HDEL', prefix .. id, unpack(ARGV, 3))
end
table.insert(ids, tostring(dropped))
return ids`;

/**
 * Drops the user's buffered XP from every pending hash and batch in flight; answers the batches
 * that were in flight (a writer may have read them before) and how many fields went.
 */
export async function dropBufferedXp(
  redis: Redis,
  userId: string,
): Promise<{ inFlight: string[]; dropped: number }> {
  const guildOf = (key: string) => key.slice(key.lastIndexOf(':') + 1);
  const pending = await scanKeys(redis, xpPendingKey('*'));
  const fields = BUFFER_FIELDS.map((kind) => `${userId}:${kind}`);
  const inFlight: string[] = [];
  let dropped = 0;
  // One script per slot group: a script's keys must share a slot on a cluster.
  for (let group = 0; group < XP_SLOT_GROUPS; group += 1) {
    const ours = pending.filter((key) => xpSlotGroup(guildOf(key)) === group);
    const answer = (await redis.eval(
      DROP_BUFFERED,
      1 + ours.length,
      xpBatchesKey(group),
      ...ours,
      keyPrefixOf(redis),
      xpBatchKeyStart(group),
      ...fields,
    )) as string[];
    dropped += Number(answer.pop() ?? 0);
    inFlight.push(...answer);
  }
  return { inFlight, dropped };
}

/** Deletes the user's own keys and their entries in the waiting sets; answers how many went. */
export async function dropUserRedis(redis: Redis, userId: string): Promise<number> {
  const keys = await userKeys(redis, userId);
  // One UNLINK per key: the user's keys lie in many slots of a cluster.
  let dropped = (await Promise.all(keys.map((key) => redis.unlink(key)))).reduce((sum, one) => sum + one, 0);
  for (const { key, members } of await waitingEntries(redis, userId))
    dropped += await redis.srem(key, ...members);
  return dropped;
}
