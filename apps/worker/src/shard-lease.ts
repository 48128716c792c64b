import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { shardLeaseKey } from '@spacecadet/contract';
import type { Redis } from 'ioredis';
import type { Logger } from './logger.ts';
import { errorFields } from './logger.ts';

/**
 * A lease's value: who holds it and enough to prove that holder dead without waiting out the
 * TTL. `host` is the machine as processes on it see each other (hostname and PID namespace), so
 * a pid is only looked up where it means the same process; `beat` is when the holder last
 * renewed (Redis' clock, so hosts' clocks do not matter) and `every` how often it renews.
 */
export interface ShardLease {
  holder: string;
  host: string;
  pid: number;
  every: number;
  beat: number;
}

/** Heartbeats (renewals) a holder may miss before it counts as dead. */
export const MISSED_HEARTBEATS = 2;

// Shared by the scripts. ARGV[1]: token, ARGV[2]: ttl ms, ARGV[3]: this process's lease as JSON
// without `beat`, which `ours` stamps with Redis' time. A value that is not such JSON (written
// by an older version) is its holder's token.
const LEASE_LUA = `
local function holderOf(value)
  local ok, lease = pcall(cjson.decode, value)
  if ok and type(lease) == 'table' and type(lease.holder) == 'string' then return lease.holder end
  return value
end
local function ours()
  local now = redis.call('TIME')
  local lease = cjson.decode(ARGV[3])
  lease.beat = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
  return cjson.encode(lease)
end
`;

// KEYS: the leases. All or none: takes every lease unless another process holds one (so two
// processes configured for shards [0, 1] never end up with one each, both waiting). Returns ''
// when all are ours, else `<index>:<holder>` of the first one held elsewhere.
const CLAIM = `${LEASE_LUA}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder and holderOf(holder) ~= ARGV[1] then return tostring(i - 1) .. ':' .. holderOf(holder) end
end
local value = ours()
for _, key in ipairs(KEYS) do redis.call('SET', key, value, 'PX', ARGV[2]) end
return ''`;

// KEYS: the leases of every shard 0..count-1. ARGV[4]: how many. Takes the first free ones, up
// to that many (fewer if fewer are free), in one step, so two processes starting together never
// take the same shard. Returns their indexes, none if every shard is held.
const CLAIM_FREE = `${LEASE_LUA}
local taken = {}
for i, key in ipairs(KEYS) do
  if #taken >= tonumber(ARGV[4]) then break end
  local holder = redis.call('GET', key)
  if not holder or holderOf(holder) == ARGV[1] then table.insert(taken, i) end
end
local value = ours()
local indexes = {}
for _, i in ipairs(taken) do
  redis.call('SET', KEYS[i], value, 'PX', ARGV[2])
  table.insert(indexes, i - 1)
end
return indexes`;

// KEYS: the leases. Renews ours (a heartbeat), re-takes one Redis lost (restarted without
// persistence: nobody else holds it). Returns -1, else the index of a lease another process took.
const RENEW = `${LEASE_LUA}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder and holderOf(holder) ~= ARGV[1] then return i - 1 end
end
local value = ours()
for _, key in ipairs(KEYS) do redis.call('SET', key, value, 'PX', ARGV[2]) end
return -1`;

// KEYS: the leases. ARGV: token. Frees those still ours.
const RELEASE = `${LEASE_LUA}
for _, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder and holderOf(holder) == ARGV[1] then redis.call('DEL', key) end
end
return 0`;

// KEYS: leases whose holder was found dead. ARGV: the values read then. Frees each one still
// holding exactly that value: a holder that renewed meanwhile (a new beat) was not dead.
const FREE_DEAD = `
local freed = 0
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[i] then
    redis.call('DEL', key)
    freed = freed + 1
  end
end
return freed`;

/** A lease's value read back; null when it is not one this version wrote. */
export function parseShardLease(value: string | null): ShardLease | null {
  if (value === null) return null;
  try {
    const lease = JSON.parse(value) as Partial<ShardLease> | null;
    if (
      typeof lease?.holder === 'string' &&
      typeof lease.host === 'string' &&
      typeof lease.pid === 'number' &&
      typeof lease.every === 'number' &&
      typeof lease.beat === 'number'
    ) {
      return { holder: lease.holder, host: lease.host, pid: lease.pid, every: lease.every, beat: lease.beat };
    }
  } catch {
    // An older version's value: its holder's token, which proves nothing about the holder.
  }
  return null;
}

/**
 * This machine as its processes see each other: the hostname and the PID namespace (where it can
 * be read), so two containers given the same hostname are not taken for one host.
 */
