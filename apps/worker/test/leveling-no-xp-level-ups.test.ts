import { xpCooldownKey } from '@spacecadet/contract';
import { channelBoostUserId } from '@spacecadet/core';
import { LEVELING_SETUP_CHANNEL } from '@spacecadet/db/queries/leveling';
import {
  levelingBoosts,
  levelingRoles,
  levelingSettings,
  memberDailyXp,
  memberXp,
  pendingLevelUps,
} from '@spacecadet/db/schema';
import { setUserAcceptsDms } from '@spacecadet/discord-sandbox/testing';
import type { APIRole } from 'discord.js';
import { and, eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NO_PREVIOUS_DAY } from '../src/features/leveling/overview.ts';
import { levelingSetups } from '../src/features/leveling/setup.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  guildState,
  type Harness,
  jobQueue,
  memberRoles,
  SANDBOX_IDS,
  STATION,
  setupChangesHeard,
  startHarness,
  storedKey,
  waitFor,
} from './helpers.ts';

const { ada, mo, nia } = SANDBOX_IDS.users;
const { general, levelUps, announcements, roles: rolesChannel } = SANDBOX_IDS.channels;
const crew = SANDBOX_IDS.roles.stationCrew;
const TEMPLATE = '{user} ({username}) reached {level} in {server}: {rewards} {unknown}';

type Settings = Partial<typeof levelingSettings.$inferInsert>;

