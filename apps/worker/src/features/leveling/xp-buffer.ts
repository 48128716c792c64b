import {
  MESSAGE_COOLDOWN_MAX_SEC,
  XP_SLOT_GROUPS,
  xpCooldownKey,
  xpDirtyGuildsKey,
  xpPendingKey,
  xpSlotGroup,
  xpUnpricedGuildsKey,
  xpUnpricedKey,
} from '@spacecadet/contract';
import type { RedisClient } from '@spacecadet/runtime/redis-client';

/**
 * Leveling's XP buffer in Redis, shared by every worker process (shards): a message's cooldown
 * check and its XP increment are one script, so no process can count a member twice in one
 * cooldown. The messages a process receives in one event-loop turn go in one call of that
 * script (at most one round trip per message, usually far fewer). The flusher takes a guild's
 * buffer out under a batch id (one script, so no increment falls between read and delete),
 * writes it to Postgres, then drops it. A batch whose writer died stays listed in
 * `xpBatchesKey` and is taken over.
 *
 * Every key of a guild's buffer carries its slot group's hash tag (`xpSlotGroup`), so a script
 * call, one group's messages, runs on one node of a Redis Cluster.
 *
 * The cooldown key holds the time of the member's last counted message (the message's own
 * time, from its id) and lives as long as the longest cooldown allowed: the guild's cooldown
 * setting of the moment is compared with it, so a changed cooldown applies to the very next
 * message, lowered or raised.
 *
 * Why one file: the Lua scripts and the calls that run them share one key layout and one batch
 * protocol (award, take, finish, take over); split, a change to one side could miss the other.
 */

const COOLDOWN_KEY_TTL_MS = MESSAGE_COOLDOWN_MAX_SEC * 1000;

// From KEYS[k]: per message its cooldown and its guild's pending hash (KEYS[1]: dirty guilds).
// From ARGV[a]: per message cooldown ms (-1: the message earns nothing and starts no
// cooldown), message time ms, user id, xp, name json (name, avatar, channel), guild id. Every
// message counts for the day's overview (`:m`); one that earns nothing (cooldown, no-XP) is
// also counted in `:s`, and one that earns adds its XP (`:x`) and names the member and the
// channel it was sent in (`:n`: where a level it crosses is announced with destination
// `current`). The earning path makes as many Redis calls as before no-XP existed.
const AWARD_FUNCTION = `
local function award(k, a, n)
  local counted = {}
  for i = 1, n do
    local cd, pending = KEYS[k + 2 * i - 2], KEYS[k + 2 * i - 1]
    local b = a + (i - 1) * 6
    local ms, at = tonumber(ARGV[b]), tonumber(ARGV[b + 1])
    local user = ARGV[b + 2]
    counted[i] = 0
    if ms >= 0 then
      local last = tonumber(redis.call('GET', cd) or '')
      if not (last and ms > 0 and at - last < ms) then
        if not last or at > last then redis.call('SET', cd, at, 'PX', ${COOLDOWN_KEY_TTL_MS}) end
        redis.call('HINCRBY', pending, user .. ':x', ARGV[b + 3])
        redis.call('HSET', pending, user .. ':n', ARGV[b + 4])
        counted[i] = 1
      end
    end
    if counted[i] == 0 then redis.call('HINCRBY', pending, user .. ':s', 1) end
    redis.call('HINCRBY', pending, user .. ':m', 1)
    redis.call('SADD', KEYS[1], ARGV[b + 5])
  end
  -- One character a message ('1' counted, '0' not): one bulk reply for the call, not an
  -- array of hundreds of integers to decode.
  return table.concat(counted)
end
`;

// KEYS: dirty, then per message its cooldown and its guild's pending hash. Returns a string
// with '1' per message that counted, else '0'.
const AWARD = `${AWARD_FUNCTION}
return award(2, 1, (#KEYS - 1) / 2)`;

// KEYS: dirty, unpriced list, unpriced guilds, then per message as AWARD. ARGV: how many of the
// list's first messages these are, the guild id, then per message as AWARD. Awards them and
// drops them from the list in one step, so a replay that dies is neither lost nor counted twice.
const AWARD_UNPRICED = `${AWARD_FUNCTION}
local counted = award(4, 3, (#KEYS - 3) / 2)
redis.call('LTRIM', KEYS[2], tonumber(ARGV[1]), -1)
if redis.call('LLEN', KEYS[2]) == 0 then redis.call('ZREM', KEYS[3], ARGV[2]) end
return counted`;

