/**
 * The doctor's SHARD_COUNT check: the API queues a guild's jobs in its shard's queue
 * (`shardOfGuild(guild, SHARD_COUNT)`), and only the worker holding that shard takes them, so
 * an API told another SHARD_COUNT than the workers queues jobs nobody runs. The running workers
 * say theirs in their shard leases' keys (`shardLeaseKey`, which names the count).
 */
import {
  type RedisClusterNode,
  redisKeyPrefix,
  shardCountOfLease,
  shardLeaseAnyCountPattern,
  shardLeaseKey,
} from '@spacecadet/contract';
import { scanAllNodes } from '@spacecadet/runtime/redis-client';
import { type CheckLine, fail, pass } from './check.ts';
import { checkClient } from './redis.ts';

export async function checkShardCount(config: {
  redisUrl: string;
  redisClusterNodes: RedisClusterNode[] | null;
  redisPrefix: string;
  shardCount: number;
}): Promise<CheckLine | null> {
  const redis = checkClient(config.redisUrl, config.redisClusterNodes);
  try {
    await redis.connect();
    const prefix = redisKeyPrefix(config.redisPrefix);
    if ((await redis.exists(`${prefix}${shardLeaseKey(0, config.shardCount)}`)) === 1) {
      return pass(`SHARD_COUNT ${config.shardCount}, as the running workers'`);
    }
    // Shard 0's lease under another count (every deployment has a shard 0): SCAN on every
    // master, which does not block a large Redis as KEYS would.
    const keys: string[] = [];
    await scanAllNodes(redis, `${prefix}${shardLeaseAnyCountPattern(0)}`, 1000, (found) => {
      keys.push(...found);
    });
    const counts = [...new Set(keys.map(shardCountOfLease))].sort();
    // No worker running: nothing to compare with.
    if (counts.length === 0) return null;
    return fail(
      `SHARD_COUNT is ${config.shardCount} here, the running workers run ${counts.join(' and ')}`,
      "Give the API the workers' SHARD_COUNT (1 when the workers run unsharded): it queues each server's jobs for the worker holding its shard.",
    );
  } catch {
    // Unreachable Redis is the Redis check's line.
    return null;
  } finally {
    redis.disconnect();
  }
}