function thisHost(): string {
  let namespace = '';
  try {
    namespace = readlinkSync('/proc/self/ns/pid');
  } catch {
    // Not Linux: the hostname alone.
  }
  return namespace === '' ? hostname() : `${hostname()} ${namespace}`;
}

/** Who holds a lease, for a log line: its holder's token, or the raw value of an older version. */
function holderName(value: string | null): string | null {
  return parseShardLease(value)?.holder ?? value;
}

/** The tokens of the lease sets alive in this process (a test may run several in one). */
const liveTokens = new Set<string>();

/**
 * Why `lease`'s holder is provably dead, or null: on this host, its process is gone (a pid
 * this process now has is its own, or a pid no process has); anywhere, it missed
 * MISSED_HEARTBEATS renewals by Redis' clock (`nowMs`).
 */
export function deadHolderReason(lease: ShardLease, nowMs: number, host = thisHost()): string | null {
  if (lease.host === host) {
    if (lease.pid === process.pid) {
      if (!liveTokens.has(lease.holder)) return 'its process is gone (this process has its pid now)';
    } else {
      try {
        process.kill(lease.pid, 0);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ESRCH') return 'its process is gone';
      }
    }
  }
  const silentMs = nowMs - lease.beat;
  if (silentMs > MISSED_HEARTBEATS * lease.every) {
    return `it missed ${MISSED_HEARTBEATS} heartbeats (none for ${silentMs} ms, one due every ${lease.every} ms)`;
  }
  return null;
}

export interface ShardLeases {
  /** One try at taking every shard's lease; true once this process holds them all. */
  tryClaim(): Promise<boolean>;
  /** Tries again every third of the lease until it holds them all; rejects once released. */
  claim(): Promise<void>;
  /** Stops renewing and frees the shards for another process (after the gateway closed). */
  release(): Promise<void>;
  /** The shards held (with `auto`, those claimed; empty until then). */
  shardIds(): number[];
}

/**
 * The leases of the shards this process is configured for, in Redis (`ttlMs`, renewed every
 * third of it while held): two processes given the same shards would each receive every event
 * and count everyone's XP twice, so only the holder connects the gateway. A shard held by
 * another live process is waited for (logged, naming the holder) and taken over once that
 * process dies and its lease lapses. A lease another process took meanwhile (this process
 * stalled past it, or Redis lost it and the other was faster) calls `lost`: two processes run
 * the shard now, this one must stop.
 *
 * With `ids: 'auto'` the process takes the first free shards of 0..count-1 (`perProcess` of
 * them, or as many as are free), so identical replicas (compose `--scale`) share the shards;
 * when all are held it waits as a standby and takes over the first one whose lease lapses.
 * Once claimed, its shards are fixed and kept as above.
 */
