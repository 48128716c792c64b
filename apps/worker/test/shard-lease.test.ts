import { shardLeaseKey, xpDirtyGuildsKey, xpSlotGroup } from '@spacecadet/contract';
import { levelingSettings, memberXp } from '@spacecadet/db/schema';
import { and, eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadHolderReason, MISSED_HEARTBEATS, parseShardLease } from '../src/shard-lease-holders.ts';
import {
  type ChildWorker,
  control,
  type Harness,
  jobQueue,
  pidOf,
  SANDBOX_IDS,
  STATION,
  startChildWorker,
  startHarness,
  storedKey,
  waitFor,
} from './helpers.ts';

const { ada } = SANDBOX_IDS.users;
const general = SANDBOX_IDS.channels.general;

/** One XP a message for anyone, no cooldown: XP counts the messages the shard's process heard. */
function countingMessages(harness: Harness) {
  const db = harness.database.db;
  const sandbox = control(harness.sandbox);
  return {
    enable: () =>
      db
        .insert(levelingSettings)
        .values({ guildId: STATION, enabled: true, xpMin: 1, xpMax: 1, messageCooldownSec: 0 }),
    /** Ada's XP as stored. */
    async xp() {
      const [row] = await db
        .select()
        .from(memberXp)
        .where(and(eq(memberXp.guildId, STATION), eq(memberXp.userId, ada)));
      return row?.xp ?? 0;
    },
    /** Ada posts `count` messages in #general. */
    async post(count: number) {
      for (let i = 0; i < count; i++) {
        await sandbox.postMessage({
          guild_id: STATION,
          channel_id: general,
          author_id: ada,
          content: `m${i}`,
        });
      }
    },
  };
}

describe('two worker processes started with the same shards (no SHARD_IDS)', () => {
  let harness: Harness;
  let redis: Redis;
  let jobs: ReturnType<typeof jobQueue>;
  const children: ChildWorker[] = [];

  beforeAll(async () => {
    harness = await startHarness();
    redis = new Redis(harness.redis.url);
    jobs = jobQueue(harness);
  });
  afterAll(async () => {
    await Promise.all(children.map((child) => child.stop()));
    await jobs?.close();
    redis?.disconnect();
    await harness?.close();
  });

  it('count each message once, run the shard’s jobs where the shard runs, and when that process is killed the other takes the shard and its jobs over', async () => {
    const { enable, xp, post } = countingMessages(harness);
    await enable();
    await Promise.all([0, 1].map(async () => children.push(await startChildWorker(harness))));
    const pids = children.map((child) => child.pid);
    const lease = storedKey(harness, shardLeaseKey(0, 1));
    const holderPid = async () => parseShardLease(await redis.get(lease))?.pid ?? 0;
    const first = await waitFor('a process to hold shard 0', async () => (await holderPid()) || undefined);
    expect(pids).toContain(first);
    const other = pids.find((pid) => pid !== first);
    // The other one says it stands by: it takes none of the shard's jobs.
    expect(children.find((child) => child.pid === other)?.log()).toMatch(/stands by/);

    let round = 0;
    /** Runs four jobs of the shard's guild; the pids of the processes that ran them. */
    const runJobs = async () => {
      round += 1;
      const added = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          jobs.queue.add(
            'leveling.prune-leavers',
            { guild_id: STATION, requested_by: null },
            { jobId: `leveling.prune-leavers.${STATION}.${round}-${i}` },
          ),
        ),
      );
      const ranBy = new Set<number>();
      for (const job of added) {
        const outcome = await jobs.finished(job.id ?? '');
        expect(outcome.state).toBe('completed');
        ranBy.add(pidOf(outcome.job.processedBy));
      }
      return [...ranBy];
    };
    expect(await runJobs()).toEqual([first]);
    expect(await jobs.queue.getWorkersCount()).toBe(1);

    await post(1);
    await waitFor('the holder to count a first message', async () => (await xp()) === 1);
    await post(100);
    await waitFor('100 more messages counted', async () => (await xp()) >= 101);
    // Counted once each (202 when both processes ran the shard): nothing more is buffered.
    await waitFor(
      'the buffer empty',
      async () => (await redis.exists(storedKey(harness, xpDirtyGuildsKey(xpSlotGroup(STATION))))) === 0,
    );
    expect(await xp()).toBe(101);

    const holder = children.find((child) => child.pid === first);
    await holder?.stop('SIGKILL');
    const second = await waitFor('the other process to take the shard over', async () => {
      const pid = await holderPid();
      return pid !== 0 && pid !== first ? pid : undefined;
    });
    expect(second).toBe(other);
    const afterKill = await xp();
    await waitFor('XP to keep counting', async () => {
      await post(1);
      return (await xp()) > afterKill;
    });
    // The shard's jobs moved with it.
    expect(await runJobs()).toEqual([second]);
  }, 240_000);
});

