import {
  guildOfXpBatch,
  LEGACY_XP_KEYS,
  xpBatchesKey,
  xpBatchKey,
  xpDirtyGuildsKey,
  xpPendingKey,
  xpSlotGroup,
  xpUnpricedGuildsKey,
  xpUnpricedKey,
} from '@spacecadet/contract';
import { keyPrefixOf, type RedisClient, scanAllNodes } from '@spacecadet/runtime/redis-client';
import { Cluster } from 'ioredis';

/**
 * The XP buffer's keys got Redis Cluster slot tags (`redis-keys.ts`, `xpSlotGroup`). A deployment
 * upgrading may hold XP under the old names that is not in Postgres yet: guilds' pending hashes
 * (`xp-pending:<guild>`), batches a writer took (`xp-batches`, `xp-batch:<id>`), and messages
 * kept unpriced (`xp-unpriced`, `xp-unpriced:<guild>`). Every flusher moves them under the new
 * names, where the flush writes them as any other. Each move is one script (the old layout only
 * ever lived on a single Redis, where a script may touch any key), so several workers doing it
 * at once move each thing once; a batch moved while its old writer still writes it is written
 * twice by id, which the flush applies once (`xp_flush_batches`).
 */

// KEYS: old pending, new pending, new dirty set, old dirty set. ARGV: guild id. Adds the old
// hash's counts to the new one (a new-layout message may have come already), keeps the newer
// name fields, and lists the guild as dirty.
const MOVE_PENDING = `
local old = redis.call('HGETALL', KEYS[1])
for i = 1, #old, 2 do
  local field, value = old[i], old[i + 1]
  if string.sub(field, -2) == ':n' then
    redis.call('HSETNX', KEYS[2], field, value)
  else
    redis.call('HINCRBY', KEYS[2], field, value)
  end
end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[4], ARGV[1])
if #old > 0 then redis.call('SADD', KEYS[3], ARGV[1]) end
return #old / 2`;

// KEYS: old batch, new batch, old batches, new batches. ARGV: batch id. Keeps the batch's score
// (when it was taken), so it is taken over once stale, as before.
const MOVE_BATCH = `
local score = redis.call('ZSCORE', KEYS[3], ARGV[1])
if not score then return 0 end
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('RENAME', KEYS[1], KEYS[2]) end
redis.call('ZADD', KEYS[4], score, ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return 1`;

// KEYS: old list, new list, old guilds, new guilds. ARGV: guild id. The old messages are older
// than any in the new list: they go first.
const MOVE_UNPRICED = `
local old = redis.call('LRANGE', KEYS[1], 0, -1)
for i = #old, 1, -1 do redis.call('LPUSH', KEYS[2], old[i]) end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[3], ARGV[1])
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('ZADD', KEYS[4], 'NX', 0, ARGV[1]) end
return #old`;

export interface LegacyXpMoved {
  pending: number;
  batches: number;
  unpriced: number;
}

/** Guild ids of the old-layout keys `<start><guild>` (a tagged key has `{` after the start). */
async function legacyGuilds(redis: RedisClient, start: string): Promise<string[]> {
  const prefix = keyPrefixOf(redis);
  const guilds = new Set<string>();
  await scanAllNodes(redis, `${prefix}${start}*`, 1000, (keys) => {
    for (const key of keys) {
      const guildId = key.slice(prefix.length + start.length);
      if (/^[0-9A-Za-z_-]+$/.test(guildId)) guilds.add(guildId);
    }
  });
  return [...guilds];
}

/** Whether anything of the old layout's sets is left (cheap: three EXISTS). */
export async function hasLegacyXpSets(redis: RedisClient): Promise<boolean> {
  if (redis instanceof Cluster) return false;
  const found = await Promise.all(
    [LEGACY_XP_KEYS.dirty, LEGACY_XP_KEYS.batches, LEGACY_XP_KEYS.unpricedGuilds].map((key) =>
      redis.exists(key),
    ),
  );
  return found.some((one) => one === 1);
}

/**
 * Moves every old-layout XP key of ours under its tagged name; answers what it moved. Finds the
 * pending hashes and unpriced lists by SCAN (a hash whose guild was popped from the dirty set by
 * a process that died before taking it is found too).
 */
export async function moveLegacyXp(redis: RedisClient): Promise<LegacyXpMoved> {
  const moved: LegacyXpMoved = { pending: 0, batches: 0, unpriced: 0 };
  // The old layout could not run on a cluster (its scripts span slots), so none is there; and
  // a move, old and new names in one script, could not run on one either.
  if (redis instanceof Cluster) return moved;
  const pendingStart = LEGACY_XP_KEYS.pending('');
  const pendingGuilds = new Set([
    ...(await legacyGuilds(redis, pendingStart)),
    ...(await redis.smembers(LEGACY_XP_KEYS.dirty)),
  ]);
  for (const guildId of pendingGuilds) {
    const keys = [
      LEGACY_XP_KEYS.pending(guildId),
      xpPendingKey(guildId),
      xpDirtyGuildsKey(xpSlotGroup(guildId)),
      LEGACY_XP_KEYS.dirty,
    ];
    if (((await redis.eval(MOVE_PENDING, keys.length, ...keys, guildId)) as number) > 0) moved.pending += 1;
  }
  for (const id of await redis.zrange(LEGACY_XP_KEYS.batches, '0', '-1')) {
    const guildId = guildOfXpBatch(id);
    const keys = [
      LEGACY_XP_KEYS.batch(id),
      xpBatchKey(id),
      LEGACY_XP_KEYS.batches,
      xpBatchesKey(xpSlotGroup(guildId)),
    ];
    moved.batches += (await redis.eval(MOVE_BATCH, keys.length, ...keys, id)) as number;
  }
  const unpricedGuilds = new Set([
    ...(await legacyGuilds(redis, LEGACY_XP_KEYS.unpriced(''))),
    ...(await redis.zrange(LEGACY_XP_KEYS.unpricedGuilds, '0', '-1')),
  ]);
  for (const guildId of unpricedGuilds) {
    const keys = [
      LEGACY_XP_KEYS.unpriced(guildId),
      xpUnpricedKey(guildId),
      LEGACY_XP_KEYS.unpricedGuilds,
      xpUnpricedGuildsKey(xpSlotGroup(guildId)),
    ];
    if (((await redis.eval(MOVE_UNPRICED, keys.length, ...keys, guildId)) as number) > 0) moved.unpriced += 1;
  }
  return moved;
}
