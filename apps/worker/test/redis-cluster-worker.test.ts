import { redisKeyPrefix, shardLeaseKey } from '@spacecadet/contract';
import { levelingSettings, memberXp } from '@spacecadet/db/schema';
import { createRedisClient, type RedisClient } from '@spacecadet/runtime/redis-client';
import { startRedisCluster, type TestRedisCluster } from '@spacecadet/runtime/testing';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { control, type Harness, SANDBOX_IDS, STATION, startHarness, waitFor } from './helpers.ts';

const { ada, nia } = SANDBOX_IDS.users;
const general = SANDBOX_IDS.channels.general;

/**
 * The whole worker with REDIS_CLUSTER_NODES set: its own Redis connection (XP buffer, shard
 * lease, identify slot, caches, locks) on a real three-master Redis Cluster, chat XP counted
 * from the sandbox's gateway and flushed to Postgres. The job queue stays on REDIS_URL's Redis
 * here (BullMQ on a cluster is another change's).
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
});
