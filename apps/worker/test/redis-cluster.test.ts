import { randomUUID } from 'node:crypto';
import {
  identifyBucketKey,
  redisKeyPrefix,
  shardLeaseKey,
  XP_SLOT_GROUPS,
  xpBatchesKey,
  xpDirtyGuildsKey,
  xpSlotGroup,
} from '@spacecadet/contract';
import { bindRedisPrefix } from '@spacecadet/db/prefix-binding';
import { writeXpBatches } from '@spacecadet/db/queries/member-xp';
import { memberXp } from '@spacecadet/db/schema';
import { createTestDatabase, type TestDatabase } from '@spacecadet/db/testing';
import { createRedisClient, type RedisClient } from '@spacecadet/runtime/redis-client';
import { startRedisCluster, type TestRedisCluster } from '@spacecadet/runtime/testing';
import { eq } from 'drizzle-orm';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  finishBatch,
  readBatch,
  takeDirtyGuilds,
  takeGuildBatch,
  takeOverStaleBatches,
} from '../src/features/leveling/xp-batches.ts';
import {
  awardMessageXp,
  awardUnpriced,
  keepUnpriced,
  type MessageXp,
  takeUnpricedGuilds,
} from '../src/features/leveling/xp-buffer.ts';
import { moveLegacyXp } from '../src/features/leveling/xp-upgrade.ts';
import { creditMinute } from '../src/features/voice-xp/credit.ts';
import { RedisIdentifyThrottler } from '../src/identify-throttler.ts';
import { withGuildLock } from '../src/jobs/guild-lock.ts';
import { createLogger } from '../src/logger.ts';
import { shardLeases } from '../src/shard-lease.ts';

/**
 * The worker's Redis scripts and multi-key commands on a real three-master Redis Cluster: each
 * must name keys of one hash slot (else CROSSSLOT), and what spans guilds (the XP groups) must
 * reach every group.
 */

/** Guild ids spread over many slot groups, so a cross-group mistake cannot hide. */
const GUILDS = Array.from({ length: 40 }, (_, i) => String(900_000_000_000_000_000n + BigInt(i * 7919)));
const USERS = ['111111111111111111', '222222222222222222', '333333333333333333'];

