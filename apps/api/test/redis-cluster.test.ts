import {
  guildSetupCacheKey,
  lastColorPickKey,
  memberPicksKey,
  prefixDatabaseKey,
  routePath,
  routes,
  userGuildsCacheKey,
  xpBatchesKey,
  xpBatchKey,
  xpCooldownKey,
  xpPendingKey,
  xpSlotGroup,
} from '@spacecadet/contract';
import { startRedisCluster, type TestRedisCluster } from '@spacecadet/runtime/testing';
import { waitFor } from '@spacecadet/testing';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRedis } from '../src/doctor/redis.ts';
import { syncedRateLimitStore } from '../src/services/rate-limit-store.ts';
import { GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

/**
 * The API with REDIS_CLUSTER_NODES set: its own Redis connection (sessions' caches, the guild
 * caches, the rate-limit counts, the prefix binding, a member's data) on a real three-master
 * Redis Cluster. The job queue stays on REDIS_URL's Redis here (BullMQ on a cluster is another
 * change's).
 */
let cluster: TestRedisCluster;
let h: Harness;
const { station, orbit } = GUILDS;
const { nia, ada } = USERS;

beforeAll(async () => {
  cluster = await startRedisCluster();
  h = await startHarness((config) => ({ ...config, redisClusterNodes: cluster.nodes }));
});
afterAll(async () => {
  await h?.close();
  await cluster?.stop();
});

describe('the API on a Redis Cluster', () => {
  it('connects a cluster client and binds the prefix on it', async () => {
    const { redis } = h.app.services;
    expect(redis).toBeInstanceOf(Cluster);
    expect(await redis.get(prefixDatabaseKey())).toMatch(/ /);
    const ready = await h.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode, ready.body).toBe(200);
  });

  it('the doctor reads every master’s settings (this cluster keeps nothing on disk)', async () => {
    const lines = await checkRedis('redis://127.0.0.1:1', cluster.nodes);
    const text = JSON.stringify(lines);
    expect(text).toContain(`cluster ${cluster.nodesEnv} reachable`);
    expect(text).toContain('Redis persistence off');
  });

  it('caches a user’s guild list and a guild’s setup in the cluster', async () => {
    const { redis } = h.app.services;
    const token = await signIn(h, ada);
    const setup = await h.app.inject({
      method: 'GET',
      url: `/api/guilds/${station}/setup`,
      headers: { authorization: token },
    });
    expect(setup.statusCode, setup.body).toBe(200);
    // The guild access check cached Ada's manageable guilds; the checklist cached its answer.
    expect(await redis.exists(userGuildsCacheKey(ada))).toBe(1);
    expect(await redis.exists(guildSetupCacheKey(station))).toBe(1);
  });

  it('counts rate limits through the cluster', async () => {
    const { Store, close } = syncedRateLimitStore(h.app.services.redis, 'rate-limit-cluster:', {
      debug() {},
    });
    try {
      const store = new Store(null);
      const incr = () =>
        new Promise<number>((resolve, reject) =>
          store.incr(
            'k',
            (error, result) => (error || !result ? reject(error) : resolve(result.current)),
            60_000,
          ),
        );
      await incr();
      await incr();
      const key = 'rate-limit-cluster:k';
      await waitFor('both counts synced to the cluster', async () =>
        Number(await h.app.services.redis.get(key)) === 2 ? true : undefined,
      );
    } finally {
      close();
    }
  });

  it('finds a member’s keys on every master for the export, and erases them and their buffered XP', async () => {
    const { redis } = h.app.services;
    const batchId = `${orbit}.in-flight`;
    for (const userId of [nia, ada]) {
      await redis.set(xpCooldownKey(station, userId), '1700000000000', 'PX', 600_000);
      await redis.set(lastColorPickKey(station, userId), 'role-1');
      await redis.hset(memberPicksKey('color-roles', orbit, userId), 'd:x', '1');
      await redis.hset(xpPendingKey(station), `${userId}:x`, 15, `${userId}:m`, 1);
      await redis.hset(xpBatchKey(batchId), `${userId}:x`, 4, `${userId}:m`, 1);
    }
    await redis.zadd(xpBatchesKey(xpSlotGroup(orbit)), Date.now() + 3_600_000, batchId);
    const token = await signIn(h, nia);
    const path = routePath(routes.exportMemberData);
    const exported = await h.app.inject({ method: 'GET', url: path, headers: { authorization: token } });
    expect(exported.statusCode, exported.body).toBe(200);
    const keys = exported.json<{ redis: Array<{ key: string }> }>().redis.map((entry) => entry.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        xpCooldownKey(station, nia),
        lastColorPickKey(station, nia),
        memberPicksKey('color-roles', orbit, nia),
        xpPendingKey(station),
        xpBatchKey(batchId),
      ]),
    );
    const erased = await h.app.inject({ method: 'DELETE', url: path, headers: { authorization: token } });
    expect(erased.statusCode, erased.body).toBe(200);
    // One key per EXISTS: they lie in different slots.
    for (const key of [
      xpCooldownKey(station, nia),
      lastColorPickKey(station, nia),
      memberPicksKey('color-roles', orbit, nia),
    ]) {
      expect(await redis.exists(key), key).toBe(0);
    }
    expect(await redis.hkeys(xpPendingKey(station))).toEqual([`${ada}:x`, `${ada}:m`]);
    expect(await redis.hkeys(xpBatchKey(batchId))).toEqual([`${ada}:x`, `${ada}:m`]);
    // Everyone else's keys stay.
    expect(await redis.exists(xpCooldownKey(station, ada))).toBe(1);
    expect(await redis.exists(lastColorPickKey(station, ada))).toBe(1);
  });
});
