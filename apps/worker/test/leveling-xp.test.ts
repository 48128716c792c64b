import {
  jobSchedulerIdFor,
  xpBatchesKey,
  xpBatchKey,
  xpCooldownKey,
  xpPendingKey,
  xpSlotGroup,
} from '@spacecadet/contract';
import { roleBoostUserId } from '@spacecadet/core';
import { LEVELING_SETUP_CHANNEL } from '@spacecadet/db/queries/leveling';
import {
  levelingBoosts,
  levelingRoles,
  levelingSettings,
  memberDailyXp,
  memberXp,
} from '@spacecadet/db/schema';
import type { APIRole } from 'discord.js';
import { and, eq, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { levelingSetups } from '../src/features/leveling/setup.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  type ChildWorker,
  control,
  FAR_ORBIT,
  fixtureWithFarOrbit,
  guildState,
  type Harness,
  jobQueue,
  memberRoles,
  SANDBOX_IDS,
  STATION,
  setupChangesHeard,
  startChildWorker,
  startHarness,
  storedKey,
  waitFor,
} from './helpers.ts';

const { ada, mo, nia, rex } = SANDBOX_IDS.users;
const general = SANDBOX_IDS.channels.general;
const levelUps = SANDBOX_IDS.channels.levelUps;
const crew = SANDBOX_IDS.roles.stationCrew;

type Settings = Partial<typeof levelingSettings.$inferInsert>;

/** Reading and writing what the dashboard would, straight in Postgres. */
function leveling(harness: Harness) {
  const db = harness.database.db;
  /** Waits until the workers heard of every change made so far (they hear them by NOTIFY). */
  const heard = () => setupChangesHeard(harness, levelingSetups, LEVELING_SETUP_CHANNEL);
  return {
    async settings(guildId: string, settings: Settings) {
      await db
        .insert(levelingSettings)
        .values({ guildId, ...settings })
        .onConflictDoUpdate({ target: levelingSettings.guildId, set: settings });
      await heard();
    },
    heard,
    async member(guildId: string, userId: string) {
      const [row] = await db
        .select()
        .from(memberXp)
        .where(and(eq(memberXp.guildId, guildId), eq(memberXp.userId, userId)));
      return row;
    },
    async clear() {
      // A member's last counted message is remembered for the longest cooldown: a test starts
      // with nobody cooling down.
      const redis = new Redis(harness.redis.url);
      try {
        const keys = await redis.keys(storedKey(harness, xpCooldownKey('*', '*')));
        if (keys.length > 0) await redis.del(...keys);
      } finally {
        redis.disconnect();
      }
      await db.delete(memberXp);
      await db.delete(memberDailyXp);
      await db.delete(levelingBoosts);
      await db.delete(levelingRoles);
      await db.delete(levelingSettings);
    },
  };
}

