import { replicaWriteMarkKey } from '@spacecadet/contract';
import type { Db } from '@spacecadet/db';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { isDependencyDown } from './dependency-errors.ts';

/**
 * Where the heavy reads go (DATABASE_READ_URL): the leaderboards, History, the seasons and the
 * exports run on a streaming replica of the primary, so a busy board does not slow the writes.
 *
 * Read-your-writes: an admin who just set a member's XP must see it on the next page, even if the
 * replica replays a little behind. So every API write records the primary's WAL position for its
 * guild and its user in Redis (shared by every API replica, kept `markTtlSec`), and a read for that
 * guild or user goes to the replica only once the replica has replayed that far; until then (a
 * few ms, usually) it goes to the primary. Reads nobody just wrote to (the public board, other
 * admins' pages) may lag the primary by the replica's delay, as any replica read does.
 *
 * A replica that fails is not an error for the reader: the read runs again on the primary, with a
 * warning, and the replica is left alone for `downForMs` so a dead one costs no connect per read.
 */

/** Whose writes a read must see: the path's guild, the signed-in user (their own data export). */
export interface ReadScope {
  guildId?: string | undefined;
  userId?: string | undefined;
}

export interface ReplicaReadsOptions {
  primary: Db;
  /** Null: no DATABASE_READ_URL, everything is read from the primary. */
  replica: Db | null;
  /** Keys prefixed by the client (the API's main connection). */
  redis: Redis;
  log: FastifyBaseLogger;
  /** How long a write's position is kept: far beyond any healthy replica's delay. */
  markTtlSec?: number;
  /**
   * How long the replica's replay position is reused: it only moves forward, so an old value
   * can only send a read to the primary needlessly, never serve one stale.
   */
  replayCacheMs?: number;
  /** After a failure, how long reads skip the replica. */
  downForMs?: number;
}

/** A `pg_lsn` (`16/B374D848`: two hex halves of a 64-bit position) as a comparable number. */
export function lsnValue(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  if (high === undefined || low === undefined) throw new Error(`Not a WAL position: ${lsn}`);
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

export class ReplicaReads {
  private readonly primary: Db;
  private readonly replica: Db | null;
  private readonly redis: Redis;
  private readonly log: FastifyBaseLogger;
  private readonly markTtlSec: number;
  private readonly replayCacheMs: number;
  private readonly downForMs: number;
  private replay: { at: number; lsn: Promise<bigint | null> } | null = null;
  private downUntil = 0;

  constructor(options: ReplicaReadsOptions) {
    this.primary = options.primary;
    this.replica = options.replica;
    this.redis = options.redis;
    this.log = options.log;
    this.markTtlSec = options.markTtlSec ?? 60;
    this.replayCacheMs = options.replayCacheMs ?? 20;
    this.downForMs = options.downForMs ?? 5_000;
  }

  /** Whether a replica is configured (not whether it is up). */
  get enabled(): boolean {
    return this.replica !== null;
  }

  /** Runs `query` on the replica when it has what `scope` wrote, else (or if it fails) on the primary. */
  async read<T>(scope: ReadScope, query: (db: Db) => Promise<T>): Promise<T> {
    const replica = await this.replicaFor(scope);
    if (replica === null) return query(this.primary);
    try {
      return await query(replica);
    } catch (error) {
      this.failed(error, 'read');
      return query(this.primary);
    }
  }

  /**
   * Records the primary's position now as the last write of `scope`. Called after a write's
   * handler has committed and before its answer leaves, so the writer's next read sees it.
   * Best effort: a Redis or Postgres failure is logged (the write itself stands).
   */
  async markWrite(scope: ReadScope): Promise<void> {
    if (this.replica === null) return;
    const keys = scopeKeys(scope);
    if (keys.length === 0) return;
    try {
      const result = await this.primary.execute<{ lsn: string }>(
        sql`select pg_current_wal_lsn()::text as lsn`,
      );
      const lsn = result.rows[0]?.lsn;
      if (lsn === undefined) return;
      // One command per key: the guild's and the user's marks may sit on different Redis Cluster
      // slots, where a MULTI or MGET over both is refused (CROSSSLOT).
      await Promise.all(keys.map((key) => this.redis.set(key, lsn, 'EX', this.markTtlSec)));
    } catch (error) {
      this.log.warn({ err: error, scope }, 'read replica: the write position was not recorded');
    }
  }

  /** The replica when it may serve `scope`, null when the read must go to the primary. */
  private async replicaFor(scope: ReadScope): Promise<Db | null> {
    const replica = this.replica;
    if (replica === null || Date.now() < this.downUntil) return null;
    const keys = scopeKeys(scope);
    let marks: Array<string | null> = [];
    if (keys.length > 0) {
      try {
        marks = await Promise.all(keys.map((key) => this.redis.get(key)));
      } catch (error) {
        // Unknown whether someone just wrote: only the primary is sure to have it.
        this.log.debug({ err: error }, 'read replica: write positions not read; reading the primary');
        return null;
      }
    }
    // The latest of the guild's and the user's writes (Math.max takes no bigint).
    let wrote = 0n;
    for (const mark of marks) if (mark !== null && lsnValue(mark) > wrote) wrote = lsnValue(mark);
    if (wrote === 0n) return replica;
    let replayed: bigint | null;
    try {
      replayed = await this.replayedLsn(replica);
    } catch (error) {
      this.failed(error, 'replay position');
      return null;
    }
    // Null: not a standby at all (a promoted or misconfigured server); the primary is the safe bet.
    return replayed !== null && replayed >= wrote ? replica : null;
  }

  /** The replica's replay position, asked at most once per `replayCacheMs` (concurrent reads share it). */
  private replayedLsn(replica: Db): Promise<bigint | null> {
    const now = Date.now();
    if (this.replay && now - this.replay.at < this.replayCacheMs) return this.replay.lsn;
    const lsn = replica
      .execute<{ lsn: string | null }>(sql`select pg_last_wal_replay_lsn()::text as lsn`)
      .then((result) => {
        const value = result.rows[0]?.lsn ?? null;
        return value === null ? null : lsnValue(value);
      });
    this.replay = { at: now, lsn };
    lsn.catch(() => {
      if (this.replay?.lsn === lsn) this.replay = null;
    });
    return lsn;
  }

  private failed(error: unknown, what: string): void {
    // Only a replica that does not answer is skipped for a while; any other failure (a query
    // cancelled by replay, say) costs this read alone its retry on the primary.
    if (isDependencyDown(error)) {
      if (Date.now() >= this.downUntil)
        this.log.warn({ err: error }, `read replica unreachable (${what}); reading the primary for now`);
      this.downUntil = Date.now() + this.downForMs;
      return;
    }
    this.log.warn({ err: error }, `read replica failed (${what}); read again on the primary`);
  }
}

function scopeKeys(scope: ReadScope): string[] {
  return [
    ...(scope.guildId ? [replicaWriteMarkKey('guild', scope.guildId)] : []),
    ...(scope.userId ? [replicaWriteMarkKey('user', scope.userId)] : []),
  ];
}
