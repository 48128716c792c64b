import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { shardLeaseKey } from '@spacecadet/contract';
import type { RedisClient } from '@spacecadet/runtime/redis-client';
import type { Logger } from './logger.ts';
import { FREE_DEAD } from './shard-lease-scripts.ts';

/**
 * What a shard lease says of its holder: who it is, where, and when it last renewed; whether
 * that holder is provably dead, and freeing the leases of dead holders.
 */

/**
 * A lease's value: who holds it and enough to prove that holder dead without waiting out the
 * TTL. `host` is the machine as processes on it see each other (hostname and PID namespace), so
 * a pid is only looked up where it means the same process; `beat` is when the holder last
 * renewed (RedisClient' clock, so hosts' clocks do not matter) and `every` how often it renews.
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
export function thisHost(): string {
  let namespace = '';
  try {
    namespace = readlinkSync('/proc/self/ns/pid');
  } catch {
    // Not Linux: the hostname alone.
  }
  return namespace === '' ? hostname() : `${hostname()} ${namespace}`;
}

/** Who holds a lease, for a log line: its holder's token, or the raw value of an older version. */
export function holderName(value: string | null): string | null {
  return parseShardLease(value)?.holder ?? value;
}

/** The tokens of the lease sets alive in this process (a test may run several in one). */
export const liveTokens = new Set<string>();

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

/**
 * Frees the leases of the `watched` shards whose holder is provably dead (`deadHolderReason`),
 * so a worker restarted at once after a crash takes its predecessor's shards now instead of when
 * their lease lapses: the gateway, and with it the chat, is back as soon as this process is.
 * True when it freed any.
 */
export async function freeDeadHolders(
  redis: RedisClient,
  watched: readonly number[],
  shardCount: number,
  token: string,
  logger: Logger,
): Promise<boolean> {
  if (watched.length === 0) return false;
  const watchedKeys = watched.map((id) => shardLeaseKey(id, shardCount));
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
      { shardId, shardCount, holder: holder.holder, pid: holder.pid, reason },
      `shard ${shardId}/${shardCount} was held by a worker process that is dead (${reason}); taking it over without waiting for its lease to lapse`,
    );
  }
  return freed > 0;
}
