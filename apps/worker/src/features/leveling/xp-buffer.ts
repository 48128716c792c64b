import { randomUUID } from 'node:crypto';
import {
  xpBatchesKey,
  xpBatchKey,
  xpCooldownKey,
  xpDirtyGuildsKey,
  xpPendingKey,
} from '@spacecadet/contract';
import type { BufferedXp } from '@spacecadet/db/queries/member-xp';
import type { Redis } from 'ioredis';

/**
 * Leveling's XP buffer in Redis, shared by every worker process (shards): a message's cooldown
 * check and its XP increment are one script, so no process can count a member twice in one
 * cooldown. The messages a process receives in one event-loop turn go in one call of that
 * script (at most one round trip per message, usually far fewer). The flusher takes a guild's buffer out under a batch id
 * (one script, so no increment falls between read and delete), writes it to Postgres, then
 * drops it. A batch whose writer died stays listed in `xpBatchesKey` and is taken over.
 */

// KEYS: dirty, then per message its cooldown and its guild's pending hash. ARGV: per message
// cooldown ms, user id, xp, name json, guild id. Returns 1 per message that counted, else 0.
const AWARD = `
local counted = {}
for i = 1, (#KEYS - 1) / 2 do
  local a = (i - 1) * 5
  local ms = tonumber(ARGV[a + 1])
  if ms > 0 and not redis.call('SET', KEYS[2 * i], '1', 'PX', ms, 'NX') then
    counted[i] = 0
  else
    local pending, user = KEYS[2 * i + 1], ARGV[a + 2]
    redis.call('HINCRBY', pending, user .. ':x', ARGV[a + 3])
    redis.call('HINCRBY', pending, user .. ':m', 1)
    redis.call('HSET', pending, user .. ':n', ARGV[a + 4])
    redis.call('SADD', KEYS[1], ARGV[a + 5])
    counted[i] = 1
  end
end
return counted`;

