import {
  guildChannelsCacheKey,
  guildMembershipCacheKey,
  guildSetupCacheKey,
  memberPicksKey,
  redisKeyPrefix,
  shardLeaseKey,
  xpBatchesKey,
  xpBatchKey,
  xpCooldownKey,
  xpDirtyGuildsKey,
  xpPendingKey,
  xpSlotGroup,
} from '@spacecadet/contract';
import { levelingSettings, memberXp } from '@spacecadet/db/schema';
import { createRedisClient, type RedisClient } from '@spacecadet/runtime/redis-client';
import { startRedisCluster, type TestRedisCluster } from '@spacecadet/runtime/testing';
import { and, eq } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { control, type Harness, jobQueue, SANDBOX_IDS, STATION, startHarness, waitFor } from './helpers.ts';

const { ada, nia } = SANDBOX_IDS.users;
const general = SANDBOX_IDS.channels.general;

/**
 * The whole worker with REDIS_CLUSTER_NODES set: its own Redis connection (XP buffer, shard
 * lease, identify slot, caches, locks) on a real three-master Redis Cluster, chat XP counted
 * from the sandbox's gateway and flushed to Postgres, and its job queues (BullMQ) there too.
 */
describe('the worker on a Redis Cluster', () => {
  let cluster: TestRedisCluster;
  let harness: Harness;
  let worker: RunningWorker | undefined;
  let redis: RedisClient;

  beforeAll(async () => {
    [cluster, harness] = await Promise.all([startRedisCluster(), startHarness()]);
    redis = createRedisClient('redis://127.0.0.1:1', cluster.nodes, {
      keyPrefix: redisKeyPrefix(harness.redis.prefix),
    });
    await harness.database.db
      .insert(levelingSettings)
      .values({ guildId: STATION, enabled: true, xpMin: 7, xpMax: 7, messageCooldownSec: 0 });
    worker = await startWorker(
      harness.config({ REDIS_CLUSTER_NODES: cluster.nodesEnv, SHARD_IDS: '0', SHARD_COUNT: '1' }),
    );
  });
  afterAll(async () => {
    await worker?.close();
    redis?.disconnect();
    await Promise.allSettled([harness?.close(), cluster?.stop()]);
  });

  it('holds its shard lease in the cluster and flushes chat XP to Postgres', async () => {
    expect(await redis.exists(shardLeaseKey(0, 1))).toBe(1);
    const sandbox = control(harness.sandbox);
    for (const author of [ada, nia, ada]) {
      await sandbox.postMessage({ guild_id: STATION, channel_id: general, author_id: author, content: 'hi' });
    }
    const xpOf = async (userId: string) =>
      (
        await harness.database.db
          .select()
          .from(memberXp)
          .where(and(eq(memberXp.guildId, STATION), eq(memberXp.userId, userId)))
      )[0]?.xp;
    await waitFor('both members’ XP in Postgres', async () =>
      (await xpOf(ada)) === 14 && (await xpOf(nia)) === 7 ? true : undefined,
    );
  });

  it('deletes a guild’s keys from every master, and nothing of another guild', async () => {
    const [gone, kept] = ['400000000000000777', '400000000000000778'];
    const keysOf = (guildId: string) => [
      guildChannelsCacheKey(guildId),
      guildSetupCacheKey(guildId),
      guildMembershipCacheKey(guildId, nia),
      memberPicksKey('color-roles', guildId, nia),
      xpCooldownKey(guildId, nia),
      xpPendingKey(guildId),
      xpBatchKey(`${guildId}.in-flight`),
    ];
    for (const guildId of [gone, kept]) {
      for (const key of keysOf(guildId)) {
        if (key.startsWith('xp-pending') || key.startsWith('xp-batch') || key.includes(':picks:')) {
          await redis.hset(key, `${nia}:x`, 3);
        } else await redis.set(key, '1');
      }
      // Only the deleted guild is listed dirty: the running flusher would otherwise write (and
      // so remove) the kept guild's pending XP before the checks below.
      if (guildId === gone) await redis.sadd(xpDirtyGuildsKey(xpSlotGroup(guildId)), guildId);
      await redis.zadd(xpBatchesKey(xpSlotGroup(guildId)), Date.now() + 3_600_000, `${guildId}.in-flight`);
    }
    // The worker's BullMQ is on the cluster too: each shard queue's keys share one slot.
    const jobs = jobQueue(
      harness,
      1,
      createRedisClient('redis://127.0.0.1:1', cluster.nodes, { maxRetriesPerRequest: null }) as Redis,
    );
    try {
      const job = await jobs.add('guild-data.delete', gone);
      const done = await jobs.finished(job.id as string);
      expect({ state: done.state, error: done.error }).toEqual({ state: 'completed', error: undefined });
    } finally {
      await jobs.close();
    }
    // One EXISTS per key: they lie in different slots.
    const exists = async (guildId: string) =>
      Promise.all(keysOf(guildId).map(async (key) => [key, await redis.exists(key)] as const));
    expect((await exists(gone)).filter(([, found]) => found === 1)).toEqual([]);
    expect((await exists(kept)).filter(([, found]) => found === 0)).toEqual([]);
    expect(await redis.sismember(xpDirtyGuildsKey(xpSlotGroup(gone)), gone)).toBe(0);
    expect(await redis.zscore(xpBatchesKey(xpSlotGroup(gone)), `${gone}.in-flight`)).toBeNull();
  });
});