describe('no-XP channels and roles, channel boosts, level-up destinations, the overview', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let sandbox: ReturnType<typeof control>;
  const logs: Array<{ msg?: string; userId?: string }> = [];

  const settings = async (values: Settings) => {
    await harness.database.db
      .insert(levelingSettings)
      .values({ guildId: STATION, ...values })
      .onConflictDoUpdate({ target: levelingSettings.guildId, set: values });
    await setupChangesHeard(harness, levelingSetups, LEVELING_SETUP_CHANNEL);
  };
  const post = (channelId: string, userId: string, content = 'hello') =>
    sandbox.postMessage({ guild_id: STATION, channel_id: channelId, author_id: userId, content });
  const member = async (userId: string) => {
    const [row] = await harness.database.db
      .select()
      .from(memberXp)
      .where(and(eq(memberXp.guildId, STATION), eq(memberXp.userId, userId)));
    return row;
  };
  const xpReaches = (userId: string, xp: number) =>
    waitFor(`${userId} to have ${xp} XP`, async () => {
      const row = await member(userId);
      if (row?.xp !== xp) throw new Error(`has ${row?.xp ?? 'no'} XP`);
      return row;
    });
  const day = async (userId: string) => {
    const [row] = await harness.database.db
      .select()
      .from(memberDailyXp)
      .where(eq(memberDailyXp.userId, userId));
    return row;
  };
  const botMessages = (channelId: string) =>
    (guildState(harness.sandbox, STATION).channels.find((c) => c.id === channelId)?.messages ?? []).filter(
      (m) => m.author.id === SANDBOX_IDS.bot,
    );
  const dms = () => harness.sandbox.state().dm_channels;
  const cooling = async (userId: string) => {
    const redis = new Redis(harness.redis.url);
    try {
      return (await redis.exists(storedKey(harness, xpCooldownKey(STATION, userId)))) === 1;
    } finally {
      redis.disconnect();
    }
  };

  beforeAll(async () => {
    harness = await startHarness();
    sandbox = control(harness.sandbox);
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => logs.push(JSON.parse(line) as { msg?: string; userId?: string }) },
    );
    worker = await startWorker(harness.config(), { logger });
  });
  afterAll(async () => {
    await worker?.close();
    await harness?.close();
  });
  beforeEach(async () => {
    const redis = new Redis(harness.redis.url);
    try {
      const keys = await redis.keys(storedKey(harness, xpCooldownKey('*', '*')));
      if (keys.length > 0) await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
    const db = harness.database.db;
    await db.delete(memberXp);
    await db.delete(memberDailyXp);
    await db.delete(pendingLevelUps);
    await db.delete(levelingBoosts);
    await db.delete(levelingRoles);
    await db.delete(levelingSettings);
    await setUserAcceptsDms(harness.sandbox.url, nia, true);
  });

  it('a message in a no-XP channel earns nothing and starts no cooldown, yet counts for the day', async () => {
    await settings({
      enabled: true,
      xpMin: 10,
      xpMax: 10,
      messageCooldownSec: 600,
      noXpChannels: [rolesChannel],
    });
    await post(rolesChannel, nia);
    await post(rolesChannel, nia);
    expect(await cooling(nia)).toBe(false);
    // Right after, in an XP channel: no cooldown was started, so it earns.
    await post(general, nia);
    await xpReaches(nia, 10);
    expect(await cooling(nia)).toBe(true);
    await post(general, nia); // in cooldown now: counted for the day, no XP
    await post(general, ada);
    await xpReaches(ada, 10);
    expect(await day(nia)).toMatchObject({ xp: 10, messages: 4 });
    expect((await member(nia))?.messageCount).toBe(1);
  });

  it('a member holding a no-XP role earns nothing and starts no cooldown; without the role they earn at once', async () => {
    // mo holds Crew in the fixture; ada does not.
    expect(memberRoles(harness.sandbox, STATION, mo)).toContain(crew);
    await settings({ enabled: true, xpMin: 10, xpMax: 10, messageCooldownSec: 600, noXpRoles: [crew] });
    await post(general, mo);
    await post(general, mo);
    await post(general, ada);
    await xpReaches(ada, 10);
    await waitFor('mo counted for the day', async () => ((await day(mo))?.messages === 2 ? true : undefined));
    expect(await member(mo)).toBeUndefined();
    expect(await day(mo)).toMatchObject({ xp: 0, messages: 2 });
    expect(await cooling(mo)).toBe(false);
    await settings({ noXpRoles: [] });
    await post(general, mo);
    await xpReaches(mo, 10);
  });

  it('a channel boost multiplies what messages earn in that channel only', async () => {
    await settings({ enabled: true, xpMin: 10, xpMax: 10, messageCooldownSec: 0 });
    await harness.database.db.insert(levelingBoosts).values([
      { guildId: STATION, multiplier: 3, userId: channelBoostUserId(general) },
      { guildId: STATION, multiplier: 2, userId: null },
    ]);
    await setupChangesHeard(harness, levelingSetups, LEVELING_SETUP_CHANNEL);
    await post(general, ada); // 10 × 2 × 3
    await xpReaches(ada, 60);
    await post(announcements, ada); // 10 × 2
    await xpReaches(ada, 80);
  });

  describe('level-up messages', () => {
    let rookie: string;
    const levelUp = async (values: Settings, channelId: string = general) => {
      const role = await sandbox.botRest<APIRole>('POST', `/guilds/${STATION}/roles`, { name: 'Rookie' });
      rookie = role.id;
      await harness.database.db
        .insert(levelingRoles)
        .values({ guildId: STATION, roleName: 'Rookie', levelRequired: 1, roleId: rookie });
      await settings({
        enabled: true,
        xpMin: 100,
        xpMax: 100,
        messageCooldownSec: 0,
        levelUpMessage: TEMPLATE,
        announcementChannel: levelUps,
        ...values,
      });
      await post(channelId, nia);
      await waitFor('nia to get the level 1 reward', () =>
        memberRoles(harness.sandbox, STATION, nia).includes(rookie) ? true : undefined,
      );
      await waitFor('the level-up to be done', async () =>
        (await harness.database.db.select().from(pendingLevelUps)).length === 0 ? true : undefined,
      );
    };
    const expected = () => `<@${nia}> (Nia) reached 1 in Sandbox Station: Rookie {unknown}`;

    it('off: nothing is posted, the reward is still given', async () => {
      const before = [general, levelUps].map((c) => botMessages(c).length);
      await levelUp({ levelUpDestination: 'off' });
      expect([general, levelUps].map((c) => botMessages(c).length)).toEqual(before);
      expect(dms().flatMap((dm) => dm.messages)).toEqual([]);
    });

    it('channel: the admin template in the announcement channel, pinging only the member', async () => {
      const before = botMessages(levelUps).length;
      await levelUp({ levelUpDestination: 'channel' });
      const posted = botMessages(levelUps).slice(before);
      expect(posted.map((m) => m.content)).toEqual([expected()]);
      expect(posted[0]?.mentions.map((u) => u.id)).toEqual([nia]);
    });

    it('current: in the channel of the message that crossed the level', async () => {
      const before = [announcements, levelUps].map((c) => botMessages(c).length);
      await levelUp({ levelUpDestination: 'current' }, announcements);
      expect(
        botMessages(announcements)
          .slice(before[0])
          .map((m) => m.content),
      ).toEqual([expected()]);
      expect(botMessages(levelUps)).toHaveLength(before[1] ?? 0);
      const [pending] = await harness.database.db.select().from(pendingLevelUps);
      expect(pending).toBeUndefined();
    });

    it('dm: in a DM with the member', async () => {
      const before = dms().find((dm) => dm.recipient_id === nia)?.messages.length ?? 0;
      await levelUp({ levelUpDestination: 'dm' });
      const dm = dms().find((d) => d.recipient_id === nia);
      expect(dm?.messages.slice(before).map((m) => m.content)).toEqual([expected()]);
    });

    it('dm refused (50007): logged and skipped, the reward still given, nothing posted elsewhere', async () => {
      await setUserAcceptsDms(harness.sandbox.url, nia, false);
      const before = dms().find((dm) => dm.recipient_id === nia)?.messages.length ?? 0;
      const channels = [general, levelUps].map((c) => botMessages(c).length);
      await levelUp({ levelUpDestination: 'dm' });
      expect(dms().find((dm) => dm.recipient_id === nia)?.messages.length ?? 0).toBe(before);
      expect([general, levelUps].map((c) => botMessages(c).length)).toEqual(channels);
      const refused = harness.sandbox.world.requests.filter(
        (r) => r.method === 'POST' && r.status === 403 && r.path.startsWith('/channels/'),
      );
      expect(refused.length).toBeGreaterThan(0);
      expect(logs.some((l) => l.userId === nia && l.msg?.includes('50007'))).toBe(true);
    });
  });

  describe('several levels crossed by one message', () => {
    it.each([
      ['stack', 'Rookie, Cadet'],
      ['highest', 'Cadet'],
    ] as const)('%s: {rewards} names the rewards given, %s', async (mode, named) => {
      const rewards: string[] = [];
      for (const [name, level] of [
        ['Rookie', 1],
        ['Cadet', 2],
      ] as const) {
        const role = await sandbox.botRest<APIRole>('POST', `/guilds/${STATION}/roles`, { name });
        rewards.push(role.id);
        await harness.database.db
          .insert(levelingRoles)
          .values({ guildId: STATION, roleName: name, levelRequired: level, roleId: role.id });
      }
      // 300 XP: from level 0 to level 2 at once.
      await settings({
        enabled: true,
        xpMin: 300,
        xpMax: 300,
        messageCooldownSec: 0,
        levelUpMessage: '{level}: {rewards}',
        announcementChannel: levelUps,
        levelUpDestination: 'channel',
        rewardMode: mode,
      });
      const before = botMessages(levelUps).length;
      await post(general, nia);
      await waitFor('the level-up to be done', async () =>
        botMessages(levelUps).length > before &&
        (await harness.database.db.select().from(pendingLevelUps)).length === 0
          ? true
          : undefined,
      );
      expect(
        botMessages(levelUps)
          .slice(before)
          .map((m) => m.content),
      ).toEqual([`2: ${named}`]);
      const held = memberRoles(harness.sandbox, STATION, nia);
      expect(rewards.filter((id) => held.includes(id))).toEqual(
        mode === 'stack' ? rewards : rewards.slice(1),
      );
    });
  });

  describe('a delivery retried after its deliverer died having posted', () => {
    it.each(['current', 'dm'] as const)(
      '%s: finds its message and does not post it again',
      async (destination) => {
        const role = await sandbox.botRest<APIRole>('POST', `/guilds/${STATION}/roles`, { name: 'Rookie' });
        await harness.database.db
          .insert(levelingRoles)
          .values({ guildId: STATION, roleName: 'Rookie', levelRequired: 1, roleId: role.id });
        await settings({ enabled: true, levelUpMessage: TEMPLATE, levelUpDestination: destination });
        const content = `<@${nia}> (Nia) reached 1 in Sandbox Station: Rookie {unknown}`;
        const channelId =
          destination === 'current'
            ? announcements
            : (await sandbox.botRest<{ id: string }>('POST', '/users/@me/channels', { recipient_id: nia }))
                .id;
        await sandbox.botRest('POST', `/channels/${channelId}/messages`, { content });
        const posted = () =>
          destination === 'current'
            ? botMessages(announcements).filter((m) => m.content === content).length
            : (dms().find((dm) => dm.id === channelId)?.messages ?? []).filter((m) => m.content === content)
                .length;
        const before = posted();
        const db = harness.database.db;
        await db
          .insert(memberXp)
          .values({ guildId: STATION, userId: nia, xp: 100, level: 1, username: 'Nia' });
        await db.insert(pendingLevelUps).values({
          guildId: STATION,
          userId: nia,
          level: 1,
          channelId: announcements,
          announcing: true,
          claimedUntil: new Date(Date.now() - 1000),
        });
        await waitFor('the level-up to be done', async () =>
          (await db.select().from(pendingLevelUps)).length === 0 ? true : undefined,
        );
        expect(posted()).toBe(before);
        expect(memberRoles(harness.sandbox, STATION, nia)).toContain(role.id);
      },
    );
  });

  describe('the daily overview', () => {
    it('Resend Overview on the first day says there is no previous day and posts nothing', async () => {
      await settings({
        enabled: true,
        xpMin: 10,
        xpMax: 10,
        messageCooldownSec: 0,
        dailyOverviewChannel: levelUps,
      });
      await post(general, ada);
      await xpReaches(ada, 10);
      const before = botMessages(levelUps).length;
      const jobs = jobQueue(harness);
      try {
        const job = await jobs.add('leveling.resend-overview');
        const outcome = await jobs.finished(String(job.id));
        expect(outcome.state).toBe('completed');
        expect(outcome.result).toEqual({ ok: true, summary: NO_PREVIOUS_DAY });
      } finally {
        await jobs.close();
      }
      expect(botMessages(levelUps)).toHaveLength(before);
    });

    it('counts every member message of the day, listing only members who earned XP', async () => {
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      await settings({
        enabled: true,
        xpMin: 10,
        xpMax: 10,
        messageCooldownSec: 600,
        dailyOverviewChannel: levelUps,
        noXpRoles: [crew],
      });
      // Today's messages are written as the worker writes them; then moved to yesterday. mo and
      // nia hold Crew (no XP); ada's second message is in cooldown.
      await post(general, ada);
      await post(general, ada);
      await post(general, mo);
      await post(general, nia);
      await xpReaches(ada, 10);
      await waitFor('every message counted', async () => {
        const rows = await harness.database.db.select().from(memberDailyXp);
        return rows.reduce((sum, r) => sum + r.messages, 0) === 4 ? true : undefined;
      });
      await harness.database.db.update(memberDailyXp).set({ day: yesterday });
      const before = botMessages(levelUps).length;
      const jobs = jobQueue(harness);
      try {
        const job = await jobs.add('leveling.resend-overview');
        expect((await jobs.finished(String(job.id))).state).toBe('completed');
      } finally {
        await jobs.close();
      }
      const [overview] = botMessages(levelUps).slice(before);
      const lines = overview?.content.split('\n') ?? [];
      expect(lines[1]).toBe('💬 4 messages from 3 members · ✨ 10 XP · ⬆️ 0 level-ups');
      const ranked = lines.filter((line) => /^\d+\. /.test(line));
      expect(ranked).toEqual([`1. <@${ada}>: +10 XP (level 0)`]);
    });
  });
});
