/**
 * The shard queues: a guild's job lands in the queue of the shard Discord puts the guild on, the
 * queue names carry a hash tag (one slot per queue, different slots per shard), and queues open
 * on first use.
 */
import {
  bullPrefix,
  type GuildJobPayload,
  type JobName,
  jobIdFor,
  jobQueueName,
  shardOfGuild,
} from '@spacecadet/contract';
import { type TestRedis, testRedis } from '@spacecadet/db/testing';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addGuildJob } from '../src/guild-jobs.ts';
import { JobQueues } from '../src/job-queues.ts';

// Discord's shard formula: (id >> 22) % count. These two differ in bit 22.
const ON_SHARD_0 = String(4n << 22n);
const ON_SHARD_1 = String((5n << 22n) + 12345n);

let redis: TestRedis;
let connection: Redis;
let queues: JobQueues<Queue<GuildJobPayload, unknown, JobName>>;
const openedNames: string[] = [];

beforeAll(async () => {
  redis = await testRedis();
  connection = new Redis(redis.url, { maxRetriesPerRequest: null });
  queues = new JobQueues(2, (name) => {
    openedNames.push(name);
    return new Queue(name, { connection, prefix: bullPrefix(redis.prefix) });
  });
});
afterAll(async () => {
  await queues?.close();
  connection?.disconnect();
  await redis?.close();
});

describe('shardOfGuild', () => {
  it("is Discord's formula", () => {
    expect(shardOfGuild(ON_SHARD_0, 2)).toBe(0);
    expect(shardOfGuild(ON_SHARD_1, 2)).toBe(1);
    expect(shardOfGuild('175928847299117063', 16)).toBe(Number((175928847299117063n >> 22n) % 16n));
    expect(shardOfGuild(ON_SHARD_1, 1)).toBe(0);
  });
});

describe('JobQueues', () => {
  it("queues a guild's job in its shard's queue only, opening queues as they are used", async () => {
    expect(openedNames).toEqual([]);
    const id = await addGuildJob(queues, 'leveling.sync-roles', ON_SHARD_1, null);
    expect(id).toBe(jobIdFor('leveling.sync-roles', ON_SHARD_1));
    expect(openedNames).toEqual([jobQueueName(1)]);
    expect(await queues.forShard(1).getJobState(id)).toBe('waiting');
    expect(await queues.forShard(0).getJobState(id)).toBe('unknown');
    expect(queues.all().map((queue) => queue.name)).toEqual([jobQueueName(0), jobQueueName(1)]);
    expect(() => queues.forShard(2)).toThrow(/not below SHARD_COUNT 2/);
  });

  it("keeps each queue's keys in one cluster slot, and different shards' in different tags", async () => {
    const keys = await connection.keys(`${bullPrefix(redis.prefix)}:*`);
    expect(keys.length).toBeGreaterThan(0);
    // Redis Cluster hashes only what is inside the first {...} of a key.
    const tags = keys.map((key) => /\{([^}]*)\}/.exec(key)?.[1]);
    expect(tags).toContain('1');
    for (const [index, key] of keys.entries()) {
      expect(key.startsWith(`${bullPrefix(redis.prefix)}:spacecadet-jobs-{${tags[index]}}:`)).toBe(true);
    }
    expect(jobQueueName(0)).not.toBe(jobQueueName(1));
    expect(jobQueueName(7)).toBe('spacecadet-jobs-{7}');
  });
});
