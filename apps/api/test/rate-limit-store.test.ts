import { type TestRedis, testRedis } from '@spacecadet/db/testing';
import { waitFor } from '@spacecadet/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMIT_SYNC_MS, syncedRateLimitStore } from '../src/services/rate-limit-store.ts';

/** Two replicas' stores on one real Redis, as the rate-limit plugin drives them. */
let redis: TestRedis;
const silent = { debug() {} };
const clients: Redis[] = [];
const closers: Array<() => void> = [];

function replica() {
  const client = new Redis(redis.url, { keyPrefix: `${redis.prefix}:` });
  clients.push(client);
  const { Store, close } = syncedRateLimitStore(client, 'rate-limit:', silent);
  closers.push(close);
  const store = new Store(null);
  const incr = (key: string, windowMs = 60_000) =>
    new Promise<{ current: number; ttl: number }>((resolve, reject) =>
      store.incr(
        key,
        (error, result) => (error || result === undefined ? reject(error) : resolve(result)),
        windowMs,
      ),
    );
  /** The count this replica would answer now, without adding to it. */
  const read = (key: string) =>
    new Promise<number>((resolve) =>
      store.read(key, (_error, result) => resolve(result?.current ?? -1), 60_000),
    );
  return { store, incr, read };
}

/** Polls (every sync period) until `check` holds. */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  await waitFor(what, check, { timeoutMs: 10_000, intervalMs: RATE_LIMIT_SYNC_MS });
}

/** Until Redis holds `total` for `key`: every replica's counts so far were synced. */
const totalIs = (key: string, total: number) =>
  until(`${key} to total ${total} in Redis`, async () => {
    const reader = new Redis(redis.url);
    try {
      return Number(await reader.get(`${redis.prefix}:rate-limit:${key}`)) === total;
    } finally {
      reader.disconnect();
    }
  });

/** Until `replica` synced and learned the total `total`. */
const learned = (store: Pick<ReturnType<typeof replica>, 'read'>, key: string, total: number) =>
  until(`a replica to learn ${key} = ${total}`, async () => (await store.read(key)) === total);

beforeAll(async () => {
  redis = await testRedis();
});

afterAll(async () => {
  for (const close of closers) close();
  for (const client of clients) client.disconnect();
  await redis?.close();
});

describe('the synced rate-limit store', () => {
  it('answers each count at once from memory, then learns the other replicas’ counts', async () => {
    const [a, b] = [replica(), replica()];
    for (let i = 1; i <= 5; i += 1) expect((await a.incr('session:1')).current).toBe(i);
    for (let i = 1; i <= 3; i += 1) expect((await b.incr('session:1')).current).toBe(i);
    await totalIs('session:1', 5 + 3);
    // A replica learns the total when it next adds its own counts to Redis.
    await a.incr('session:1');
    await learned(a, 'session:1', 5 + 3 + 1);
    expect((await a.incr('session:1')).current).toBe(5 + 3 + 1 + 1);
    await totalIs('session:1', 5 + 3 + 1 + 1);
    await b.incr('session:1');
    await learned(b, 'session:1', 5 + 3 + 1 + 1 + 1);
    expect((await b.incr('session:1')).current).toBe(5 + 3 + 1 + 1 + 1 + 1);
  });

  it('keeps keys, routes and windows apart, and starts a new window once one ends', async () => {
    const a = replica();
    expect((await a.incr('ip:1.2.3.4', 200)).current).toBe(1);
    expect((await a.incr('ip:5.6.7.8', 200)).current).toBe(1);
    const exchange = a.store.child({ routeInfo: { method: 'POST', url: '/api/auth/discord/exchange' } });
    const viaRoute = await new Promise<number>((resolve) =>
      exchange.incr('ip:1.2.3.4', (_error, result) => resolve(result?.current ?? -1), 200),
    );
    expect(viaRoute).toBe(1);
    const second = await a.incr('ip:1.2.3.4', 200);
    expect(second.current).toBe(2);
    expect(second.ttl).toBeGreaterThan(0);
    expect(second.ttl).toBeLessThanOrEqual(200);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await a.incr('ip:1.2.3.4', 200)).current).toBe(1);
  });

  it('keeps counting in memory while Redis is unreachable', async () => {
    const client = new Redis('redis://127.0.0.1:1', {
      // Only the store's own outcome matters here: a refused connection, every sync.
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => {});
    clients.push(client);
    let failedSyncs = 0;
    const { Store, close } = syncedRateLimitStore(client, 'rate-limit:', {
      debug: () => {
        failedSyncs += 1;
      },
    });
    /** Each count starts a sync, which fails: until `n` have. */
    const syncsFailed = (n: number) => until(`${n} failed syncs`, async () => failedSyncs >= n);
    closers.push(close);
    const store = new Store(null);
    const incr = () =>
      new Promise<number>((resolve) =>
        store.incr('ip:9.9.9.9', (_e, result) => resolve(result?.current ?? -1), 60_000),
      );
    expect(await incr()).toBe(1);
    await syncsFailed(1);
    expect(await incr()).toBe(2);
    await syncsFailed(2);
    expect(await incr()).toBe(3);
  });
});
