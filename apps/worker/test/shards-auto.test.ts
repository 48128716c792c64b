import { identifyBucketKey, redisKeyPrefix, shardLeaseKey, shardOfGuild } from '@spacecadet/contract';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisIdentifyThrottler } from '../src/identify-throttler.ts';
import { shardLeases } from '../src/shard-lease.ts';
import { parseShardLease } from '../src/shard-lease-holders.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { FAR_ORBIT, fixtureWithFarOrbit, type Harness, SANDBOX_IDS, startHarness } from './helpers.ts';

const { station, orbit } = SANDBOX_IDS.guilds;
/** The guilds the bot is in with Far Orbit added: shard 0 of 2 gets station and orbit, 1 Far Orbit. */
const BOT_GUILDS = [station, orbit, FAR_ORBIT.guild];

interface IdentifyRecord {
  at_ms: number;
  shard: [number, number];
  bucket: number;
  refused: boolean;
}

let harness: Harness;
const workers: RunningWorker[] = [];

beforeAll(async () => {
  harness = await startHarness(fixtureWithFarOrbit());
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.close()));
});
afterAll(async () => {
  await harness?.close();
});

async function gatewayLimits(body?: Record<string, number>) {
  const res = await fetch(`${harness.sandbox.url}/_sandbox/gateway-limits`, {
    method: body ? 'PUT' : 'GET',
    ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { max_concurrency: number; identifies: IdentifyRecord[] };
}

async function start(env: Record<string, string>): Promise<RunningWorker> {
  const worker = await startWorker(harness.config(env));
  workers.push(worker);
  return worker;
}

const shardsOf = (worker: RunningWorker) => [...worker.client.ws.shards.keys()];
const guildsOf = (worker: RunningWorker) => [...worker.client.guilds.cache.keys()].sort();

describe('IDENTIFY across processes', () => {
  // Back to the harness's short interval for the tests below.
  afterAll(async () => {
    await fetch(`${harness.sandbox.url}/_sandbox/reset`, { method: 'POST' });
  });

  it('lets shards of different buckets identify together when max_concurrency allows it', async () => {
    await gatewayLimits({ max_concurrency: 2, identify_interval_ms: 5000 });
    const since = Date.now();
    const env = { SHARD_COUNT: '2', IDENTIFY_INTERVAL_MS: '5000' };
    await Promise.all([start({ ...env, SHARD_IDS: '0' }), start({ ...env, SHARD_IDS: '1' })]);
    const identifies = (await gatewayLimits()).identifies.filter((record) => record.at_ms >= since);
    expect(identifies.map((record) => [record.bucket, record.refused]).sort()).toEqual([
      [0, false],
      [1, false],
    ]);
  });

  it('keys the slot by shard_id % max_concurrency: another bucket goes at once, the same bucket waits', async () => {
    const redis = new Redis(harness.redis.url, { keyPrefix: redisKeyPrefix(harness.redis.prefix) });
    try {
      const throttler = new RedisIdentifyThrottler(redis, 2, 60_000, 'test');
      const signal = new AbortController();
      await Promise.all([
        throttler.waitForIdentify(0, signal.signal),
        throttler.waitForIdentify(1, signal.signal),
      ]);
      expect(await redis.get(identifyBucketKey(0))).toBe('test');
      expect(await redis.get(identifyBucketKey(1))).toBe('test');
      // Shard 2 shares bucket 0's slot, held for the interval: it waits until aborted.
      const waiting = throttler.waitForIdentify(2, signal.signal);
      signal.abort();
      await expect(waiting).rejects.toThrow();
    } finally {
      await redis.del(identifyBucketKey(0), identifyBucketKey(1));
      redis.disconnect();
    }
  });

  it("spaces two processes' IDENTIFYs of one bucket by Discord's 5 s: none refused", async () => {
    // Discord's own interval on both sides (the harness shortens it for the other tests).
    await gatewayLimits({ max_concurrency: 1, identify_interval_ms: 5000 });
    const since = Date.now();
    const env = { SHARD_COUNT: '2', IDENTIFY_INTERVAL_MS: '5000' };
    const [first, second] = await Promise.all([
      start({ ...env, SHARD_IDS: '0' }),
      start({ ...env, SHARD_IDS: '1' }),
    ]);
    if (!first || !second) throw new Error('workers did not start');
    expect([guildsOf(first), guildsOf(second)]).toEqual([[orbit, station].sort(), [FAR_ORBIT.guild]]);

    const identifies = (await gatewayLimits()).identifies.filter((record) => record.at_ms >= since);
    expect(identifies.map((record) => [record.shard[0], record.refused]).sort()).toEqual([
      [0, false],
      [1, false],
    ]);
    const [a, b] = identifies;
    expect(Math.abs((b?.at_ms ?? 0) - (a?.at_ms ?? 0))).toBeGreaterThanOrEqual(5000);
  });
});

describe('SHARD_IDS=auto', () => {
  it('gives two processes started together different shards, which together hear every guild', async () => {
    const env = { SHARD_IDS: 'auto', SHARD_COUNT: '2' };
    const [first, second] = await Promise.all([start(env), start(env)]);
    if (!first || !second) throw new Error('workers did not start');
    expect([...shardsOf(first), ...shardsOf(second)].sort()).toEqual([0, 1]);
    for (const worker of [first, second]) {
      const [shard] = shardsOf(worker);
      expect(guildsOf(worker)).toEqual(BOT_GUILDS.filter((guild) => shardOfGuild(guild, 2) === shard).sort());
    }
    expect([...guildsOf(first), ...guildsOf(second)].sort()).toEqual([...BOT_GUILDS].sort());

    // A third replica finds both shards held: it waits, and takes over the shard of one that stops.
    const third = await start(env);
    expect(shardsOf(third)).toEqual([]);
    const [stoppedShard] = shardsOf(first);
    await first.close();
    await third.gateway;
    expect(shardsOf(third)).toEqual([stoppedShard]);
    expect(guildsOf(third)).toEqual(
      BOT_GUILDS.filter((guild) => shardOfGuild(guild, 2) === stoppedShard).sort(),
    );
    expect([...guildsOf(third), ...guildsOf(second)].sort()).toEqual([...BOT_GUILDS].sort());
  });

  it('claims SHARDS_PER_PROCESS free shards at once, fewer when fewer are free, none twice', async () => {
    const redis = new Redis(harness.redis.url, { keyPrefix: redisKeyPrefix(harness.redis.prefix) });
    const logger = pino({ level: 'silent' });
    const leases = [1, 2, 3].map((n) =>
      shardLeases(
        redis,
        { ids: 'auto', count: 5 },
        { token: `process-${n}`, ttlMs: 10_000, logger, lost: () => {}, perProcess: 2 },
      ),
    );
    try {
      expect(await Promise.all(leases.map((lease) => lease.tryClaim()))).toEqual([true, true, true]);
      const claimed = leases.map((lease) => lease.shardIds());
      expect(claimed.flat().sort()).toEqual([0, 1, 2, 3, 4]);
      expect(claimed.map((ids) => ids.length).sort()).toEqual([1, 2, 2]);
      for (const [n, ids] of claimed.entries()) {
        for (const id of ids) {
          expect(parseShardLease(await redis.get(shardLeaseKey(id, 5)))?.holder).toBe(`process-${n + 1}`);
        }
      }
      const fourth = shardLeases(
        redis,
        { ids: 'auto', count: 5 },
        { token: 'process-4', ttlMs: 10_000, logger, lost: () => {} },
      );
      expect(await fourth.tryClaim()).toBe(false);
      await leases[0]?.release();
      expect(await fourth.tryClaim()).toBe(true);
      expect(fourth.shardIds()).toEqual([claimed[0]?.[0]]);
      await fourth.release();
    } finally {
      await Promise.all(leases.map((lease) => lease.release()));
      redis.disconnect();
    }
  });
});