describe('members earning XP by chatting', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let store: ReturnType<typeof leveling>;
  let sandbox: ReturnType<typeof control>;

  const post = async (guildId: string, channelId: string, userId: string, count = 1) => {
    for (let i = 0; i < count; i++) {
      await sandbox.postMessage({
        guild_id: guildId,
        channel_id: channelId,
        author_id: userId,
        content: `hi ${i}`,
      });
    }
  };
  /** Waits until the member's stored XP is `xp` (the flush runs at least once a second). */
  const xpReaches = (userId: string, xp: number) =>
    waitFor(`${userId} to have ${xp} XP`, async () => {
      const row = await store.member(STATION, userId);
      if (row?.xp !== xp) throw new Error(`has ${row?.xp ?? 'no'} XP`);
      return row;
    });
  const announcements = () =>
    guildState(harness.sandbox, STATION).channels.find((c) => c.id === levelUps)?.messages ?? [];

  beforeAll(async () => {
    harness = await startHarness();
    sandbox = control(harness.sandbox);
    store = leveling(harness);
    worker = await startWorker(harness.config());
  });
  afterAll(async () => {
    await worker?.close();
    await harness?.close();
  });
  beforeEach(async () => {
    await store.clear();
  });

  it('follows the curve: level 1 at 100 XP, 2 at 255, 3 at 475, 4 at 770, 5 at 1,150, announcing each level once', async () => {
    await store.settings(STATION, {
      enabled: true,
      xpMin: 5,
      xpMax: 5,
      messageCooldownSec: 0,
      xpMultiplier: 1,
      announcementChannel: levelUps,
    });
    const before = announcements().length;
    const steps: Array<[messages: number, xp: number, level: number]> = [
      [19, 95, 0],
      [1, 100, 1],
      [31, 255, 2],
      [43, 470, 2],
      [1, 475, 3],
      [59, 770, 4],
      [75, 1145, 4],
      [1, 1150, 5],
    ];
    for (const [messages, xp, level] of steps) {
      await post(STATION, general, nia, messages);
      const row = await xpReaches(nia, xp);
      expect(row.level).toBe(level);
    }
    const row = await store.member(STATION, nia);
    expect(row?.messageCount).toBe(230);
    expect(row?.username).toBe('Nia');
    const mine = await waitFor('five level-up announcements', () => {
      const found = announcements()
        .slice(before)
        .filter((m) => m.content.includes(`<@${nia}>`));
      return found.length >= 5 ? found : undefined;
    });
    // A stopping worker writes what it buffered and waits for every announcement under way: after
    // that, a duplicate would be in the channel.
    await worker.close();
    worker = await startWorker(harness.config());
    const final = announcements()
      .slice(before)
      .filter((m) => m.content.includes(`<@${nia}>`));
    expect(final.map((m) => m.content)).toEqual(
      [1, 2, 3, 4, 5].map((level) => `🎉 <@${nia}> reached **level ${level}**!`),
    );
    expect(mine[0]?.author.id).toBe(SANDBOX_IDS.bot);
    const [day] = await harness.database.db.select().from(memberDailyXp).where(eq(memberDailyXp.userId, nia));
    expect(day).toMatchObject({ xp: 1150, messages: 230, levelUps: 5 });
  });

  it('grants every reward role up to the new level on a level-up (rewards stack)', async () => {
    await store.settings(STATION, {
      enabled: true,
      xpMin: 100,
      xpMax: 100,
      messageCooldownSec: 0,
      xpMultiplier: 1,
    });
    const created = await Promise.all(
      ['Rookie', 'Regular', 'Veteran'].map((name) =>
        sandbox.botRest<APIRole>('POST', `/guilds/${STATION}/roles`, { name }),
      ),
    );
    const [rookie, regular, veteran] = created.map((role) => role.id);
    await harness.database.db.insert(levelingRoles).values([
      { guildId: STATION, roleName: 'Rookie', levelRequired: 1, roleId: rookie },
      { guildId: STATION, roleName: 'Regular', levelRequired: 2, roleId: regular },
      { guildId: STATION, roleName: 'Veteran', levelRequired: 9, roleId: veteran },
    ]);
    // 300 XP: straight from level 0 to level 2.
    await post(STATION, general, mo, 3);
    await xpReaches(mo, 300);
    const held = await waitFor('mo to get the level 1 and 2 rewards', () => {
      const roles = memberRoles(harness.sandbox, STATION, mo);
      return roles.includes(rookie ?? '') && roles.includes(regular ?? '') ? roles : undefined;
    });
    expect(held).not.toContain(veteran);
  });

  it('counts a message once per cooldown', async () => {
    await store.settings(STATION, {
      enabled: true,
      xpMin: 10,
      xpMax: 10,
      messageCooldownSec: 30,
      xpMultiplier: 1,
    });
    await post(STATION, general, mo, 4);
    // A later message, counted: the worker handles messages in order, each award one Redis call
    // in order on one connection, so mo's four were counted (or refused) and flushed by then.
    await post(STATION, general, ada);
    await xpReaches(ada, 10);
    const row = await xpReaches(mo, 10);
    expect(row.messageCount).toBe(1);
  });

  it('rounds XP per message × multiplier × the largest active boost that applies, ignoring expired ones', async () => {
    await store.settings(STATION, {
      enabled: true,
      xpMin: 10,
      xpMax: 10,
      messageCooldownSec: 0,
      xpMultiplier: 1.25,
    });
    const day = 86_400_000;
    await harness.database.db.insert(levelingBoosts).values([
      { guildId: STATION, multiplier: 1.5, userId: null },
      { guildId: STATION, multiplier: 3, userId: ada, expiresAt: new Date(Date.now() - day) },
      { guildId: STATION, multiplier: 1.2, userId: ada, expiresAt: new Date(Date.now() + day) },
      { guildId: STATION, multiplier: 2, userId: roleBoostUserId(crew) },
      {
        guildId: STATION,
        multiplier: 5,
        userId: roleBoostUserId(crew),
        expiresAt: new Date(Date.now() - 1000),
      },
    ]);
    await store.heard();
    await post(STATION, general, ada);
    await post(STATION, general, mo);
    // ada: server-wide 1.5 beats her own 1.2 (her 3 expired): 10 × 1.25 × 1.5 = 18.75 → 19.
    await xpReaches(ada, 19);
    // mo holds Crew: its 2 wins (its 5 expired): 10 × 1.25 × 2 = 25.
    await xpReaches(mo, 25);
  });

  it('earns nothing while leveling is disabled, nor for bots', async () => {
    await store.settings(STATION, { enabled: false, xpMin: 10, xpMax: 10, messageCooldownSec: 0 });
    await post(STATION, general, nia, 3);
    await store.settings(STATION, { enabled: true });
    await post(STATION, general, SANDBOX_IDS.bot, 2);
    await post(STATION, general, ada);
    // ada's message after enabling shows the flush ran past the others.
    await xpReaches(ada, 10);
    expect(await store.member(STATION, nia)).toBeUndefined();
    expect(await store.member(STATION, SANDBOX_IDS.bot)).toBeUndefined();
  });

  it('keeps the daily overview scheduler in step with the settings: a channel adds it, Reset Config removes it', async () => {
    const jobs = jobQueue(harness);
    const scheduler = jobSchedulerIdFor('leveling.daily-overview', STATION);
    const hasScheduler = async () =>
      (await jobs.queue.getJobSchedulers(0, -1)).some((found) => found.key === scheduler);
    try {
      await store.settings(STATION, {
        enabled: true,
        dailyOverviewChannel: SANDBOX_IDS.channels.announcements,
      });
      await waitFor('the daily overview scheduler', hasScheduler);
      const [found] = (await jobs.queue.getJobSchedulers(0, -1)).filter((s) => s.key === scheduler);
      expect(found?.pattern).toBe('0 0 * * *');
      // Reset Config deletes the settings row, as the API does.
      await harness.database.db.delete(levelingSettings).where(eq(levelingSettings.guildId, STATION));
      await waitFor('the scheduler to go', async () => !(await hasScheduler()));
    } finally {
      await jobs.close();
    }
  });

  // How soon (within a second: XP_FLUSH_INTERVAL_MS) is `pnpm bench xp`'s latency, p99 <= 1.5 s.
  it('keeps XP buffered in Redis out of Postgres only until the next flush', async () => {
    await store.settings(STATION, { enabled: true, xpMin: 10, xpMax: 10, messageCooldownSec: 0 });
    const redis = new Redis(harness.redis.url);
    try {
      await post(STATION, general, nia);
      await xpReaches(nia, 10);
      expect(await redis.exists(storedKey(harness, xpPendingKey(STATION)))).toBe(0);
    } finally {
      redis.disconnect();
    }
  });
});

