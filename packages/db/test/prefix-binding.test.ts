import { redisKeyPrefix } from '@spacecadet/contract';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindRedisPrefix, RedisPrefixTakenError } from '../src/prefix-binding.ts';
import { createTestDatabase, type TestDatabase, type TestRedis, testRedis } from '../src/testing.ts';

describe('a Redis prefix bound to its database', () => {
  let staging: TestDatabase;
  let production: TestDatabase;
  let shared: TestRedis;
  let redis: Redis;

  beforeAll(async () => {
    [staging, production, shared] = await Promise.all([
      createTestDatabase('staging'),
      createTestDatabase('production'),
      testRedis(),
    ]);
    redis = new Redis(shared.url, { keyPrefix: redisKeyPrefix(shared.prefix) });
  });
  afterAll(async () => {
    redis?.disconnect();
    await Promise.allSettled([staging?.close(), production?.close(), shared?.close()]);
  });

  it('is taken by the first deployment to start, and refused to another, naming both databases', async () => {
    await bindRedisPrefix(staging.db, redis, shared.prefix);
    // Every later process of the same deployment (another replica, a restart) passes.
    await bindRedisPrefix(staging.db, redis, shared.prefix);
    const refused = bindRedisPrefix(production.db, redis, shared.prefix);
    await expect(refused).rejects.toBeInstanceOf(RedisPrefixTakenError);
    const message = await refused.catch((error: Error) => error.message);
    const name = (url: string) => new URL(url).pathname.slice(1);
    expect(message).toContain(`REDIS_PREFIX "${shared.prefix}"`);
    expect(message).toContain(`"${name(staging.url)}"`);
    expect(message).toContain(`"${name(production.url)}"`);
  });
});
