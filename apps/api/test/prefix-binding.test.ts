import { prefixDatabaseKey, redisKeyPrefix } from '@spacecadet/contract';
import { bindRedisPrefix, RedisPrefixTakenError } from '@spacecadet/db/prefix-binding';
import {
  createTestDatabase,
  type PrivateRedis,
  startPrivateRedis,
  type TestDatabase,
} from '@spacecadet/db/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness } from './harness.ts';

describe('the Redis prefix binding after a Redis restart without persistence', () => {
  let redisServer: PrivateRedis;
  let h: Harness;
  let other: TestDatabase;
  let admin: Redis;

  beforeAll(async () => {
    redisServer = await startPrivateRedis();
    [h, other] = await Promise.all([
      startHarness((config) => ({ ...config, redisUrl: redisServer.url })),
      createTestDatabase('other_deployment'),
    ]);
    admin = new Redis(redisServer.url, {
      keyPrefix: redisKeyPrefix(h.config.redisPrefix),
      maxRetriesPerRequest: null,
    });
    admin.on('error', () => {});
  });
  afterAll(async () => {
    admin?.disconnect();
    await Promise.allSettled([h?.close(), other?.close()]);
    await redisServer?.close();
  });

  it('is written back by the running API once it reconnects, so another deployment is still refused', async () => {
    const bound = await admin.get(prefixDatabaseKey());
    expect(bound).not.toBeNull();

    await redisServer.restart();
    // The reconnect is the event; the deadline only catches a binding that never comes back.
    await vi.waitFor(async () => expect(await admin.get(prefixDatabaseKey())).toBe(bound), {
      timeout: 45_000,
      interval: 25,
    });
    await expect(bindRedisPrefix(other.db, admin, h.config.redisPrefix)).rejects.toBeInstanceOf(
      RedisPrefixTakenError,
    );
  });
});
