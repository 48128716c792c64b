import { jobSchedulerIdFor, levelingOverviewPostedKey, rolesCreatingKey } from '@spacecadet/contract';
import {
  dailyOverviewHeading,
  LEVELING_DISABLED_MESSAGE,
  previousUtcDay,
  roleBoostUserId,
  SLASH_COMMANDS,
  totalXpForLevel,
  utcDay,
} from '@spacecadet/core';
import { createOwnMenu } from '@spacecadet/db/queries/role-menus';
import {
  levelingBoosts,
  levelingRoles,
  levelingSettings,
  memberDailyXp,
  memberXp,
  roleMenus,
} from '@spacecadet/db/schema';
import { PermissionFlagsBits } from 'discord.js';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerDeps } from '../src/deps.ts';
import { grantLevelRewards } from '../src/features/leveling/rewards.ts';
import { MANAGE_ROLES_WARNING } from '../src/features/leveling/sync-roles.ts';
import { roleAboveBotWarning } from '../src/roles/guild-roles.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  type ClickResult,
  control,
  guildState,
  type Harness,
  jobQueue,
  memberRoles,
  SANDBOX_IDS,
  STATION,
  startHarness,
  storedKey,
  waitFor,
} from './helpers.ts';

const { ada, mo, nia, rex } = SANDBOX_IDS.users;
const overviewChannel = SANDBOX_IDS.channels.levelUps;
const IMAGE_PERMISSIONS = (PermissionFlagsBits.AttachFiles | PermissionFlagsBits.EmbedLinks).toString();

interface RecordedRequest {
  seq: number;
  method: string;
  path: string;
}

interface JobOutcome {
  state: string;
  result: unknown;
  error: string | undefined;
}

interface Summary {
  ok: boolean;
  summary: string;
  created?: number;
  deleted?: number;
  warnings?: string[];
}

