import { shardLeaseKey } from '@spacecadet/contract';
import type { Redis } from 'ioredis';
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
  redis: Redis,
  shards: { ids: readonly number[] | 'auto'; count: number },
  options: ShardLeaseOptions,
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
  const allShards = Array.from({ length: shards.count }, (_, id) => id);

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
    const taken = await claimFreeShards(redis, shards.count, options.perProcess ?? 1, {
      token,
      ttlMs,
      lease,
    });
    if (taken.length === 0) return 'all';
    ids = taken;
    keys = ids.map((id) => shardLeaseKey(id, shards.count));
    logger.info({ shards: ids, shardCount: shards.count }, 'claimed free shards (SHARD_IDS=auto)');
    return '';
  }

  /** One claim: '' when taken, 'all' (auto: every shard held), else `<index>:<holder>`. */
  async function claimOnce(): Promise<string> {
    return auto ? claimFree() : String(await redis.eval(CLAIM, keys.length, ...keys, token, ttlMs, lease));
  }

  async function tryClaim(): Promise<boolean> {
    if (released) throw new Error('shard leases released');
    if (held) return true;
    let answer = await claimOnce();
    if (
      answer !== '' &&
      (await freeDeadHolders(redis, auto ? allShards : ids, shards.count, token, logger))
    ) {
      answer = await claimOnce();
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
    lastHolder = noteWaiting(logger, answer, ids, shards.count, lastHolder);
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

/** Takes the first free shards' leases of 0..count-1, up to `perProcess`; their ids (none: all held). */
async function claimFreeShards(
  redis: Redis,
  count: number,
  perProcess: number,
  { token, ttlMs, lease }: { token: string; ttlMs: number; lease: string },
): Promise<number[]> {
  const all = Array.from({ length: count }, (_, id) => shardLeaseKey(id, count));
  const taken = (await redis.eval(
    CLAIM_FREE,
    all.length,
    ...all,
    token,
    ttlMs,
    lease,
    perProcess,
  )) as number[];
  return taken.map(Number);
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
        `all ${shardCount} shards are run by other live worker processes; this process takes jobs and takes over the first shard whose process stops (raise SHARD_COUNT to run more shards)`,
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
      `shard ${shardId}/${shardCount} is run by another live worker process (${holder}); this process takes jobs and waits to take the shard over when that process stops (set SHARD_IDS to run other shards)`,
    );
  }
  return holder;
}
