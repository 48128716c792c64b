import {
  LEGACY_XP_KEYS,
  legacyShardLeaseKey,
  redisKeyPrefix,
  XP_SLOT_GROUPS,
  xpBatchesKey,
  xpDirtyGuildsKey,
  xpUnpricedGuildsKey,
} from '@spacecadet/contract';
import { levelingSettings, memberXp } from '@spacecadet/db/schema';
import { and, eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { shardLeases } from '../src/shard-lease.ts';
import {
  type ChildWorker,
  type Harness,
  SANDBOX_IDS,
  STATION,
  startChildWorker,
  startHarness,
  storedKey,
  waitFor,
} from './helpers.ts';

const { ada, mo, nia } = SANDBOX_IDS.users;
const general = SANDBOX_IDS.channels.general;

/**
 * An upgrade from before the XP keys carried Redis Cluster slot tags: XP buffered under the old
 * names (a guild's pending hash listed in `xp-dirty`, a batch a writer took and never finished,
 * a message kept unpriced) reaches Postgres once, with two workers starting at the same time.
 */
describe('an upgrade from the keys without slot tags', () => {
  let harness: Harness;
  let redis: Redis;
  const children: ChildWorker[] = [];

  beforeAll(async () => {
    harness = await startHarness();
    redis = new Redis(harness.redis.url);
    await harness.database.db
      .insert(levelingSettings)
      .values({ guildId: STATION, enabled: true, xpMin: 10, xpMax: 10, messageCooldownSec: 0 });
  });
  afterAll(async () => {
    await Promise.all(children.map((child) => child.stop()));
    redis?.disconnect();
    await harness?.close();
  });

  const xpOf = async (userId: string) => {
    const [row] = await harness.database.db
      .select()
      .from(memberXp)
      .where(and(eq(memberXp.guildId, STATION), eq(memberXp.userId, userId)));
    return row ?? null;
  };

  it('is moved under the new names by the starting workers and written to Postgres once', async () => {
    const key = (k: string) => storedKey(harness, k);
    const name = JSON.stringify(['someone', null, general]);
    const batchId = `${STATION}.taken-by-an-old-writer`;
    const unpriced = {
      userId: nia,
      channelId: general,
      roles: [],
      time: Date.now(),
      username: 'nia',
      avatar: null,
    };
    await redis
      .multi()
      .hset(key(LEGACY_XP_KEYS.pending(STATION)), `${ada}:x`, 40, `${ada}:m`, 2, `${ada}:n`, name)
      .sadd(key(LEGACY_XP_KEYS.dirty), STATION)
      // Taken a minute ago by a writer that died: stale, so it is taken over once moved.
      .hset(key(LEGACY_XP_KEYS.batch(batchId)), `${mo}:x`, 25, `${mo}:m`, 1, `${mo}:n`, name)
      .zadd(key(LEGACY_XP_KEYS.batches), Date.now() - 60_000, batchId)
      .rpush(key(LEGACY_XP_KEYS.unpriced(STATION)), JSON.stringify(unpriced))
      .zadd(key(LEGACY_XP_KEYS.unpricedGuilds), 0, STATION)
      .exec();

    await Promise.all([0, 1].map(async () => children.push(await startChildWorker(harness))));

    await waitFor('the old XP in Postgres', async () => {
      const [a, m, n] = await Promise.all([xpOf(ada), xpOf(mo), xpOf(nia)]);
      return a && m && n ? true : undefined;
    });
    const groups = Array.from({ length: XP_SLOT_GROUPS }, (_, group) => group);
    await waitFor('the buffer empty under the old and the new names', async () => {
      const counts = await Promise.all([
        redis.exists(
          key(LEGACY_XP_KEYS.pending(STATION)),
          key(LEGACY_XP_KEYS.dirty),
          key(LEGACY_XP_KEYS.batch(batchId)),
          key(LEGACY_XP_KEYS.batches),
          key(LEGACY_XP_KEYS.unpriced(STATION)),
          key(LEGACY_XP_KEYS.unpricedGuilds),
        ),
        ...groups.map((g) =>
          redis.exists(key(xpDirtyGuildsKey(g)), key(xpBatchesKey(g)), key(xpUnpricedGuildsKey(g))),
        ),
      ]);
      return counts.every((count) => count === 0) ? true : undefined;
    });
    // Once each, though two workers moved and flushed at the same time.
    expect((await xpOf(ada))?.xp).toBe(40);
    expect((await xpOf(ada))?.messageCount).toBe(2);
    expect((await xpOf(mo))?.xp).toBe(25);
    expect((await xpOf(nia))?.xp).toBe(10);
  });

  it('leaves a shard alone while a worker of the old version holds its old lease', async () => {
    const prefixed = new Redis(harness.redis.url, { keyPrefix: redisKeyPrefix(harness.redis.prefix) });
    try {
      const old = legacyShardLeaseKey(1, 3);
      await prefixed.set(old, 'old-worker', 'PX', 60_000);
      const options = { ttlMs: 5_000, logger: createLogger('silent'), lost: () => {} };
      const fixed = shardLeases(prefixed, { ids: [1], count: 3 }, { ...options, token: 'new-fixed' });
      expect(await fixed.tryClaim()).toBe(false);
      const auto = shardLeases(
        prefixed,
        { ids: 'auto', count: 3 },
        { ...options, token: 'new-auto', perProcess: 3 },
      );
      expect(await auto.tryClaim()).toBe(true);
      expect(auto.shardIds()).toEqual([0, 2]);
      await auto.release();
      // The old worker stopped: its lease is gone, the shard is free.
      await prefixed.del(old);
      expect(await fixed.tryClaim()).toBe(true);
      expect(fixed.shardIds()).toEqual([1]);
      await fixed.release();
    } finally {
      prefixed.disconnect();
    }
  });
});