let cluster: TestRedisCluster;
let database: TestDatabase;
let redis: RedisClient;
const prefix = `cluster-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  [cluster, database] = await Promise.all([startRedisCluster(), createTestDatabase('cluster')]);
  redis = createRedisClient('redis://127.0.0.1:1', cluster.nodes, { keyPrefix: redisKeyPrefix(prefix) });
});

afterAll(async () => {
  redis?.disconnect();
  await Promise.allSettled([database?.close(), cluster?.stop()]);
});

const message = (guildId: string, userId: string, time: number): MessageXp => ({
  guildId,
  userId,
  channelId: '444444444444444444',
  xp: 10,
  cooldownSec: 0,
  time,
  username: `u${userId.slice(0, 3)}`,
  avatar: null,
});

const voiceMember = (userId: string) => ({
  userId,
  channelId: '555555555555555555',
  bot: false,
  muted: false,
  deafened: false,
  roleIds: [],
  since: 0,
  username: 'v',
  avatar: null,
});

/** Takes and writes every buffered guild to Postgres, as the flusher does. */
async function flushAll(): Promise<number> {
  let written = 0;
  for (;;) {
    const guilds = await takeDirtyGuilds(redis, 500);
    if (guilds.length === 0) return written;
    const taken = await Promise.all(guilds.map((guildId) => takeGuildBatch(redis, guildId, Date.now())));
    const batches = taken.filter((batch) => batch !== null);
    const inputs = await Promise.all(
      batches.map(async (batch) => ({
        batchId: batch.id,
        guildId: batch.guildId,
        members: await readBatch(redis, batch),
      })),
    );
    await writeXpBatches(database.db, { batches: inputs, day: '2026-11-29', levelUpLeaseMs: 1_000 });
    await Promise.all(batches.map((batch) => finishBatch(redis, batch)));
    written += batches.length;
  }
}

const xpOf = async (guildId: string) =>
  (await database.db.select().from(memberXp).where(eq(memberXp.guildId, guildId))).reduce(
    (sum, row) => sum + row.xp,
    0,
  );

describe('the XP buffer on a Redis Cluster', () => {
  it('spreads the guilds over several slot groups and several masters', async () => {
    const groups = [...new Set(GUILDS.map(xpSlotGroup))];
    expect(groups.length).toBeGreaterThan(XP_SLOT_GROUPS / 2);
    const onCluster = redis as Cluster;
    const [node] = onCluster.nodes('master');
    const masters = new Set<string>();
    for (const group of groups) {
      const slot = Number(
        await node?.cluster('KEYSLOT', `${redisKeyPrefix(prefix)}${xpDirtyGuildsKey(group)}`),
      );
      masters.add(String(onCluster.slots[slot]?.[0]));
    }
    expect(masters.size).toBeGreaterThan(1);
  });

  it('awards messages of many guilds in one turn and flushes them all to Postgres once', async () => {
    const time = Date.now();
    const counted = await Promise.all(
      GUILDS.flatMap((guildId) =>
        USERS.map((userId, i) => awardMessageXp(redis, message(guildId, userId, time + i))),
      ),
    );
    expect(counted.every(Boolean)).toBe(true);
    // Voice minutes go into the same buffer with one script per guild.
    expect(
      await creditMinute(redis, {
        guildId: GUILDS[0] as string,
        minuteEnd: time,
        earners: [{ member: voiceMember(USERS[0] as string), xp: 5 }],
      }),
    ).toBe(true);
    expect(await flushAll()).toBe(GUILDS.length);
    expect(await xpOf(GUILDS[0] as string)).toBe(35);
    for (const guildId of GUILDS.slice(1)) expect(await xpOf(guildId)).toBe(30);
    const left = await Promise.all(
      Array.from({ length: XP_SLOT_GROUPS }, (_, g) => redis.exists(xpDirtyGuildsKey(g), xpBatchesKey(g))),
    );
    expect(left.every((count) => count === 0)).toBe(true);
  });

  it('keeps unpriced messages per group and awards them with their guild', async () => {
    const guildId = GUILDS[5] as string;
    const userId = USERS[1] as string;
    await keepUnpriced(redis, guildId, { userId, roles: [], time: Date.now(), username: 'x', avatar: null });
    const taken = await takeUnpricedGuilds(redis, Date.now(), 10_000, 10);
    expect(taken).toEqual([guildId]);
    expect(await awardUnpriced(redis, guildId, 1, [message(guildId, userId, Date.now() + 1000)])).toBe(1);
    const before = await xpOf(guildId);
    await flushAll();
    expect(await xpOf(guildId)).toBe(before + 10);
  });

  it('takes over a stale batch of any group', async () => {
    const guildId = GUILDS[9] as string;
    await awardMessageXp(redis, message(guildId, USERS[2] as string, Date.now() + 5000));
    const [dirty] = await takeDirtyGuilds(redis, 1);
    const batch = await takeGuildBatch(redis, dirty as string, Date.now() - 60_000);
    expect(batch?.guildId).toBe(guildId);
    const stale = await takeOverStaleBatches(redis, Date.now(), 10_000, 50);
    expect(stale.map((one) => one.id)).toEqual([batch?.id]);
  });

  it('has no old-layout XP to move (it never lived on a cluster), and says so without an error', async () => {
    expect(await moveLegacyXp(redis)).toEqual({ pending: 0, batches: 0, unpriced: 0 });
  });
});

describe('locks, leases and the identify slot on a Redis Cluster', () => {
  const logger = createLogger('silent');

  it('a guild job lock is held by one run at a time', async () => {
    let inside = 0;
    const key = `job-lock:test:${GUILDS[0]}`;
    const runs = await Promise.all(
      [0, 1].map(() =>
        withGuildLock(redis, key, 5_000, async () => {
          inside += 1;
          await new Promise((resolve) => setImmediate(resolve));
          return inside;
        }),
      ),
    );
    expect(runs.filter((run) => run.acquired)).toHaveLength(1);
    expect(await redis.exists(key)).toBe(0);
  });

  it('claims several shards in one script, and a second process waits', async () => {
    const options = { ttlMs: 5_000, logger, lost: () => {} };
    const first = shardLeases(redis, { ids: [0, 1, 2], count: 4 }, { ...options, token: 'first' });
    const second = shardLeases(redis, { ids: [1, 3], count: 4 }, { ...options, token: 'second' });
    expect(await first.tryClaim()).toBe(true);
    expect(await second.tryClaim()).toBe(false);
    const auto = shardLeases(redis, { ids: 'auto', count: 4 }, { ...options, token: 'auto' });
    expect(await auto.tryClaim()).toBe(true);
    expect(auto.shardIds()).toEqual([3]);
    await first.release();
    expect(await second.tryClaim()).toBe(false);
    await auto.release();
    expect(await second.tryClaim()).toBe(true);
    expect(await redis.exists(shardLeaseKey(1, 4))).toBe(1);
    await second.release();
  });

  it('spaces two identifies of one bucket across processes', async () => {
    const one = new RedisIdentifyThrottler(redis, 1, 300, 'one');
    const two = new RedisIdentifyThrottler(redis, 1, 300, 'two');
    await one.waitForIdentify(0, new AbortController().signal);
    const waiting = two.waitForIdentify(0, new AbortController().signal);
    // The second waits while the first one's slot is held, then takes it.
    expect(await redis.get(identifyBucketKey(0))).toBe('one');
    await waiting;
    expect(await redis.get(identifyBucketKey(0))).toBe('two');
  });

  it('binds the prefix to the database', async () => {
    await bindRedisPrefix(database.db, redis, prefix);
    await bindRedisPrefix(database.db, redis, prefix);
  });
});
