import {
  apiCacheChannel,
  encodeApiCacheDrop,
  GuildJobPayload,
  guildJobLockKey,
  guildKeyPatterns,
  guildOfXpBatch,
  isGuildJobLockKey,
  JOB_NAMES,
  jobLockFeature,
  xpBatchesKey,
  xpDirtyGuildsKey,
  xpPendingKey,
  xpSlotGroup,
  xpUnpricedGuildsKey,
  xpUnpricedKey,
} from '@spacecadet/contract';
import {
  deleteGuildDeparture,
  deleteGuildRows,
  markXpBatchesDropped,
} from '@spacecadet/db/queries/guild-data';
import { keyPrefixOf, scanAllNodes } from '@spacecadet/runtime/redis-client';
import type { Redis } from 'ioredis';
import type { WorkerDeps } from '../../deps.ts';
import { withLockWhenFree } from '../../jobs/guild-lock.ts';
import { jobTimings } from '../../jobs/takeover.ts';
import { clearGuildRoleConnections } from '../linked-roles/clear.ts';

/** The guild-data feature's own lock name (its jobs run under it): not taken again below. */
const OWN_FEATURE = 'guild-data';

/** How long the deletion waits for a running job of another feature in the guild to finish. */
const FEATURE_LOCK_WAIT_MS = 60_000;

/** What one wipe removed, for the job's summary. */
export interface WipeResult {
  rows: number;
  keys: number;
  schedulers: number;
  jobs: number;
}

/**
 * Deletes everything stored for a guild: its BullMQ schedulers and pending jobs, its buffered
 * XP, every row of every guild_id table, every Redis key of it, then its departure record.
 *
 * Order matters:
 * 1. Schedulers and pending jobs go first, so no job of the guild starts meanwhile.
 * 2. Every feature's guild lock is taken (waiting for a running job to finish), so no job of
 *    the guild writes while its rows are deleted.
 * 3. Buffered XP is dropped before the rows: the guild's pending XP is deleted (a message counted
 *    after that is new XP), and every batch of it already taken by a flusher is recorded as
 *    applied in Postgres, so a writer holding one in memory skips it instead of writing it back
 *    after the delete.
 * 4. The rows, in one transaction (their NOTIFY triggers drop every process's setup copy).
 * 5. The Redis keys of the guild, then schedulers and pending jobs again (the host's minute sync
 *    could have recreated one from rows that existed until step 4).
 * 6. The departure record last: until then, the daily purge still knows the guild is due.
 * Idempotent: each step deletes what is left; a second run finds nothing and changes nothing.
 */
export async function wipeGuild(
  deps: WorkerDeps,
  guildId: string,
  ownJobId: string | undefined,
): Promise<WipeResult> {
  const result: WipeResult = { rows: 0, keys: 0, schedulers: 0, jobs: 0 };
  await removeQueued(deps, guildId, ownJobId, result);
  const { guildLockTtlMs } = jobTimings(deps.config.jobLockDurationMs);
  await withEveryFeatureLock(deps.redis, guildId, guildLockTtlMs, async () => {
    await dropBufferedXp(deps, guildId);
    await clearGuildRoleConnections(deps, guildId);
    result.rows += await deleteGuildRows(deps.db, guildId);
    result.keys += await deleteGuildKeys(deps.redis, guildId);
    await removeQueued(deps, guildId, ownJobId, result);
  });
  await deleteGuildDeparture(deps.db, guildId);
  await deps.redis.publish(
    apiCacheChannel(deps.config.redisPrefix),
    encodeApiCacheDrop({ kind: 'config', id: guildId }),
  );
  return result;
}

/** Every feature lock name but the deletion's own, sorted (one order for every holder). */
export function otherFeatureLocks(): string[] {
  return [...new Set(JOB_NAMES.map(jobLockFeature))].filter((name) => name !== OWN_FEATURE).sort();
}

async function withEveryFeatureLock(
  redis: Redis,
  guildId: string,
  ttlMs: number,
  run: () => Promise<void>,
): Promise<void> {
  const take = async (features: readonly string[]): Promise<void> => {
    const [first, ...rest] = features;
    if (first === undefined) return run();
    const locked = await withLockWhenFree(
      redis,
      guildJobLockKey(first, guildId),
      ttlMs,
      FEATURE_LOCK_WAIT_MS,
      () => take(rest),
    );
    // A retry (BullMQ's backoff) tries again; nothing was deleted yet under this lock.
    if (!locked.acquired) throw new Error(`a ${first} job of the guild is still running`);
  };
  await take(otherFeatureLocks());
}

/** The guild's job schedulers, and its waiting, delayed and finished jobs but the running deletion. */
async function removeQueued(
  deps: WorkerDeps,
  guildId: string,
  ownJobId: string | undefined,
  result: WipeResult,
): Promise<void> {
  // The guild's jobs and schedulers are all in its shard's queue.
  const queue = deps.queue.forGuild(guildId);
  const schedulers = await queue.getJobSchedulers(0, -1);
  for (const scheduler of schedulers) {
    if (scheduler.key.endsWith(`.${guildId}`) && (await queue.removeJobScheduler(scheduler.key))) {
      result.schedulers += 1;
    }
  }
  const jobs = await queue.getJobs(['waiting', 'delayed', 'prioritized', 'completed', 'failed']);
  for (const job of jobs) {
    if (!job || job.id === ownJobId) continue;
    const payload = GuildJobPayload.safeParse(job.data);
    if (!payload.success || payload.data.guild_id !== guildId) continue;
    // A job that started meanwhile is locked by its worker: it stays, and finishes on empty data.
    await job.remove().then(
      () => {
        result.jobs += 1;
      },
      () => undefined,
    );
  }
}

/** The guild's XP not yet in Postgres: pending hash, unpriced messages, and taken batches. */
async function dropBufferedXp(deps: WorkerDeps, guildId: string): Promise<void> {
  const { redis, db } = deps;
  // All in the guild's XP slot group (one hash slot), as a MULTI on a cluster must be.
  const group = xpSlotGroup(guildId);
  await redis
    .multi()
    .del(xpPendingKey(guildId), xpUnpricedKey(guildId))
    .srem(xpDirtyGuildsKey(group), guildId)
    .zrem(xpUnpricedGuildsKey(group), guildId)
    .exec();
  const batches = (await redis.zrange(xpBatchesKey(group), '0', '-1')).filter(
    (id) => guildOfXpBatch(id) === guildId,
  );
  await markXpBatchesDropped(db, batches);
  if (batches.length > 0) await redis.zrem(xpBatchesKey(group), ...batches);
  // The batch hashes themselves match the guild's key patterns and go with the other keys.
}

/** BullMQ's keys (`bullPrefix`): only the queue's own API removes them. */
const BULL_KEYS = 'bull:';

/** Every key of the guild (`guildKeyPatterns`) but the job locks held right now. */
async function deleteGuildKeys(redis: Redis, guildId: string): Promise<number> {
  const keyPrefix = keyPrefixOf(redis);
  let deleted = 0;
  for (const pattern of guildKeyPatterns(guildId)) {
    await scanAllNodes(redis, `${keyPrefix}${pattern}`, 1000, async (found) => {
      const keys = found
        .map((key) => key.slice(keyPrefix.length))
        .filter((key) => !isGuildJobLockKey(key) && !key.startsWith(BULL_KEYS));
      // One DEL per key: the keys of one page may lie in different slots of a cluster.
      const counts = await Promise.all(keys.map((key) => redis.del(key)));
      for (const count of counts) deleted += count;
    });
  }
  return deleted;
}
