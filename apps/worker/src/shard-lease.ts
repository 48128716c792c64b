import { legacyShardLeaseKey, shardLeaseKey } from '@spacecadet/contract';
import type { RedisClient } from '@spacecadet/runtime/redis-client';
import { Cluster } from 'ioredis';
import type { Logger } from './logger.ts';
import { errorFields } from './logger.ts';
import { freeDeadHolders, holderName, liveTokens, thisHost } from './shard-lease-holders.ts';
import { CLAIM, CLAIM_FREE, RELEASE, RENEW } from './shard-lease-scripts.ts';

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

export interface ShardLeaseOptions {
  /** This process's token: the holder named in its leases. */
  token: string;
  ttlMs: number;
  logger: Logger;
  /** Called when another process took over one of the shards held here: this one must stop. */
  lost: (shardId: number) => void;
  /** With `ids: 'auto'`, how many shards to claim; default 1. */
  perProcess?: number;
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
  redis: RedisClient,
  shards: { ids: readonly number[] | 'auto'; count: number },
  options: ShardLeaseOptions,
): ShardLeases {
  return new ShardLeaseSet(redis, shards, options);
}

/** `shardLeases`' state: the shards claimed, whether they are held, and the renewal timer. */
class ShardLeaseSet implements ShardLeases {
  private readonly auto: boolean;
  private ids: number[];
  private keys: string[];
  /** How often a held lease is renewed: a third of it. */
  private readonly every: number;
  private held = false;
  private released = false;
  private renewer: NodeJS.Timeout | undefined;
  private lastHolder: string | undefined;
  private wake: (() => void) | undefined;
  /** This process's lease but its beat, which the scripts stamp with Redis' time. */
  private readonly lease: string;
  private readonly allShards: number[];

  constructor(
    private readonly redis: RedisClient,
    private readonly shards: { ids: readonly number[] | 'auto'; count: number },
    private readonly options: ShardLeaseOptions,
  ) {
    this.auto = shards.ids === 'auto';
    this.ids = shards.ids === 'auto' ? [] : [...shards.ids];
    this.keys = this.ids.map((id) => shardLeaseKey(id, shards.count));
    this.every = Math.max(100, Math.floor(options.ttlMs / 3));
    this.lease = JSON.stringify({
      holder: options.token,
      host: thisHost(),
      pid: process.pid,
      every: this.every,
    });
    liveTokens.add(options.token);
    this.allShards = Array.from({ length: shards.count }, (_, id) => id);
  }

  private async renew(): Promise<void> {
    const { redis, keys, options } = this;
    const other = Number(
      await redis.eval(RENEW, keys.length, ...keys, options.token, options.ttlMs, this.lease),
    );
    if (other < 0 || !this.held || this.released) return;
    this.held = false;
    clearInterval(this.renewer);
    const shardId = this.ids[other] ?? -1;
    options.logger.error(
      { shardId, shardCount: this.shards.count, holder: holderName(await redis.get(keys[other] ?? '')) },
      'another worker process took over this shard (its lease lapsed here); stopping',
    );
    options.lost(shardId);
  }

  /** `auto`: takes free shards' leases; '' when it got some, else why not (as CLAIM says it). */
  private async claimFree(): Promise<string> {
    const { options, shards } = this;
    const oldHeld = await legacyHolders(this.redis, this.allShards, shards.count);
    const candidates = this.allShards.filter((id) => !oldHeld.has(id));
    const taken = await claimFreeShards(this.redis, shards.count, candidates, options.perProcess ?? 1, {
      token: options.token,
      ttlMs: options.ttlMs,
      lease: this.lease,
    });
    if (taken.length === 0) return 'all';
    this.ids = taken;
    this.keys = this.ids.map((id) => shardLeaseKey(id, shards.count));
    options.logger.info(
      { shards: this.ids, shardCount: shards.count },
      'claimed free shards (SHARD_IDS=auto)',
    );
    return '';
  }

  /** One claim: '' when taken, 'all' (auto: every shard held), else `<index>:<holder>`. */
  private async claimOnce(): Promise<string> {
    if (this.auto) return this.claimFree();
    const { keys, options } = this;
    const oldHeld = await legacyHolders(this.redis, this.ids, this.shards.count);
    for (const [index, id] of this.ids.entries()) {
      const holder = oldHeld.get(id);
      if (holder !== undefined) return `${index}:${holder}`;
    }
    return String(
      await this.redis.eval(CLAIM, keys.length, ...keys, options.token, options.ttlMs, this.lease),
    );
  }

