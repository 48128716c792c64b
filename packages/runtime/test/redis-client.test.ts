import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisClient, keyPrefixOf, type RedisClient, scanAllNodes } from '../src/redis-client.ts';
import { startRedisCluster, type TestRedisCluster } from '../src/testing.ts';

let cluster: TestRedisCluster | undefined;
const clients: RedisClient[] = [];

beforeAll(async () => {
  cluster = await startRedisCluster();
});

afterAll(async () => {
  for (const client of clients) client.disconnect();
  await cluster?.stop();
});

function clusterClient(keyPrefix: string): RedisClient {
  const client = createRedisClient('redis://127.0.0.1:1', cluster?.nodes, {
    keyPrefix,
    maxRetriesPerRequest: 3,
  });
  clients.push(client);
  return client;
}

describe('createRedisClient', () => {
  it('gives a single Redis without cluster nodes, and a cluster client with them', () => {
    const single = createRedisClient('redis://127.0.0.1:6379', null, { lazyConnect: true, keyPrefix: 'p:' });
    expect(single).toBeInstanceOf(Redis);
    expect(keyPrefixOf(single)).toBe('p:');
    single.disconnect();
    const onCluster = clusterClient('q:');
    expect(onCluster).toBeInstanceOf(Cluster);
    expect(keyPrefixOf(onCluster)).toBe('q:');
  });

  it('spreads prefixed keys over the masters, and SCAN on every master finds them all', async () => {
    const redis = clusterClient('scan-test:');
    const keys = Array.from({ length: 60 }, (_, i) => `k:${i}`);
    await Promise.all(keys.map((key) => redis.set(key, '1')));
    // The keys really are on several nodes: one node's SCAN alone would miss some.
    const masters = (redis as Cluster).nodes('master');
    expect(masters).toHaveLength(3);
    const perNode = await Promise.all(masters.map((node) => node.dbsize()));
    expect(perNode.filter((count) => count > 0).length).toBeGreaterThan(1);
    const found = new Set<string>();
    await scanAllNodes(redis, `${keyPrefixOf(redis)}k:*`, 10, (page) => {
      for (const key of page) found.add(key);
    });
    expect([...found].sort()).toEqual(keys.map((key) => `scan-test:${key}`).sort());
  });
});

describe('startRedisCluster({ persistent: true })', () => {
  it('restarts a master in place with every write it acknowledged, and the cluster is ok again', async () => {
    const persistent = await startRedisCluster({ persistent: true });
    const redis = createRedisClient('redis://127.0.0.1:1', persistent.nodes, {
      maxRetriesPerRequest: null,
    }) as Cluster;
    try {
      const keys = Array.from({ length: 30 }, (_, i) => `kept:${i}`);
      await Promise.all(keys.map((key) => redis.set(key, key)));
      const slot = Number(await redis.cluster('KEYSLOT', 'kept:0'));
      const port = Number(redis.slots[slot]?.[0]?.split(':')[1]);
      const config = (await redis.nodes('master')[0]?.config('GET', 'appendfsync')) as string[];
      expect(config).toEqual(['appendfsync', 'always']);
      expect(await persistent.restart(port)).toBeGreaterThan(0);
      expect(await Promise.all(keys.map((key) => redis.get(key)))).toEqual(keys);
    } finally {
      redis.disconnect();
      await persistent.stop();
    }
  }, 60_000);
});