// KEYS: pending, batch, batches. ARGV: batch id, now ms.
const TAKE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('RENAME', KEYS[1], KEYS[2])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
return 1`;

// KEYS: batches. ARGV: batch id, score seen, now ms. Takes over a stale batch unless another did.
const TAKE_OVER = `
if redis.call('ZSCORE', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1`;

interface XpScripts {
  /** The number of keys first (it varies with the batch), then the keys, then the arguments. */
  xpAward(...args: Array<string | number>): Promise<number[]>;
  xpTake(...args: [string, string, string, string, number]): Promise<number>;
  xpTakeOver(...args: [string, string, string, number]): Promise<number>;
}

const defined = new WeakSet<Redis>();

function scripts(redis: Redis): Redis & XpScripts {
  if (!defined.has(redis)) {
    redis.defineCommand('xpAward', { lua: AWARD });
    redis.defineCommand('xpTake', { numberOfKeys: 3, lua: TAKE });
    redis.defineCommand('xpTakeOver', { numberOfKeys: 1, lua: TAKE_OVER });
    defined.add(redis);
  }
  return redis as Redis & XpScripts;
}

export interface MessageXp {
  guildId: string;
  userId: string;
  xp: number;
  cooldownSec: number;
  username: string | null;
  avatar: string | null;
}

/** Messages per script call: bounds the time Redis spends in one script. */
const AWARDS_PER_CALL = 500;

interface QueuedAward {
  award: MessageXp;
  done(counted: boolean): void;
  failed(error: unknown): void;
}

const queues = new WeakMap<Redis, QueuedAward[]>();

/**
 * Adds a message's XP unless the member is in cooldown; true when it counted. Calls made in one
 * event-loop turn share one script call (sent once the turn's I/O is handled).
 */
export function awardMessageXp(redis: Redis, award: MessageXp): Promise<boolean> {
  return new Promise((done, failed) => {
    let queue = queues.get(redis);
    if (!queue) {
      const created: QueuedAward[] = [];
      queue = created;
      queues.set(redis, created);
      setImmediate(() => {
        queues.delete(redis);
        for (let start = 0; start < created.length; start += AWARDS_PER_CALL) {
          sendAwards(redis, created.slice(start, start + AWARDS_PER_CALL));
        }
      });
    }
    queue.push({ award, done, failed });
  });
}

function sendAwards(redis: Redis, awards: readonly QueuedAward[]): void {
  const keys: string[] = [xpDirtyGuildsKey()];
  const args: Array<string | number> = [];
  for (const { award } of awards) {
    keys.push(xpCooldownKey(award.guildId, award.userId), xpPendingKey(award.guildId));
    args.push(
      award.cooldownSec * 1000,
      award.userId,
      award.xp,
      JSON.stringify([award.username, award.avatar]),
      award.guildId,
    );
  }
  scripts(redis)
    .xpAward(keys.length, ...keys, ...args)
    .then((counted) => {
      for (const [index, queued] of awards.entries()) queued.done(counted[index] === 1);
    })
    .catch((error: unknown) => {
      for (const queued of awards) queued.failed(error);
    });
}

export interface XpBatch {
  id: string;
  guildId: string;
}

/** Guilds with buffered XP, at most `count`, each now claimed by this caller. */
export function takeDirtyGuilds(redis: Redis, count: number): Promise<string[]> {
  return redis.spop(xpDirtyGuildsKey(), count);
}

/** Moves the guild's buffered XP into a new batch; null when there was none. */
export async function takeGuildBatch(redis: Redis, guildId: string, now: number): Promise<XpBatch | null> {
  const id = `${guildId}.${randomUUID()}`;
  const taken = await scripts(redis).xpTake(xpPendingKey(guildId), xpBatchKey(id), xpBatchesKey(), id, now);
  return taken === 1 ? { id, guildId } : null;
}

/** Batches taken more than `staleMs` ago and never finished: their writer died or failed. */
export async function takeOverStaleBatches(
  redis: Redis,
  now: number,
  staleMs: number,
  limit: number,
): Promise<XpBatch[]> {
  const stale = await redis.zrangebyscore(
    xpBatchesKey(),
    '-inf',
    now - staleMs,
    'WITHSCORES',
    'LIMIT',
    0,
    limit,
  );
  const taken: XpBatch[] = [];
  for (let i = 0; i + 1 < stale.length; i += 2) {
    const id = stale[i] as string;
    const guildId = id.slice(0, id.indexOf('.'));
    if (guildId && (await scripts(redis).xpTakeOver(xpBatchesKey(), id, stale[i + 1] as string, now)) === 1) {
      taken.push({ id, guildId });
    }
  }
  return taken;
}

/** The members' XP in a batch (empty when it is gone). */
export async function readBatch(redis: Redis, batch: XpBatch): Promise<BufferedXp[]> {
  const fields = await redis.hgetall(xpBatchKey(batch.id));
  const members = new Map<string, BufferedXp>();
  for (const [field, value] of Object.entries(fields)) {
    const split = field.lastIndexOf(':');
    const userId = field.slice(0, split);
    let member = members.get(userId);
    if (!member) {
      member = { userId, xp: 0, messages: 0, username: null, avatar: null };
      members.set(userId, member);
    }
    const kind = field.slice(split + 1);
    if (kind === 'x') member.xp = Number(value);
    else if (kind === 'm') member.messages = Number(value);
    else if (kind === 'n') [member.username, member.avatar] = parseName(value);
  }
  return [...members.values()];
}

function parseName(value: string): [string | null, string | null] {
  try {
    const [username, avatar] = JSON.parse(value) as [unknown, unknown];
    return [typeof username === 'string' ? username : null, typeof avatar === 'string' ? avatar : null];
  } catch {
    return [null, null];
  }
}

/** The batch is in Postgres (or was already): forget it. */
export async function finishBatch(redis: Redis, batch: XpBatch): Promise<void> {
  await redis.multi().del(xpBatchKey(batch.id)).zrem(xpBatchesKey(), batch.id).exec();
}