describe('leveling jobs and commands', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;
  let redis: Redis;

  const db = () => harness.database.db;
  const run = async (name: Parameters<typeof jobs.add>[0]): Promise<JobOutcome> =>
    jobs.finished((await jobs.add(name)).id ?? '');
  const result = (outcome: JobOutcome) => {
    expect(outcome.error ?? '').toBe('');
    expect(outcome.state).toBe('completed');
    return outcome.result as Summary;
  };
  const roles = () => guildState(harness.sandbox, STATION).roles;
  const roleNamed = (name: string) => roles().filter((role) => role.name === name);
  const messagesIn = (channelId: string) =>
    guildState(harness.sandbox, STATION).channels.find((c) => c.id === channelId)?.messages ?? [];
  const requests = async (): Promise<RecordedRequest[]> =>
    (await fetch(`${harness.sandbox.url}/_sandbox/requests`)).json() as Promise<RecordedRequest[]>;
  const lastSeq = async () => (await requests()).at(-1)?.seq ?? 0;
  const writesSince = async (since: number) =>
    (await requests()).filter((request) => request.seq > since && request.method !== 'GET');

  const setSettings = (values: Partial<typeof levelingSettings.$inferInsert> = {}) =>
    db()
      .insert(levelingSettings)
      .values({ guildId: STATION, enabled: true, ...values })
      .onConflictDoUpdate({ target: levelingSettings.guildId, set: { enabled: true, ...values } });
  const addReward = async (roleName: string, levelRequired: number, isImageRole = false) => {
    const [row] = await db()
      .insert(levelingRoles)
      .values({ guildId: STATION, roleName, levelRequired, isImageRole })
      .returning();
    if (!row) throw new Error('no row');
    return row;
  };
  const storedRoleId = async (id: number) =>
    (await db().select().from(levelingRoles).where(eq(levelingRoles.id, id)))[0]?.roleId ?? null;
  const giveXp = (userId: string, level: number, extra: Partial<typeof memberXp.$inferInsert> = {}) =>
    db()
      .insert(memberXp)
      .values({ guildId: STATION, userId, level, xp: totalXpForLevel(level), ...extra });
  const command = async (
    name: string,
    userId: string,
    options?: Record<string, string>,
  ): Promise<ClickResult & { response: { data?: { allowed_mentions?: unknown } } | null }> => {
    const response = await fetch(`${harness.sandbox.url}/_sandbox/commands`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        guild_id: STATION,
        channel_id: SANDBOX_IDS.channels.general,
        user_id: userId,
        name,
        ...(options ? { options } : {}),
      }),
    });
    expect(response.status).toBe(200);
    return response.json() as never;
  };

  beforeAll(async () => {
    harness = await startHarness();
    worker = await startWorker(harness.config());
    jobs = jobQueue(harness);
    redis = new Redis(harness.redis.url);
  });
  afterEach(async () => {
    const created = (await db().select().from(levelingRoles)).flatMap((row) => row.roleId ?? []);
    for (const roleId of created) {
      await fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/roles/${roleId}`, { method: 'DELETE' });
    }
    await db().delete(levelingRoles);
    await db().delete(memberXp);
    await db().delete(memberDailyXp);
    await db().delete(levelingSettings);
    await redis.del(storedKey(harness, levelingOverviewPostedKey(STATION)));
    await redis.del(storedKey(harness, rolesCreatingKey('leveling', STATION)));
  });
  afterAll(async () => {
    redis?.disconnect();
    await jobs?.close();
    await worker?.close();
    await harness.close();
  });

  describe('sync roles', () => {
    it('creates every pending role, gives image roles their permissions, grants stacked rewards by level; a second run changes nothing', async () => {
      const bronze = await addReward('Bronze Cadet', 1);
      const silver = await addReward('Silver Cadet', 5, true);
      const gold = await addReward('Gold Cadet', 10);
      await giveXp(ada, 12);
      await giveXp(mo, 5);
      await giveXp(nia, 0);

      const first = result(await run('leveling.sync-roles'));
      expect(first.created).toBe(3);
      expect(first.summary).toMatch(/3 roles created/);
      expect(first.summary).toMatch(/5 rewards given to 2 members/);
      expect(first.warnings).toBeUndefined();

      const ids = await Promise.all([bronze, silver, gold].map((row) => storedRoleId(row.id)));
      const [bronzeId, silverId, goldId] = ids;
      for (const [index, name] of ['Bronze Cadet', 'Silver Cadet', 'Gold Cadet'].entries()) {
        const found = roleNamed(name);
        expect(found).toHaveLength(1);
        expect(found[0]?.id).toBe(ids[index]);
      }
      expect(roleNamed('Silver Cadet')[0]?.permissions).toBe(IMAGE_PERMISSIONS);
      expect(roleNamed('Bronze Cadet')[0]?.permissions).toBe('0');
      expect(roleNamed('Gold Cadet')[0]?.permissions).toBe('0');
      expect(memberRoles(harness.sandbox, STATION, ada)).toEqual(
        expect.arrayContaining([bronzeId, silverId, goldId]),
      );
      expect(memberRoles(harness.sandbox, STATION, mo)).toEqual(expect.arrayContaining([bronzeId, silverId]));
      expect(memberRoles(harness.sandbox, STATION, mo)).not.toContain(goldId);
      expect(memberRoles(harness.sandbox, STATION, nia)).not.toEqual(
        expect.arrayContaining([expect.stringMatching(new RegExp(`^(${ids.join('|')})$`))]),
      );

      const since = await lastSeq();
      const second = result(await run('leveling.sync-roles'));
      expect(second.created).toBe(0);
      expect(second.summary).toMatch(/0 roles created, 3 already present/);
      expect(second.summary).toMatch(/0 rewards given to 0 members/);
      expect(await writesSince(since)).toEqual([]);
      expect(roleNamed('Bronze Cadet')).toHaveLength(1);
    });

    it('renames a role whose name changed, recreates one deleted in Discord and gives it back', async () => {
      const bronze = await addReward('Bronze Cadet', 1);
      const gold = await addReward('Gold Cadet', 10, false);
      await giveXp(ada, 10);
      result(await run('leveling.sync-roles'));
      const bronzeId = await storedRoleId(bronze.id);
      const oldGoldId = await storedRoleId(gold.id);

      await db()
        .update(levelingRoles)
        .set({ roleName: 'Bronze Star' })
        .where(eq(levelingRoles.id, bronze.id));
      await db().update(levelingRoles).set({ isImageRole: true }).where(eq(levelingRoles.id, gold.id));
      await control(harness.sandbox).botRest('DELETE', `/guilds/${STATION}/roles/${oldGoldId}`);

      const outcome = result(await run('leveling.sync-roles'));
      expect(outcome.summary).toMatch(/1 role created, 1 already present, 1 renamed/);
      expect(await storedRoleId(bronze.id)).toBe(bronzeId);
      expect(roles().find((role) => role.id === bronzeId)?.name).toBe('Bronze Star');
      const newGoldId = await storedRoleId(gold.id);
      expect(newGoldId).not.toBe(oldGoldId);
      expect(roles().find((role) => role.id === newGoldId)?.permissions).toBe(IMAGE_PERMISSIONS);
      expect(memberRoles(harness.sandbox, STATION, ada)).toContain(newGoldId);
    });

    it('a reward role recreated after a delete takes its role menus, no-XP role and boost with it', async () => {
      const gold = await addReward('Gold Cadet', 10);
      result(await run('leveling.sync-roles'));
      const oldGoldId = await storedRoleId(gold.id);
      if (!oldGoldId) throw new Error('sync made no role');
      const menu = await createOwnMenu(
        db(),
        STATION,
        {
          title: 'Gold perks',
          description: '',
          color: null,
          channelId: SANDBOX_IDS.channels.roles,
          style: 'buttons',
          mode: 'normal',
          maxRoles: null,
          requiredRoleId: oldGoldId,
          options: [{ role_id: oldGoldId, label: 'Gold', emoji: '🥇' }],
        },
        ada,
        1_000,
      );
      await setSettings({ noXpRoles: [oldGoldId] });
      await db()
        .insert(levelingBoosts)
        .values({ guildId: STATION, userId: roleBoostUserId(oldGoldId), multiplier: 2 });
      try {
        await control(harness.sandbox).botRest('DELETE', `/guilds/${STATION}/roles/${oldGoldId}`);
        const outcome = result(await run('leveling.sync-roles'));
        const newGoldId = await storedRoleId(gold.id);
        expect(newGoldId).not.toBe(oldGoldId);
        const [row] = await db()
          .select()
          .from(roleMenus)
          .where(eq(roleMenus.id, menu?.id ?? ''));
        expect(row?.options.map((option) => option.role_id)).toEqual([newGoldId]);
        expect(row?.requiredRoleId).toBe(newGoldId);
        expect((await db().select().from(levelingSettings))[0]?.noXpRoles).toEqual([newGoldId]);
        expect((await db().select().from(levelingBoosts)).map((boost) => boost.userId)).toEqual([
          roleBoostUserId(newGoldId ?? ''),
        ]);
        expect(outcome.summary).toContain('Moved to the new roles: 1 role menu, 1 no-XP role, 1 role boost.');
      } finally {
        await db().delete(roleMenus);
        await db().delete(levelingBoosts);
        await jobs.followUpsDone();
      }
    });

    it('adopts the role a killed run created instead of making a second one', async () => {
      const bronze = await addReward('Bronze Cadet', 1);
      // A run that died after Discord created the role, before its id was stored.
      await redis.hset(
        storedKey(harness, rolesCreatingKey('leveling', STATION)),
        `reward:${bronze.id}`,
        JSON.stringify({ name: 'Bronze Cadet', color: 0 }),
      );
      const orphan = await control(harness.sandbox).botRest<{ id: string }>(
        'POST',
        `/guilds/${STATION}/roles`,
        {
          name: 'Bronze Cadet',
          color: 0,
          permissions: '0',
        },
      );
      const outcome = result(await run('leveling.sync-roles'));
      expect(outcome.created).toBe(1);
      expect(roleNamed('Bronze Cadet')).toHaveLength(1);
      expect(await storedRoleId(bronze.id)).toBe(orphan.id);
      expect(await redis.hlen(storedKey(harness, rolesCreatingKey('leveling', STATION)))).toBe(0);
    });

    it('warns about a reward role above the bot instead of failing', async () => {
      const mods = await addReward('Moderators', 1);
      await db()
        .update(levelingRoles)
        .set({ roleId: SANDBOX_IDS.roles.stationModerators })
        .where(eq(levelingRoles.id, mods.id));
      await giveXp(nia, 3);
      const outcome = result(await run('leveling.sync-roles'));
      expect(outcome.warnings).toEqual([roleAboveBotWarning('Moderators')]);
      expect(memberRoles(harness.sandbox, STATION, nia)).not.toContain(SANDBOX_IDS.roles.stationModerators);
      // Not ours to delete in afterEach.
      await db().update(levelingRoles).set({ roleId: null }).where(eq(levelingRoles.id, mods.id));
    });
  });

  describe('rewards on level-up', () => {
    it('grantLevelRewards adds the created rewards up to the level the member lacks, once', async () => {
      const bronze = await addReward('Bronze Cadet', 1);
      const silver = await addReward('Silver Cadet', 5, true);
      await addReward('Gold Cadet', 10);
      await addReward('Pending Cadet', 2);
      result(await run('leveling.sync-roles'));
      await db()
        .update(levelingRoles)
        .set({ roleId: null })
        .where(eq(levelingRoles.roleName, 'Pending Cadet'));
      const deps = {
        db: db(),
        client: worker.client,
        logger: pino({ level: 'silent' }),
      } as unknown as WorkerDeps;

      expect(await grantLevelRewards(deps, STATION, nia, 5)).toHaveLength(2);
      const held = memberRoles(harness.sandbox, STATION, nia);
      expect(held).toEqual(
        expect.arrayContaining([await storedRoleId(bronze.id), await storedRoleId(silver.id)]),
      );
      expect(
        roles()
          .filter((role) => held.includes(role.id))
          .map((role) => role.name),
      ).not.toContain('Gold Cadet');
      expect(await grantLevelRewards(deps, STATION, nia, 5)).toEqual([]);
      expect(await grantLevelRewards(deps, STATION, rex, 50)).toEqual([]); // not in the server
      for (const roleId of held) {
        if (roleId !== SANDBOX_IDS.roles.stationCrew)
          await control(harness.sandbox).botRest(
            'DELETE',
            `/guilds/${STATION}/members/${nia}/roles/${roleId}`,
          );
      }
    });

    it('sync warns when the bot lost Manage Roles, and fails only when it has roles to create', async () => {
      await addReward('Bronze Cadet', 1);
      result(await run('leveling.sync-roles'));
      const botRole = SANDBOX_IDS.roles.stationBot;
      const before = roles().find((role) => role.id === botRole)?.permissions ?? '0';
      const without = (BigInt(before) & ~PermissionFlagsBits.ManageRoles).toString();
      const setBotPermissions = (permissions: string) =>
        fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/roles/${botRole}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ permissions }),
        });
      await setBotPermissions(without);
      try {
        expect(result(await run('leveling.sync-roles')).warnings).toEqual([MANAGE_ROLES_WARNING]);
        await addReward('Silver Cadet', 5);
        const failed = await run('leveling.sync-roles');
        expect(failed.state).toBe('failed');
        expect(failed.error).toMatch(/Manage Roles/);
      } finally {
        await setBotPermissions(before);
      }
    });
  });

  describe('prune leavers', () => {
    it('deletes the XP of members who left (seen leaving or while offline), never of current members', async () => {
      const day = previousUtcDay(new Date());
      await giveXp(ada, 3);
      await giveXp(nia, 2, { leftAt: new Date(Date.now() - 60_000) }); // came back while the bot was offline
      await giveXp(rex, 4); // not in the server, never seen leaving
      await giveXp('200000000000000099', 1, { leftAt: new Date(Date.now() - 60_000) }); // seen leaving
      await giveXp(mo, 1);
      await db()
        .insert(memberDailyXp)
        .values([
          { guildId: STATION, userId: rex, day, xp: 40, messages: 4 },
          { guildId: STATION, userId: ada, day, xp: 30, messages: 3 },
        ]);
      // mo leaves now: the gateway handler marks them.
      await fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/members/${mo}`, { method: 'DELETE' });
      try {
        await waitFor('mo marked as left', async () => {
          const [row] = await db().select().from(memberXp).where(eq(memberXp.userId, mo));
          return row?.leftAt !== null && row?.leftAt !== undefined;
        });

        const outcome = result(await run('leveling.prune-leavers'));
        expect(outcome.deleted).toBe(3);
        expect(outcome.summary).toMatch(/Removed the XP of 3 members/);
        const left = await db().select().from(memberXp);
        expect(left.map((row) => row.userId).sort()).toEqual([ada, nia]);
        expect(left.find((row) => row.userId === nia)?.leftAt).toBeNull();
        const daily = await db().select().from(memberDailyXp);
        expect(daily.map((row) => row.userId)).toEqual([ada]);

        const again = result(await run('leveling.prune-leavers'));
        expect(again.deleted).toBe(0);
      } finally {
        await fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/members/${mo}`, { method: 'PUT' });
      }
    });
  });

  describe('daily overview', () => {
    const day = () => previousUtcDay(new Date());
    const seedDay = async () => {
      await giveXp(ada, 7, { username: 'ada' });
      await giveXp(mo, 3, { username: 'mo' });
      await giveXp(nia, 1, { username: 'nia' });
      await db()
        .insert(memberDailyXp)
        .values([
          { guildId: STATION, userId: ada, day: day(), xp: 120, messages: 12, levelUps: 1 },
          { guildId: STATION, userId: mo, day: day(), xp: 300, messages: 30, levelUps: 2 },
          { guildId: STATION, userId: nia, day: day(), xp: 15, messages: 2, levelUps: 0 },
          // Another day and another guild do not count.
          { guildId: STATION, userId: nia, day: '2020-01-01', xp: 9999, messages: 999, levelUps: 9 },
          { guildId: SANDBOX_IDS.guilds.orbit, userId: rex, day: day(), xp: 5000, messages: 5, levelUps: 5 },
        ]);
    };
    const overviews = () =>
      messagesIn(overviewChannel).filter((message) =>
        message.content.startsWith(dailyOverviewHeading(day())),
      );

    it('resend posts the previous UTC day: top earners by XP, message and level-up counts', async () => {
      await setSettings({ dailyOverviewChannel: overviewChannel });
      await seedDay();
      const before = overviews().length;
      const outcome = result(await run('leveling.resend-overview'));
      expect(outcome.summary).toMatch(/3 active members, 44 messages/);
      const posted = overviews();
      expect(posted).toHaveLength(before + 1);
      const lines = posted.at(-1)?.content.split('\n') ?? [];
      expect(lines[1]).toBe('💬 44 messages from 3 members · ✨ 435 XP · ⬆️ 3 level-ups');
      expect(lines.filter((line) => /^\d+\. /.test(line))).toEqual([
        `1. <@${mo}>: +300 XP (level 3)`,
        `2. <@${ada}>: +120 XP (level 7)`,
        `3. <@${nia}>: +15 XP (level 1)`,
      ]);
      // Resend always posts.
      result(await run('leveling.resend-overview'));
      expect(overviews()).toHaveLength(before + 2);
    });

    it('says there was no activity on a day without XP', async () => {
      await setSettings({ dailyOverviewChannel: overviewChannel });
      // An earlier day was recorded: the guild is past its first day, yesterday was quiet.
      await db()
        .insert(memberDailyXp)
        .values({ guildId: STATION, userId: nia, day: '2020-01-01', xp: 10, messages: 1, levelUps: 0 });
      result(await run('leveling.resend-overview'));
      expect(messagesIn(overviewChannel).at(-1)?.content).toBe(
        `${dailyOverviewHeading(day())}\nNo activity that day: nobody earned XP.`,
      );
    });

    it('the scheduled job posts a day once, however often it runs, and keeps the scheduler in step', async () => {
      await setSettings({ dailyOverviewChannel: overviewChannel });
      await seedDay();
      const before = overviews().length;
      expect(result(await run('leveling.daily-overview')).summary).toMatch(/^Posted the overview/);
      expect(result(await run('leveling.daily-overview')).summary).toMatch(/already posted/);
      expect(overviews()).toHaveLength(before + 1);
      // A run that died after posting, before recording it, finds its message.
      await redis.set(storedKey(harness, levelingOverviewPostedKey(STATION)), `posting:${day()}`);
      expect(result(await run('leveling.daily-overview')).summary).toMatch(/already posted/);
      expect(overviews()).toHaveLength(before + 1);

      const schedulerId = jobSchedulerIdFor('leveling.daily-overview', STATION);
      const scheduler = await jobs.queue.getJobScheduler(schedulerId);
      expect(scheduler?.pattern).toBe('0 0 * * *');
      // The channel cleared: the next leveling job removes the scheduler.
      await setSettings({ dailyOverviewChannel: null });
      result(await run('leveling.prune-leavers'));
      expect(await jobs.queue.getJobScheduler(schedulerId)).toBeUndefined();
      const outcome = result(await run('leveling.daily-overview'));
      expect(outcome.summary).toMatch(/nothing posted/);
    });

    it('names the permission the bot lacks in the overview channel', async () => {
      await setSettings({ dailyOverviewChannel: overviewChannel });
      await seedDay();
      const overwrite = `${harness.sandbox.url}/_sandbox/channels/${overviewChannel}/permissions/${SANDBOX_IDS.guilds.station}`;
      // @everyone denied Send Messages there: the bot's roles do not allow it back.
      await fetch(overwrite, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 0, allow: '0', deny: String(1n << 11n) }),
      });
      try {
        const outcome = await run('leveling.resend-overview');
        expect(outcome.state).toBe('failed');
        expect(outcome.error).toMatch(
          /^forbidden: Missing permission Send Messages in #[a-z-]+\. Allow it for the bot/,
        );
      } finally {
        await fetch(overwrite, { method: 'DELETE' });
      }
    });

    it('fails with a sentence for the admin when the stored channel is gone or foreign', async () => {
      await setSettings({ dailyOverviewChannel: '399999999999999999' });
      const missing = await run('leveling.resend-overview');
      expect(missing.state).toBe('failed');
      expect(missing.error).toMatch(/no longer exists/);
      await setSettings({ dailyOverviewChannel: SANDBOX_IDS.channels.orbitHangar });
      const foreign = await run('leveling.resend-overview');
      expect(foreign.state).toBe('failed');
      expect(foreign.error).toMatch(/not in this server/);
      await setSettings({ dailyOverviewChannel: null });
      const none = await run('leveling.resend-overview');
      expect(none.state).toBe('failed');
      expect(none.error).toMatch(/Pick a daily overview channel/);
    });
  });

  describe('/rank and /leaderboard', () => {
    it('are registered with /colors and /xp', async () => {
      const registered = await control(harness.sandbox).botRest<Array<{ name: string }>>(
        'GET',
        `/applications/${SANDBOX_IDS.app}/commands`,
      );
      expect(registered.map((c) => c.name).sort()).toEqual(
        SLASH_COMMANDS.map((command) => command.name).sort(),
      );
      expect(registered.map((c) => c.name)).toEqual(
        expect.arrayContaining(['colors', 'leaderboard', 'rank', 'xp']),
      );
    });

    it('/rank shows level, progress, total XP and rank, for oneself or a member, without pings', async () => {
      await setSettings();
      await giveXp(ada, 4, { xp: totalXpForLevel(4) + 25 });
      await giveXp(mo, 2);
      const own = await command('rank', mo);
      expect(own.responded).toBe(true);
      expect(own.response?.data?.content).toBe(
        `**Rank #2**: <@${mo}>\nLevel 2 · 0 / 220 XP to level 3 · ${totalXpForLevel(2)} XP in total`,
      );
      expect(own.response?.data?.allowed_mentions).toEqual({ parse: [] });
      const other = await command('rank', nia, { member: ada });
      expect(other.response?.data?.content).toBe(
        `**Rank #1**: <@${ada}>\nLevel 4 · 25 / 380 XP to level 5 · ${totalXpForLevel(4) + 25} XP in total`,
      );
      expect((await command('rank', nia)).response?.data?.content).toMatch(/^You have no XP yet/);
      expect((await command('rank', ada, { member: nia })).response?.data?.content).toBe(
        `<@${nia}> has no XP yet.`,
      );
    });

    it('/leaderboard lists the top members without pings', async () => {
      await setSettings();
      expect((await command('leaderboard', nia)).response?.data?.content).toBe(
        'Nobody has earned XP in this server yet.',
      );
      await giveXp(ada, 4);
      await giveXp(mo, 6);
      await giveXp(rex, 9, { leftAt: new Date() }); // left: not ranked
      const answer = await command('leaderboard', nia);
      expect(answer.response?.data?.allowed_mentions).toEqual({ parse: [] });
      expect(answer.response?.data?.content?.split('\n')).toEqual([
        '🏆 **Leaderboard** (top 2 of 2 ranked members)',
        `1. <@${mo}>: level 6 · ${totalXpForLevel(6).toLocaleString('en-US')} XP`,
        `2. <@${ada}>: level 4 · ${totalXpForLevel(4).toLocaleString('en-US')} XP`,
      ]);
    });

    it("/leaderboard period: ranks the XP earned this week, with each member's current level", async () => {
      await setSettings();
      await giveXp(ada, 4);
      await giveXp(mo, 6);
      await db()
        .insert(memberDailyXp)
        .values([
          { guildId: STATION, userId: ada, day: utcDay(new Date()), xp: 75 },
          { guildId: STATION, userId: mo, day: '2020-01-06', xp: 5_000 }, // long ago: not this week
        ]);
      const week = await command('leaderboard', nia, { period: 'week' });
      expect(week.response?.data?.content?.split('\n')).toEqual([
        '🏆 **Leaderboard**, this week (top 1 of 1 ranked member)',
        `1. <@${ada}>: level 4 · 75 XP`,
      ]);
      await db().delete(memberDailyXp);
      expect((await command('leaderboard', nia, { period: 'month' })).response?.data?.content).toBe(
        'Nobody has earned XP this month yet.',
      );
    });

    it('say leveling is off when it is', async () => {
      await giveXp(ada, 4);
      for (const name of ['rank', 'leaderboard']) {
        const answer = await command(name, ada);
        expect(answer.response?.data?.content).toBe(LEVELING_DISABLED_MESSAGE);
        expect(answer.response?.data?.flags).toBe(64);
      }
    });
  });
});
