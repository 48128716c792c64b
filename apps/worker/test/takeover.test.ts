import { guildJobLockKey, redisKeyPrefix } from '@spacecadet/contract';
import { testRedis } from '@spacecadet/db/testing';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkerConfig, MIN_TAKEOVER_MS } from '../src/env.ts';
import { type LockOwner, lockToken, withGuildLock } from '../src/jobs/guild-lock.ts';
import { jobTimings, worstTakeoverMs } from '../src/jobs/takeover.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { type Harness, startHarness, waitFor } from './helpers.ts';

describe('takeover timings', () => {
  it.each([1_000, 2_000, 30_000, 120_000])(
    'keep lock expiry + stalled check within JOB_LOCK_DURATION_MS=%i',
    (takeoverMs) => {
      const timings = jobTimings(takeoverMs);
      // Room left for timers, a busy event loop and picking the job up.
      expect(worstTakeoverMs(timings)).toBeLessThanOrEqual(takeoverMs * 0.75);
      // A stalled check at most every half lock: the job is found soon after its lock expires.
      expect(timings.stalledIntervalMs).toBeLessThanOrEqual(timings.lockDurationMs / 2);
      expect(timings.stalledIntervalMs).toBeGreaterThan(0);
      // The guild lock expires with the job lock, never a full period later.
      expect(timings.guildLockTtlMs).toBeLessThanOrEqual(timings.lockDurationMs);
    },
  );

  it('refuses a JOB_LOCK_DURATION_MS too short to renew locks in time', () => {
    const env = { DISCORD_BOT_TOKEN: 't' };
    expect(() => loadWorkerConfig({ ...env, JOB_LOCK_DURATION_MS: '500' })).toThrow(/JOB_LOCK_DURATION_MS/);
    expect(
      loadWorkerConfig({ ...env, JOB_LOCK_DURATION_MS: String(MIN_TAKEOVER_MS) }).jobLockDurationMs,
    ).toBe(MIN_TAKEOVER_MS);
  });
});

describe('the guild lock when a job is taken over', () => {
  let redis: Redis;
  let prefix: string;
  let closeRedis: () => Promise<void>;
  let n = 0;

  beforeAll(async () => {
    const test = await testRedis();
    prefix = test.prefix;
    closeRedis = test.close;
    redis = new Redis(test.url);
  });
  afterAll(async () => {
    redis.disconnect();
    await closeRedis();
  });

  const generate = (instance: number, attempt: number): LockOwner => ({
    jobId: 'color-roles.generate.300000000000000001',
    instance,
    attempt,
  });
  /** A lock left behind by a run that died holding it (nothing renews or releases it). */
  async function deadRun(owner: LockOwner): Promise<string> {
    n += 1;
    const key = `${redisKeyPrefix(prefix)}${guildJobLockKey('color-roles', `30000000000000000${n}`)}`;
    await redis.set(key, lockToken(owner), 'PX', 60_000);
    return key;
  }
  const tryLock = (key: string, owner?: LockOwner) =>
    withGuildLock(redis, key, 60_000, async ({ tookOver }) => tookOver, owner);

  it("lets the job's next attempt take over at once", async () => {
    const key = await deadRun(generate(1000, 1));
    expect(await tryLock(key, generate(1000, 2))).toEqual({ acquired: true, value: true });
    // Released afterwards like any other run.
    expect(await redis.exists(key)).toBe(0);
  });

  it('lets a new job of the same id (the admin asked again) take over', async () => {
    const key = await deadRun(generate(1000, 3));
    expect(await tryLock(key, generate(2000, 1))).toEqual({ acquired: true, value: true });
  });

  it('keeps out the same or an older attempt, other jobs, and callers without a job', async () => {
    const key = await deadRun(generate(1000, 2));
    expect(await tryLock(key, generate(1000, 2))).toEqual({ acquired: false });
    expect(await tryLock(key, generate(1000, 1))).toEqual({ acquired: false });
    const reset = { jobId: 'color-roles.reset.300000000000000001', instance: 1000, attempt: 5 };
    expect(await tryLock(key, reset)).toEqual({ acquired: false });
    expect(await tryLock(key)).toEqual({ acquired: false });
  });

  it('takes a free lock without a takeover', async () => {
    n += 1;
    const key = `${redisKeyPrefix(prefix)}${guildJobLockKey('color-roles', `40000000000000000${n}`)}`;
    expect(await tryLock(key, generate(1000, 1))).toEqual({ acquired: true, value: false });
  });
});

describe('Redis durability check at worker start', () => {
  let harness: Harness;
  let worker: RunningWorker;
  const logLines: Array<{ level: number; msg: string }> = [];

  beforeAll(async () => {
    harness = await startHarness();
    const logger = pino({ level: 'info' }, { write: (line: string) => logLines.push(JSON.parse(line)) });
    worker = await startWorker(harness.config(), { logger });
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
  });

  it('logs what the test Redis (no persistence) means for queued jobs', async () => {
    const admin = new Redis(harness.redis.url);
    const [, appendonly] = (await admin.config('GET', 'appendonly')) as string[];
    const [, save] = (await admin.config('GET', 'save')) as string[];
    admin.disconnect();
    const persisted = appendonly === 'yes' || (save ?? '').trim() !== '';
    const line = await waitFor('the durability log line', () =>
      logLines.find((entry) => /Redis (can lose|keeps) queued jobs/.test(entry.msg)),
    );
    if (persisted) {
      expect(line.msg).toMatch(/^Redis keeps queued jobs/);
    } else {
      // pino's warn level
      expect(line.level).toBe(40);
      expect(line.msg).toMatch(/^Redis can lose queued jobs: persistence is off/);
      expect(line.msg).toContain('appendonly yes');
    }
  });
});