export function shardLeases(
  redis: Redis,
  shards: { ids: readonly number[] | 'auto'; count: number },
  options: {
    token: string;
    ttlMs: number;
    logger: Logger;
    lost: (shardId: number) => void;
    /** With `ids: 'auto'`, how many shards to claim; default 1. */
    perProcess?: number;
  },
): ShardLeases {
  const { token, ttlMs, logger } = options;
  const auto = shards.ids === 'auto';
  let ids: number[] = shards.ids === 'auto' ? [] : [...shards.ids];
  let keys = ids.map((id) => shardLeaseKey(id, shards.count));
  const every = Math.max(100, Math.floor(ttlMs / 3));
  let held = false;
  let released = false;
  let renewer: NodeJS.Timeout | undefined;
  let lastHolder: string | undefined;
  let wake: (() => void) | undefined;
  // This process's lease but its beat, which the scripts stamp with Redis' time.
  const lease = JSON.stringify({ holder: token, host: thisHost(), pid: process.pid, every });
  liveTokens.add(token);

  const renew = async () => {
    const other = Number(await redis.eval(RENEW, keys.length, ...keys, token, ttlMs, lease));
    if (other < 0 || !held || released) return;
    held = false;
    clearInterval(renewer);
    const shardId = ids[other] ?? -1;
    logger.error(
      { shardId, shardCount: shards.count, holder: holderName(await redis.get(keys[other] ?? '')) },
      'another worker process took over this shard (its lease lapsed here); stopping',
    );
    options.lost(shardId);
  };

  /** `auto`: takes free shards' leases; '' when it got some, else why not (as CLAIM says it). */
  async function claimFree(): Promise<string> {
    const all = Array.from({ length: shards.count }, (_, id) => shardLeaseKey(id, shards.count));
    const perProcess = options.perProcess ?? 1;
    const taken = (await redis.eval(
      CLAIM_FREE,
      all.length,
      ...all,
      token,
      ttlMs,
      lease,
      perProcess,
    )) as number[];
    if (taken.length === 0) return 'all';
    ids = taken.map(Number);
    keys = ids.map((id) => shardLeaseKey(id, shards.count));
    logger.info({ shards: ids, shardCount: shards.count }, 'claimed free shards (SHARD_IDS=auto)');
    return '';
  }

  /** One claim: '' when taken, 'all' (auto: every shard held), else `<index>:<holder>`. */
  async function claimOnce(): Promise<string> {
    return auto ? claimFree() : String(await redis.eval(CLAIM, keys.length, ...keys, token, ttlMs, lease));
  }

  /**
   * Frees the leases (of this process's shards; with `auto`, of every shard) whose holder is
   * provably dead (`deadHolderReason`), so a worker restarted at once after a crash takes its
   * predecessor's shards now instead of when their lease lapses: the gateway, and with it the
   * chat, is back as soon as this process is. True when it freed any.
   */
  async function freeDeadHolders(): Promise<boolean> {
    const watched = auto ? Array.from({ length: shards.count }, (_, id) => id) : ids;
    if (watched.length === 0) return false;
    const watchedKeys = watched.map((id) => shardLeaseKey(id, shards.count));
    const [values, time] = await Promise.all([redis.mget(...watchedKeys), redis.time()]);
    const [seconds = 0, micros = 0] = time.map(Number);
    const nowMs = seconds * 1000 + Math.floor(micros / 1000);
    const dead = watched.flatMap((shardId, index) => {
      const value = values[index] ?? null;
      const holder = parseShardLease(value);
      if (value === null || holder === null || holder.holder === token) return [];
      const reason = deadHolderReason(holder, nowMs);
      return reason === null ? [] : [{ shardId, key: watchedKeys[index] ?? '', value, holder, reason }];
    });
    if (dead.length === 0) return false;
    const freed = Number(
      await redis.eval(
        FREE_DEAD,
        dead.length,
        ...dead.map((lease) => lease.key),
        ...dead.map((lease) => lease.value),
      ),
    );
    for (const { shardId, holder, reason } of dead) {
      logger.warn(
        { shardId, shardCount: shards.count, holder: holder.holder, pid: holder.pid, reason },
        `shard ${shardId}/${shards.count} was held by a worker process that is dead (${reason}); taking it over without waiting for its lease to lapse`,
      );
    }
    return freed > 0;
  }

  async function tryClaim(): Promise<boolean> {
    if (released) throw new Error('shard leases released');
    if (held) return true;
    let answer = await claimOnce();
    if (answer !== '' && (await freeDeadHolders())) answer = await claimOnce();
    if (answer === 'all') {
      if (lastHolder !== 'all') {
        lastHolder = 'all';
        logger.warn(
          { shardCount: shards.count },
          `all ${shards.count} shards are run by other live worker processes; this process takes jobs and takes over the first shard whose process stops (raise SHARD_COUNT to run more shards)`,
        );
      }
      return false;
    }
    if (answer === '') {
      if (released) {
        await redis.eval(RELEASE, keys.length, ...keys, token);
        throw new Error('shard leases released');
      }
      held = true;
      if (lastHolder !== undefined) {
        logger.info({ shards: ids, previousHolder: lastHolder }, 'took over the shards');
      }
      renewer = setInterval(() => {
        renew().catch((error: unknown) => logger.warn(errorFields(error), 'shard lease renewal failed'));
      }, every);
      return true;
    }
    const separator = answer.indexOf(':');
    const shardId = ids[Number(answer.slice(0, separator))];
    const holder = answer.slice(separator + 1);
    if (holder !== lastHolder) {
      lastHolder = holder;
      logger.warn(
        { shardId, shardCount: shards.count, holder },
        `shard ${shardId}/${shards.count} is run by another live worker process (${holder}); this process takes jobs and waits to take the shard over when that process stops (set SHARD_IDS to run other shards)`,
      );
    }
    return false;
  }

  return {
    tryClaim,
    shardIds: () => [...ids],
    async claim() {
      for (;;) {
        if (released) throw new Error('stopped while waiting for the shards');
        try {
          if (await tryClaim()) return;
        } catch (error) {
          if (released) throw error;
          logger.warn(errorFields(error), 'shard lease claim failed; trying again');
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, every).unref();
        });
      }
    },
    async release() {
      released = true;
      liveTokens.delete(token);
      clearInterval(renewer);
      wake?.();
      if (!held) return;
      held = false;
      await redis.eval(RELEASE, keys.length, ...keys, token);
    },
  };
}