describe('several worker processes counting XP at once', () => {
  let harness: Harness;
  let workers: RunningWorker[] = [];
  let store: ReturnType<typeof leveling>;
  let sandbox: ReturnType<typeof control>;

  beforeAll(async () => {
    harness = await startHarness(fixtureWithFarOrbit());
    sandbox = control(harness.sandbox);
    store = leveling(harness);
  });
  afterEach(async () => {
    await Promise.all(workers.map((worker) => worker.close()));
    workers = [];
    await store.clear();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('two shards flushing each other’s guilds lose nothing and count nothing twice', async () => {
    workers = await Promise.all([
      startWorker(harness.config({ SHARD_IDS: '0', SHARD_COUNT: '2' })),
      startWorker(harness.config({ SHARD_IDS: '1', SHARD_COUNT: '2' })),
    ]);
    await store.settings(STATION, { enabled: true, xpMin: 7, xpMax: 7, messageCooldownSec: 0 });
    await store.settings(FAR_ORBIT.guild, { enabled: true, xpMin: 3, xpMax: 3, messageCooldownSec: 0 });
    const rounds = 40;
    const posters = [
      [STATION, general, ada],
      [STATION, general, nia],
      [FAR_ORBIT.guild, FAR_ORBIT.channel, rex],
      [FAR_ORBIT.guild, FAR_ORBIT.channel, mo],
    ] as const;
    await Promise.all(
      posters.map(async ([guild, channel, user]) => {
        for (let i = 0; i < rounds; i++) {
          await sandbox.postMessage({
            guild_id: guild,
            channel_id: channel,
            author_id: user,
            content: `m${i}`,
          });
        }
      }),
    );
    for (const [guild, , user] of posters) {
      const xp = (guild === STATION ? 7 : 3) * rounds;
      const row = await waitFor(`${user} in ${guild} to have ${xp} XP`, async () => {
        const found = await store.member(guild, user);
        return found?.xp === xp ? found : undefined;
      });
      expect(row.messageCount).toBe(rounds);
    }
  });

  it('two processes given the same shard: one runs it and counts each message once; the other takes it over when the first stops', async () => {
    // No cooldown: were both connected, each message would count twice.
    await store.settings(STATION, { enabled: true, xpMin: 10, xpMax: 10, messageCooldownSec: 0 });
    const first = await startWorker(harness.config());
    const second = await startWorker(harness.config());
    workers = [first, second];
    for (const user of [ada, mo, nia]) {
      await sandbox.postMessage({
        guild_id: STATION,
        channel_id: general,
        author_id: user,
        content: 'hello',
      });
    }
    for (const user of [ada, mo, nia]) {
      await waitFor(`${user} to have XP`, async () => (await store.member(STATION, user))?.xp === 10);
    }
    // Stopped, the first has written what it counted and freed the shard.
    await first.close();
    await second.gateway;
    await sandbox.postMessage({ guild_id: STATION, channel_id: general, author_id: ada, content: 'again' });
    await waitFor(
      'the second process to count ada',
      async () => (await store.member(STATION, ada))?.xp === 20,
    );
    await second.close();
    expect(await store.member(STATION, ada)).toMatchObject({ xp: 20, messageCount: 2 });
    for (const user of [mo, nia]) {
      expect(await store.member(STATION, user)).toMatchObject({ xp: 10, messageCount: 1 });
    }
  });

  it('a stopping worker (SIGTERM) flushes what it buffered', async () => {
    const worker = await startWorker(harness.config());
    workers = [worker];
    await store.settings(STATION, { enabled: true, xpMin: 10, xpMax: 10, messageCooldownSec: 0 });
    const redis = new Redis(harness.redis.url);
    try {
      const pending = storedKey(harness, xpPendingKey(STATION));
      const messages = 25;
      for (let i = 0; i < messages; i++) {
        await sandbox.postMessage({
          guild_id: STATION,
          channel_id: general,
          author_id: ada,
          content: `m${i}`,
        });
      }
      // Every message reached the worker: counted in Postgres or still buffered in Redis.
      await waitFor('the worker to count every message', async () => {
        const stored = (await store.member(STATION, ada))?.messageCount ?? 0;
        const buffered = Number((await redis.hget(pending, `${ada}:m`)) ?? 0);
        return stored + buffered === messages;
      });
      await worker.close();
      workers = [];
      expect(await store.member(STATION, ada)).toMatchObject({ xp: 10 * messages, messageCount: messages });
      expect(await redis.exists(pending)).toBe(0);
    } finally {
      redis.disconnect();
    }
  });

  it('a worker killed (SIGKILL) while writing a batch loses nothing: another process writes it, once', async () => {
    await store.settings(STATION, { enabled: true, xpMin: 10, xpMax: 10, messageCooldownSec: 0 });
    const redis = new Redis(harness.redis.url);
    // Holds member_xp so the child's first write waits mid-transaction, its batch taken out of Redis.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holding = harness.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`lock table member_xp in share row exclusive mode`);
        locked();
        await released;
        tx.rollback();
      })
      .catch(() => {});
    let child: ChildWorker | undefined;
    try {
      await isLocked;
      child = await startChildWorker(harness);
      let posted = 0;
      const post = async () => {
        await sandbox.postMessage({
          guild_id: STATION,
          channel_id: general,
          author_id: mo,
          content: `m${posted}`,
        });
        posted += 1;
      };
      // Until the child has taken a batch (and is stuck writing it).
      await waitFor(
        'the child to take a batch',
        async () => {
          await post();
          return (await redis.zcard(storedKey(harness, xpBatchesKey(xpSlotGroup(STATION))))) > 0;
        },
        30_000,
      );
      for (let i = 0; i < 12; i++) await post();
      const pending = storedKey(harness, xpPendingKey(STATION));
      // Everything posted is counted in Redis: the taken batch plus what came after it.
      const counted = async () => {
        const [batchId] = await redis.zrange(
          storedKey(harness, xpBatchesKey(xpSlotGroup(STATION))),
          '0',
          '0',
        );
        const inBatch = Number(
          (await redis.hget(storedKey(harness, xpBatchKey(batchId ?? '')), `${mo}:m`)) ?? 0,
        );
        return inBatch + Number((await redis.hget(pending, `${mo}:m`)) ?? 0);
      };
      await waitFor('every message counted', async () => {
        const n = await counted();
        if (n !== posted) throw new Error(`counted ${n} of ${posted}`);
        return true;
      });
      const total = posted;
      await child.stop('SIGKILL');
      release();
      await holding;
      const survivor = await startWorker(harness.config());
      workers = [survivor];
      const row = await waitFor(
        'the survivor to write the dead worker’s batch',
        async () => {
          const found = await store.member(STATION, mo);
          return found?.messageCount === total ? found : undefined;
        },
        30_000,
      );
      expect(row.xp).toBe(10 * total);
      // Stopped, the survivor has written everything it took: a second write would show now.
      await survivor.close();
      expect((await store.member(STATION, mo))?.messageCount).toBe(total);
      expect(await redis.zcard(storedKey(harness, xpBatchesKey(xpSlotGroup(STATION))))).toBe(0);
    } finally {
      await child?.stop();
      release();
      await holding;
      redis.disconnect();
    }
  });
});
