import { prefixDatabaseKey, redisKeyPrefix } from '@spacecadet/contract';
import { bindRedisPrefix, RedisPrefixTakenError } from '@spacecadet/db/prefix-binding';
import {
  createTestDatabase,
  type PrivateRedis,
  startPrivateRedis,
  type TestDatabase,
} from '@spacecadet/db/testing';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { type Harness, startHarness, waitFor } from './helpers.ts';

describe('two deployments on one Redis prefix', () => {
  let harness: Harness;
  let other: TestDatabase;
  let worker: RunningWorker | undefined;

  beforeAll(async () => {
    [harness, other] = await Promise.all([startHarness(), createTestDatabase('other_deployment')]);
  });
  afterEach(async () => {
    await worker?.close();
    worker = undefined;
  });
  afterAll(async () => {
    await Promise.allSettled([other?.close(), harness?.close()]);
  });

  it('the second one’s worker refuses to start, saying why', async () => {
    worker = await startWorker(harness.config());
    await expect(startWorker(harness.config({ DATABASE_URL: other.url }))).rejects.toThrow(
      /REDIS_PREFIX ".+" belongs to another deployment/,
    );
  });

  describe('after a Redis restart without persistence', () => {
    let redisServer: PrivateRedis;
    let admin: Redis;

    beforeAll(async () => {
      redisServer = await startPrivateRedis();
      admin = new Redis(redisServer.url, {
        keyPrefix: redisKeyPrefix(harness.redis.prefix),
        maxRetriesPerRequest: null,
      });
      admin.on('error', () => {});
    });
    afterAll(async () => {
      admin?.disconnect();
      await redisServer?.close();
    });

    it('the running worker binds the prefix again, so the second deployment is still refused', async () => {
      worker = await startWorker(harness.config({ REDIS_URL: redisServer.url }));
      const bound = await admin.get(prefixDatabaseKey());
      expect(bound).not.toBeNull();

      await redisServer.restart();
      // The restart forgot every key; the worker writes its binding back once it reconnected.
      await waitFor(
        'the worker to bind the prefix again',
        async () => (await admin.get(prefixDatabaseKey())) === bound,
      );
      await expect(bindRedisPrefix(other.db, admin, harness.redis.prefix)).rejects.toBeInstanceOf(
        RedisPrefixTakenError,
      );
      // BullMQ's Worker.close() waits forever for a blocking connection closed while it is still
      // reconnecting: the worker is closed once it waits for jobs again.
      await waitFor('the job worker to wait for jobs again', async () =>
        String(await admin.client('LIST')).includes('cmd=bzpopmin'),
      );
    });
  });
});