  async tryClaim(): Promise<boolean> {
    const { redis, options, shards } = this;
    const { token, logger } = options;
    if (this.released) throw new Error('shard leases released');
    if (this.held) return true;
    let answer = await this.claimOnce();
    const watched = this.auto ? this.allShards : this.ids;
    if (answer !== '' && (await freeDeadHolders(redis, watched, shards.count, token, logger))) {
      answer = await this.claimOnce();
    }
    if (answer === '') {
      if (this.released) {
        await redis.eval(RELEASE, this.keys.length, ...this.keys, token);
        throw new Error('shard leases released');
      }
      this.held = true;
      if (this.lastHolder !== undefined) {
        logger.info({ shards: this.ids, previousHolder: this.lastHolder }, 'took over the shards');
      }
      this.renewer = setInterval(() => {
        this.renew().catch((error: unknown) => logger.warn(errorFields(error), 'shard lease renewal failed'));
      }, this.every);
      return true;
    }
    this.lastHolder = noteWaiting(logger, answer, this.ids, shards.count, this.lastHolder);
    return false;
  }

  shardIds(): number[] {
    return [...this.ids];
  }

  async claim(): Promise<void> {
    for (;;) {
      if (this.released) throw new Error('stopped while waiting for the shards');
      try {
        if (await this.tryClaim()) return;
      } catch (error) {
        if (this.released) throw error;
        this.options.logger.warn(errorFields(error), 'shard lease claim failed; trying again');
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, this.every).unref();
      });
    }
  }

  async release(): Promise<void> {
    this.released = true;
    liveTokens.delete(this.options.token);
    clearInterval(this.renewer);
    this.wake?.();
    if (!this.held) return;
    this.held = false;
    await this.redis.eval(RELEASE, this.keys.length, ...this.keys, this.options.token);
  }
}

/**
 * The shards of `ids` whose lease a worker of the version before the slot tags holds (the key
 * it knows, `legacyShardLeaseKey`), with their holder: during a rolling upgrade such a worker
 * still runs them, and does not see the new leases. None on a cluster, where no such worker ran.
 */
async function legacyHolders(
  redis: RedisClient,
  ids: readonly number[],
  count: number,
): Promise<Map<number, string>> {
  const held = new Map<number, string>();
  if (redis instanceof Cluster || ids.length === 0) return held;
  const values = await redis.mget(...ids.map((id) => legacyShardLeaseKey(id, count)));
  for (const [index, value] of values.entries()) {
    const id = ids[index];
    if (value !== null && id !== undefined) held.set(id, holderName(value) ?? value);
  }
  return held;
}

/** Takes the first free shards' leases of `candidates`, up to `perProcess`; their ids (none: all held). */
async function claimFreeShards(
  redis: RedisClient,
  count: number,
  candidates: readonly number[],
  perProcess: number,
  { token, ttlMs, lease }: { token: string; ttlMs: number; lease: string },
): Promise<number[]> {
  if (candidates.length === 0) return [];
  const all = candidates.map((id) => shardLeaseKey(id, count));
  const taken = (await redis.eval(
    CLAIM_FREE,
    all.length,
    ...all,
    token,
    ttlMs,
    lease,
    perProcess,
  )) as number[];
  return taken.map((index) => candidates[Number(index)] as number);
}

/**
 * Logs, once per holder, why the shards are not this process's: every shard held (`all`, with
 * `auto`), or `<index>:<holder>` (as CLAIM says it). Returns the holder named.
 */
function noteWaiting(
  logger: Logger,
  answer: string,
  ids: readonly number[],
  shardCount: number,
  lastHolder: string | undefined,
): string {
  if (answer === 'all') {
    if (lastHolder !== 'all') {
      logger.warn(
        { shardCount },
        `all ${shardCount} shards are run by other live worker processes; this process stands by (a shard's jobs run where the shard runs) and takes over the first shard whose process stops (raise SHARD_COUNT to run more shards)`,
      );
    }
    return 'all';
  }
  const separator = answer.indexOf(':');
  const shardId = ids[Number(answer.slice(0, separator))];
  const holder = answer.slice(separator + 1);
  if (holder !== lastHolder) {
    logger.warn(
      { shardId, shardCount, holder },
      `shard ${shardId}/${shardCount} is run by another live worker process (${holder}); this process stands by (a shard's jobs run where the shard runs) and takes the shard over when that process stops (set SHARD_IDS to run other shards)`,
    );
  }
  return holder;
}