// KEYS: pending, batch, batches. ARGV: batch id, now ms.
const TAKE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('RENAME', KEYS[1], KEYS[2])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
return 1`;

// KEYS: a sorted set. ARGV: member, score seen, new score. Takes over a stale batch (or an
// unpriced guild) unless another process did.
const TAKE_OVER = `
if redis.call('ZSCORE', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1`;

interface XpScripts {
  /** The number of keys first (it varies with the batch), then the keys, then the arguments. */
  xpAward(...args: Array<string | number>): Promise<string>;
  xpTake(...args: [string, string, string, string, number]): Promise<number>;
  xpTakeOver(...args: [string, string, string, number]): Promise<number>;
  xpAwardUnpriced(...args: Array<string | number>): Promise<string>;
}

const defined = new WeakSet<RedisClient>();

/**
 * Defines the buffer's scripts on a connection. Call it before a connection with
 * auto-pipelining sends anything: a pipeline it opened before lacks them.
 */
export function defineXpScripts(redis: RedisClient): void {
  scripts(redis);
}

/** The connection with the buffer's scripts defined on it (once per connection). */
export function scripts(redis: RedisClient): RedisClient & XpScripts {
  if (!defined.has(redis)) {
    redis.defineCommand('xpAward', { lua: AWARD });
    redis.defineCommand('xpTake', { numberOfKeys: 3, lua: TAKE });
    redis.defineCommand('xpTakeOver', { numberOfKeys: 1, lua: TAKE_OVER });
    redis.defineCommand('xpAwardUnpriced', { lua: AWARD_UNPRICED });
    defined.add(redis);
  }
  return redis as RedisClient & XpScripts;
}

export interface MessageXp {
  guildId: string;
  userId: string;
  /** The channel the message was sent in. */
  channelId: string;
  /** 0: the message earns nothing and starts no cooldown, but counts for the overview. */
  xp: number;
  cooldownSec: number;
  /** When the message was sent (ms): the cooldown is measured between messages' own times. */
  time: number;
  username: string | null;
  avatar: string | null;
}

/** '1' in an award script's reply: the message at that position counted. */
const ONE = '1'.charCodeAt(0);

/** Messages per script call: bounds the time Redis spends in one script. */
const AWARDS_PER_CALL = 500;

interface QueuedAward {
  award: MessageXp;
  done(counted: boolean): void;
  failed(error: unknown): void;
}

const queues = new WeakMap<RedisClient, QueuedAward[]>();

/**
 * Counts a message for the day and adds its XP unless the member is in cooldown (or it earns
 * nothing); true when it earned XP. Calls made in one
 * event-loop turn share one script call (sent once the turn's I/O is handled).
 */
export function awardMessageXp(redis: RedisClient, award: MessageXp): Promise<boolean> {
  return new Promise((done, failed) => {
    let queue = queues.get(redis);
    if (!queue) {
      const created: QueuedAward[] = [];
      queue = created;
      queues.set(redis, created);
      setImmediate(() => {
        queues.delete(redis);
        // One call per slot group: a script's keys must share a slot on a cluster.
        const byGroup = new Map<number, QueuedAward[]>();
        for (const queued of created) {
          const group = xpSlotGroup(queued.award.guildId);
          const same = byGroup.get(group);
          if (same) same.push(queued);
          else byGroup.set(group, [queued]);
        }
        for (const [group, awards] of byGroup) {
          for (let start = 0; start < awards.length; start += AWARDS_PER_CALL) {
            sendAwards(redis, group, awards.slice(start, start + AWARDS_PER_CALL));
          }
        }
      });
    }
    queue.push({ award, done, failed });
  });
}

function awardKeysAndArgs(awards: readonly MessageXp[], keys: string[], args: Array<string | number>): void {
  for (const award of awards) {
    keys.push(xpCooldownKey(award.guildId, award.userId), xpPendingKey(award.guildId));
    args.push(
      award.xp > 0 ? award.cooldownSec * 1000 : -1,
      award.time,
      award.userId,
      award.xp,
      JSON.stringify([award.username, award.avatar, award.channelId]),
      award.guildId,
    );
  }
}

function sendAwards(redis: RedisClient, group: number, awards: readonly QueuedAward[]): void {
  const keys: string[] = [xpDirtyGuildsKey(group)];
  const args: Array<string | number> = [];
  awardKeysAndArgs(
    awards.map((queued) => queued.award),
    keys,
    args,
  );
  Promise.resolve()
    .then(() => scripts(redis).xpAward(keys.length, ...keys, ...args))
    .then((counted) => {
      for (const [index, queued] of awards.entries()) queued.done(counted.charCodeAt(index) === ONE);
    })
    .catch((error: unknown) => {
      for (const queued of awards) queued.failed(error);
    });
}

/** A chat message kept to be priced once its guild's leveling setup can be read. */
export interface UnpricedMessage {
  userId: string;
  /** The channel it was sent in (no-XP channels, channel boosts); absent in entries kept before. */
  channelId?: string;
  /** The member's role ids (role boosts). */
  roles: string[];
  time: number;
  username: string | null;
  avatar: string | null;
}

/** Keeps a message for later pricing, after the guild's earlier unpriced messages. */
export async function keepUnpriced(
  redis: RedisClient,
  guildId: string,
  message: UnpricedMessage,
): Promise<void> {
  await redis
    .multi()
    .rpush(xpUnpricedKey(guildId), JSON.stringify(message))
    .zadd(xpUnpricedGuildsKey(xpSlotGroup(guildId)), 'NX', 0, guildId)
    .exec();
}

/** Whether the guild still has messages waiting to be priced. */
export async function hasUnpriced(redis: RedisClient, guildId: string): Promise<boolean> {
  return (await redis.exists(xpUnpricedKey(guildId))) === 1;
}

/**
 * Guilds with unpriced messages no other process is pricing, at most `limit`, each now this
 * caller's for `leaseMs` (a process that dies pricing one leaves it to others after that).
 */
export async function takeUnpricedGuilds(
  redis: RedisClient,
  now: number,
  leaseMs: number,
  limit: number,
): Promise<string[]> {
  // Every slot group's set read at once (one round trip, not one per group: a flush waited
  // seconds for sixteen behind a busy chat's awards), from a random one on, so no group waits
  // behind the others.
  const first = Math.floor(Math.random() * XP_SLOT_GROUPS);
  const keys = Array.from({ length: XP_SLOT_GROUPS }, (_, step) =>
    xpUnpricedGuildsKey((first + step) % XP_SLOT_GROUPS),
  );
  const dues = await Promise.all(
    keys.map((key) => redis.zrangebyscore(key, '-inf', now, 'WITHSCORES', 'LIMIT', 0, limit)),
  );
  const claims: Array<Promise<string | null>> = [];
  // Claimed together: one round trip for the lot.
  for (const [g, due] of dues.entries()) {
    for (let i = 0; i + 1 < due.length && claims.length < limit; i += 2) {
      const guildId = due[i] as string;
      claims.push(
        scripts(redis)
          .xpTakeOver(keys[g] as string, guildId, due[i + 1] as string, now + leaseMs)
          .then((claimed) => (claimed === 1 ? guildId : null)),
      );
    }
  }
  return (await Promise.all(claims)).filter((guildId): guildId is string => guildId !== null);
}

/** Hands a guild taken with `takeUnpricedGuilds` back (its setup could not be read yet). */
export async function releaseUnpricedGuild(redis: RedisClient, guildId: string): Promise<void> {
  await redis.zadd(xpUnpricedGuildsKey(xpSlotGroup(guildId)), 'XX', 0, guildId);
}

/** The guild's first `count` unpriced messages, oldest first. */
export async function readUnpriced(
  redis: RedisClient,
  guildId: string,
  count: number,
): Promise<UnpricedMessage[]> {
  const raw = await redis.lrange(xpUnpricedKey(guildId), 0, count - 1);
  return raw.map((entry) => JSON.parse(entry) as UnpricedMessage);
}

/**
 * Counts the guild's first `taken` unpriced messages (the priced ones in `awards`; a message
 * of a guild without leveling is left out) and drops them from the list, in one script.
 */
export async function awardUnpriced(
  redis: RedisClient,
  guildId: string,
  taken: number,
  awards: readonly MessageXp[],
): Promise<number> {
  const group = xpSlotGroup(guildId);
  const keys: string[] = [xpDirtyGuildsKey(group), xpUnpricedKey(guildId), xpUnpricedGuildsKey(group)];
  const args: Array<string | number> = [taken, guildId];
  awardKeysAndArgs(awards, keys, args);
  const counted = await scripts(redis).xpAwardUnpriced(keys.length, ...keys, ...args);
  let total = 0;
  for (let i = 0; i < counted.length; i += 1) if (counted.charCodeAt(i) === ONE) total += 1;
  return total;
}
