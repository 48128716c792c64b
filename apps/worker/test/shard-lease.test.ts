import { shardLeaseKey, xpDirtyGuildsKey } from '@spacecadet/contract';
import { levelingSettings, memberXp } from '@spacecadet/db/schema';
import { and, eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('count each message once, both take jobs, and when the one running the shard is killed the other takes it over', async () => {
    const sandbox = control(harness.sandbox);
    const db = harness.database.db;
    await db
      .insert(levelingSettings)
      .values({ guildId: STATION, enabled: true, xpPerMessage: 1, messageCooldownSec: 0 });
    await Promise.all([0, 1].map(async () => children.push(await startChildWorker(harness))));
    const pids = children.map((child) => child.pid);
    const lease = storedKey(harness, shardLeaseKey(0, 1));
    const holderPid = async () => pidOf(await redis.get(lease));
    const xp = async () => {
      const [row] = await db
        .select()
        .from(memberXp)
        .where(and(eq(memberXp.guildId, STATION), eq(memberXp.userId, ada)));
      return row?.xp ?? 0;
    };
    const post = async (count: number) => {
      for (let i = 0; i < count; i++) {
        await sandbox.postMessage({
          guild_id: STATION,
          channel_id: general,
          author_id: ada,
          content: `m${i}`,
        });
      }
    };
    await waitFor(
      'both processes to take jobs',
      async () => (await jobs.queue.getWorkersCount()) === 2,
      120_000,
    );
    const first = await waitFor('a process to hold shard 0', async () => (await holderPid()) || undefined);
    expect(pids).toContain(first);

    // Both take jobs, the one waiting for the shard too: jobs go to whichever asks first.
    const ranBy = new Set<number>();
    let round = 0;
    await waitFor('a job run by each process', async () => {
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
      for (const job of added) {
        const outcome = await jobs.finished(job.id ?? '');
        expect(outcome.state).toBe('completed');
        ranBy.add(pidOf(outcome.job.processedBy));
      }
      return ranBy.size === 2 ? true : undefined;
    });
    expect([...ranBy].sort()).toEqual([...pids].sort());

    await post(1);
    await waitFor('the holder to count a first message', async () => (await xp()) === 1);
    await post(100);
    await waitFor('100 more messages counted', async () => (await xp()) >= 101);
    // Counted once each (202 when both processes ran the shard): nothing more is buffered.
    await waitFor(
      'the buffer empty',
      async () => (await redis.exists(storedKey(harness, xpDirtyGuildsKey()))) === 0,
    );
    expect(await xp()).toBe(101);

    const holder = children.find((child) => child.pid === first);
    await holder?.stop('SIGKILL');
    const second = await waitFor('the other process to take the shard over', async () => {
      const pid = await holderPid();
      return pid !== 0 && pid !== first ? pid : undefined;
    });
    expect(pids).toContain(second);
    const afterKill = await xp();
    await waitFor('XP to keep counting', async () => {
      await post(1);
      return (await xp()) > afterKill;
    });
  }, 240_000);
});