describe('a worker process restarted at once after a SIGKILL', () => {
  let harness: Harness;
  let redis: Redis;
  const children: ChildWorker[] = [];

  beforeAll(async () => {
    harness = await startHarness();
    redis = new Redis(harness.redis.url);
  });
  afterAll(async () => {
    await Promise.all(children.map((child) => child.stop()));
    redis?.disconnect();
    await harness?.close();
  });

  it('takes its dead predecessor’s shard at once, and every message posted as soon as it started is counted', async () => {
    const { enable, xp, post } = countingMessages(harness);
    await enable();
    // A lease far longer than the test's deadlines: only a takeover from a dead holder is in time.
    const env = { JOB_LOCK_DURATION_MS: '600000', LOG_LEVEL: 'warn' };
    const lease = storedKey(harness, shardLeaseKey(0, 1));
    const holder = async () => parseShardLease(await redis.get(lease));
    const crashed = await startChildWorker(harness, env);
    children.push(crashed);
    expect((await holder())?.pid).toBe(crashed.pid);
    await post(1);
    await waitFor('the first process to count a message', async () => (await xp()) === 1);
    await crashed.stop('SIGKILL');

    const restarted = await startChildWorker(harness, env);
    children.push(restarted);
    // Started = listening for jobs, which a process holding its shard does once its gateway is up.
    expect((await holder())?.pid).toBe(restarted.pid);
    await post(10);
    await waitFor('every message posted after the restart to be counted', async () => (await xp()) === 11);

    // It took the lease from a holder it proved dead, not when the lease lapsed.
    const takeovers = restarted
      .log()
      .split('\n')
      .filter((line) => line.includes('taking it over without waiting for its lease to lapse'))
      .map((line) => JSON.parse(line) as { holder: string; pid: number; reason: string });
    expect(takeovers).toEqual([expect.objectContaining({ pid: crashed.pid, reason: 'its process is gone' })]);
  }, 240_000);
});

describe('a shard lease holder counts as dead', () => {
  const now = 1_000_000;
  const lease = { holder: 'other-host-1-abc', host: 'other-host', pid: 1, every: 1000, beat: now };

  it('on another host, once it missed its heartbeats, not before', () => {
    expect(deadHolderReason({ ...lease, beat: now - MISSED_HEARTBEATS * 1000 }, now, 'this-host')).toBeNull();
    expect(
      deadHolderReason({ ...lease, beat: now - MISSED_HEARTBEATS * 1000 - 1 }, now, 'this-host'),
    ).toMatch(/missed 2 heartbeats/);
  });

  it('on this host, only when its process is gone', () => {
    // This test's own process is alive; its parent too.
    expect(deadHolderReason({ ...lease, host: 'this-host', pid: process.ppid }, now, 'this-host')).toBeNull();
    expect(deadHolderReason({ ...lease, host: 'this-host', pid: 2 ** 22 + 1 }, now, 'this-host')).toBe(
      'its process is gone',
    );
    // A pid this process has now, under a token none of its leases uses: a dead predecessor's.
    expect(deadHolderReason({ ...lease, host: 'this-host', pid: process.pid }, now, 'this-host')).toMatch(
      /its process is gone/,
    );
  });
});
