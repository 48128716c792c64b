import { levelForTotalXp, totalXpForLevel } from '@spacecadet/core';
import { LEVELING_SETUP_CHANNEL, loadLeaderboard } from '@spacecadet/db/queries/leveling';
import { changeMemberXp } from '@spacecadet/db/queries/xp-tools';
import { levelingRoles, levelingSettings, memberXp } from '@spacecadet/db/schema';
import { defaultFixture, type SandboxFixture } from '@spacecadet/discord-sandbox';
import { PermissionFlagsBits } from 'discord.js';
import { and, eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerDeps } from '../src/deps.ts';
import { BOTS_HAVE_NO_XP } from '../src/features/leveling/commands.ts';
import { grantLevelRewards } from '../src/features/leveling/rewards.ts';
import { levelingSetups } from '../src/features/leveling/setup.ts';
import { XP_NEEDS_MANAGE_SERVER } from '../src/features/leveling/xp-command.ts';
import { roleAboveBotWarning } from '../src/roles/guild-roles.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  finalAnswer,
  type Harness,
  jobQueue,
  memberRoles,
  SANDBOX_IDS,
  STATION,
  setupChangesHeard,
  startHarness,
  waitFor,
} from './helpers.ts';

const { ada, mo, nia, rex } = SANDBOX_IDS.users;
/** Has XP in the guild but was never in it (an imported leaver). */
const GHOST = '200000000000000099';

/** More members than apply-rewards asks about one by one: it walks the member list instead. */
const CROWD = Array.from({ length: 520 }, (_, i) => `21000000000000${String(i).padStart(4, '0')}`);

/** The seeded world with CROWD as extra members of the station. */
function crowdedFixture(): SandboxFixture {
  const fixture = defaultFixture();
  const station = fixture.guilds.find((guild) => guild.id === STATION);
  const model = fixture.users.find((user) => user.id === nia);
  if (!station || !model) throw new Error('no station guild or no nia');
  for (const id of CROWD) {
    fixture.users.push({ ...model, id, username: `crew${id.slice(-4)}`, global_name: null, avatar: null });
    station.members.push({ user_id: id, roles: [], nick: null, joined_at: new Date(0).toISOString() });
  }
  return fixture;
}

interface Summary {
  ok: boolean;
  summary: string;
  warnings?: string[];
}

describe('reward modes, apply-rewards and /xp', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;

  const db = () => harness.database.db;
  const run = async (name: 'leveling.sync-roles' | 'leveling.apply-rewards'): Promise<Summary> => {
    const outcome = await jobs.finished((await jobs.add(name)).id ?? '');
    expect(outcome.error ?? '').toBe('');
    expect(outcome.state).toBe('completed');
    return outcome.result as Summary;
  };
  const requests = async () =>
    (await (await fetch(`${harness.sandbox.url}/_sandbox/requests`)).json()) as Array<{
      seq: number;
      method: string;
      path: string;
    }>;
  const lastSeq = async () => (await requests()).at(-1)?.seq ?? 0;
  const writesSince = async (since: number) =>
    (await requests()).filter((request) => request.seq > since && request.method !== 'GET');
  const setSettings = (values: Partial<typeof levelingSettings.$inferInsert> = {}) =>
    db()
      .insert(levelingSettings)
      .values({ guildId: STATION, enabled: true, ...values })
      .onConflictDoUpdate({ target: levelingSettings.guildId, set: { enabled: true, ...values } });
  const giveXp = (userId: string, level: number, extra: Partial<typeof memberXp.$inferInsert> = {}) =>
    db()
      .insert(memberXp)
      .values({ guildId: STATION, userId, level, xp: totalXpForLevel(level), ...extra });
  const row = async (userId: string) =>
    (
      await db()
        .select()
        .from(memberXp)
        .where(and(eq(memberXp.guildId, STATION), eq(memberXp.userId, userId)))
    )[0];

  /** Bronze (1), Silver (5), Gold (10), created in Discord by Sync Roles; their role ids. */
  const createRewards = async () => {
    const rows = await db()
      .insert(levelingRoles)
      .values([
        { guildId: STATION, roleName: 'Bronze Cadet', levelRequired: 1 },
        { guildId: STATION, roleName: 'Silver Cadet', levelRequired: 5 },
        { guildId: STATION, roleName: 'Gold Cadet', levelRequired: 10 },
      ])
      .returning();
    await run('leveling.sync-roles');
    const ids = await Promise.all(
      rows.map(async (reward) => {
        const [stored] = await db().select().from(levelingRoles).where(eq(levelingRoles.id, reward.id));
        if (!stored?.roleId) throw new Error(`${reward.roleName} was not created`);
        return stored.roleId;
      }),
    );
    const [bronze = '', silver = '', gold = ''] = ids;
    return { bronze, silver, gold, all: ids };
  };
  const giveRole = (userId: string, roleId: string) =>
    control(harness.sandbox).botRest('PUT', `/guilds/${STATION}/members/${userId}/roles/${roleId}`);
  /** The reward roles among what the member holds, sorted. */
  const rewardsHeld = (userId: string, rewardIds: readonly string[]) =>
    memberRoles(harness.sandbox, STATION, userId)
      .filter((id) => rewardIds.includes(id))
      .sort();
  const sorted = (...ids: string[]) => [...ids].sort();

  const command = (name: string, userId: string, options: Record<string, string> = {}) =>
    control(harness.sandbox).command({
      guild_id: STATION,
      channel_id: SANDBOX_IDS.channels.general,
      user_id: userId,
      name,
      options,
    });

  beforeAll(async () => {
    harness = await startHarness(crowdedFixture());
    worker = await startWorker(harness.config());
    jobs = jobQueue(harness);
  });
  afterEach(async () => {
    const created = (await db().select().from(levelingRoles)).flatMap((reward) => reward.roleId ?? []);
    for (const roleId of created) {
      await fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/roles/${roleId}`, { method: 'DELETE' });
    }
    await db().delete(levelingRoles);
    await db().delete(memberXp);
    await db().delete(levelingSettings);
  });
  afterAll(async () => {
    await jobs?.close();
    await worker?.close();
    await harness.close();
  });

  describe('highest mode', () => {
    it('a level-up earned by chatting gives the new reward and takes the lower one away', async () => {
      const { bronze, silver, all } = await createRewards();
      await setSettings({ rewardMode: 'highest', xpMin: 1000, xpMax: 1000, messageCooldownSec: 0 });
      await giveXp(nia, 4);
      await giveRole(nia, bronze);
      await setupChangesHeard(harness, levelingSetups, LEVELING_SETUP_CHANNEL);
      expect(levelForTotalXp(totalXpForLevel(4) + 1000)).toBeGreaterThanOrEqual(5);
      expect(levelForTotalXp(totalXpForLevel(4) + 1000)).toBeLessThan(10);

      await control(harness.sandbox).postMessage({
        guild_id: STATION,
        channel_id: SANDBOX_IDS.channels.general,
        author_id: nia,
        content: 'climbing',
      });
      await waitFor('nia to hold only the Silver reward', () => {
        const held = rewardsHeld(nia, all);
        return held.length === 1 && held[0] === silver;
      });
    });

    it('grantLevelRewards answers the rewards it added and removes those above the stored level', async () => {
      const { bronze, silver, gold, all } = await createRewards();
      await setSettings({ rewardMode: 'highest' });
      const deps = {
        db: db(),
        client: worker.client,
        logger: pino({ level: 'silent' }),
      } as unknown as WorkerDeps;
      await giveRole(nia, bronze);
      expect(await grantLevelRewards(deps, STATION, nia, 6)).toEqual(['Silver Cadet']);
      expect(rewardsHeld(nia, all)).toEqual([silver]);
      expect(await grantLevelRewards(deps, STATION, nia, 6)).toEqual([]);

      // A stale level-up of level 10 while the stored level is 2 (an admin lowered it).
      await giveXp(nia, 2);
      await giveRole(nia, gold);
      expect(await grantLevelRewards(deps, STATION, nia, 10)).toEqual(['Bronze Cadet']);
      expect(rewardsHeld(nia, all)).toEqual([bronze]);
    });

    it('Sync Roles leaves every member exactly the highest reward of their level; a second run changes nothing', async () => {
      const { bronze, silver, gold, all } = await createRewards();
      await giveXp(ada, 12);
      await giveXp(mo, 5);
      await run('leveling.sync-roles'); // stack: ada holds all three, mo two
      expect(rewardsHeld(ada, all)).toEqual(sorted(bronze, silver, gold));
      await giveRole(nia, bronze); // no XP at all: holds nothing

      await setSettings({ rewardMode: 'highest' });
      const outcome = await run('leveling.sync-roles');
      expect(outcome.summary).toMatch(/0 rewards given to 0 members, 4 rewards removed from 3 members\./);
      expect(rewardsHeld(ada, all)).toEqual([gold]);
      expect(rewardsHeld(mo, all)).toEqual([silver]);
      expect(rewardsHeld(nia, all)).toEqual([]);

      const since = await lastSeq();
      const again = await run('leveling.sync-roles');
      expect(again.summary).toMatch(/0 rewards given to 0 members\./);
      expect(await writesSince(since)).toEqual([]);
    });
  });

  describe('leveling.apply-rewards', () => {
    it('lowering XP with changeMemberXp takes away the rewards above the new level', async () => {
      const { bronze, all } = await createRewards();
      await giveXp(ada, 12);
      await run('leveling.sync-roles');
      expect(rewardsHeld(ada, all)).toHaveLength(3);

      const change = await changeMemberXp(db(), STATION, ada, { set: totalXpForLevel(2) });
      expect(change.level).toBe(2);
      const outcome = await run('leveling.apply-rewards');
      expect(outcome.summary).toBe(
        'Rewards checked for 1 member: 0 roles given, 2 removed (1 member changed).',
      );
      expect(rewardsHeld(ada, all)).toEqual([bronze]);
      expect((await row(ada))?.rewardsDueAt).toBeNull();
    });

    it('applies import-style marks, marks leavers as left (unranked), and a rerun or a resumed run changes nothing more', async () => {
      const { bronze, silver, gold, all } = await createRewards();
      await setSettings({ rewardMode: 'highest' });
      await giveRole(mo, silver); // above mo's imported level
      await giveRole(nia, silver); // as a run killed after nia, before clearing her mark, left it
      const marked = { rewardsDueAt: new Date() };
      await giveXp(ada, 10, marked);
      await giveXp(mo, 1, marked);
      await giveXp(nia, 7, marked);
      await giveXp(rex, 20, marked); // not in this server
      await giveXp(GHOST, 3, marked);

      const since = await lastSeq();
      const outcome = await run('leveling.apply-rewards');
      expect(outcome.summary).toBe(
        'Rewards checked for 3 members: 2 roles given, 1 removed (2 members changed). 2 members no longer in the server marked as left.',
      );
      expect(outcome.warnings).toBeUndefined();
      expect(rewardsHeld(ada, all)).toEqual([gold]);
      expect(rewardsHeld(mo, all)).toEqual([bronze]);
      expect(rewardsHeld(nia, all)).toEqual([silver]);
      expect((await writesSince(since)).filter((write) => write.path.includes(`/members/${nia}/`))).toEqual(
        [],
      );

      const rows = await db().select().from(memberXp).where(eq(memberXp.guildId, STATION));
      expect(rows.every((member) => member.rewardsDueAt === null)).toBe(true);
      expect(
        rows
          .filter((member) => member.leftAt !== null)
          .map((member) => member.userId)
          .sort(),
      ).toEqual([GHOST, rex].sort());
      const board = await loadLeaderboard(db(), STATION, { limit: 10, offset: 0 });
      expect(board.members.map((entry) => entry.userId)).toEqual([ada, nia, mo]);

      const quiet = await lastSeq();
      const again = await run('leveling.apply-rewards');
      expect(again.summary).toBe('No rewards were due: every member already has the rewards of their level.');
      expect(await writesSince(quiet)).toEqual([]);
    });

    it('an import of many marks walks the member list instead of asking about each member, leavers included', async () => {
      const { bronze, silver, gold, all } = await createRewards();
      const dueAt = new Date();
      await db()
        .insert(memberXp)
        .values(CROWD.map((userId) => ({ guildId: STATION, userId, xp: 0, level: 0, rewardsDueAt: dueAt })));
      await giveXp(ada, 10, { rewardsDueAt: dueAt });
      await giveXp(GHOST, 3, { rewardsDueAt: dueAt });

      const since = await lastSeq();
      const outcome = await run('leveling.apply-rewards');
      expect(outcome.summary).toBe(
        `Rewards checked for ${CROWD.length + 1} members: 3 roles given, 0 removed (1 member changed). 1 member no longer in the server marked as left.`,
      );
      expect(rewardsHeld(ada, all)).toEqual(sorted(bronze, silver, gold));
      const asked = (await requests()).filter(
        (request) =>
          request.seq > since &&
          request.method === 'GET' &&
          new RegExp(`/guilds/${STATION}/members/\\d+$`).test(request.path) &&
          !request.path.endsWith(`/${SANDBOX_IDS.bot}`),
      );
      // The leaver is not in the complete list: marked left without a request of its own.
      expect(asked.map((request) => request.path.split('/').at(-1))).toEqual([]);
      const marked = await db().select().from(memberXp).where(eq(memberXp.guildId, STATION));
      expect(marked.filter((member) => member.rewardsDueAt !== null)).toEqual([]);
      expect(marked.filter((member) => member.leftAt !== null).map((member) => member.userId)).toEqual([
        GHOST,
      ]);
    });

    it('warns in Sync Roles’ words about a reward role above the bot, and still clears the marks', async () => {
      const { all } = await createRewards();
      const [mods] = await db()
        .insert(levelingRoles)
        .values({
          guildId: STATION,
          roleName: 'Moderators',
          levelRequired: 2,
          roleId: SANDBOX_IDS.roles.stationModerators,
        })
        .returning();
      try {
        await giveXp(nia, 3, { rewardsDueAt: new Date() });
        const outcome = await run('leveling.apply-rewards');
        expect(outcome.warnings).toEqual([roleAboveBotWarning('Moderators')]);
        expect(memberRoles(harness.sandbox, STATION, nia)).not.toContain(SANDBOX_IDS.roles.stationModerators);
        expect(rewardsHeld(nia, all)).toHaveLength(1); // Bronze, in stack mode
        expect((await row(nia))?.rewardsDueAt).toBeNull();
      } finally {
        // Not ours to delete in afterEach.
        if (mods) await db().update(levelingRoles).set({ roleId: null }).where(eq(levelingRoles.id, mods.id));
      }
    });
  });

  describe('/xp', () => {
    it('is registered for Manage Server only, with set, add, remove and reset', async () => {
      const registered = await control(harness.sandbox).botRest<
        Array<{ name: string; default_member_permissions?: string; options?: Array<{ name: string }> }>
      >('GET', `/applications/${SANDBOX_IDS.app}/commands`);
      const xp = registered.find((candidate) => candidate.name === 'xp');
      expect(xp?.default_member_permissions).toBe(PermissionFlagsBits.ManageGuild.toString());
      expect(xp?.options?.map((option) => option.name)).toEqual(['set', 'add', 'remove', 'reset']);
    });

    it('set, add, remove and reset change XP and level, bring rewards in line at once, and answer privately', async () => {
      const { bronze, silver, all } = await createRewards();
      await setSettings({ rewardMode: 'highest' });
      const answer = async (name: string, options: Record<string, string>) => {
        const result = await command(name, mo, options);
        expect(result.responded).toBe(true);
        expect(result.response?.data?.flags).toBe(64);
        return finalAnswer(harness.sandbox, result);
      };

      const level = levelForTotalXp(1200);
      expect(await answer('xp set', { member: nia, amount: '1200' })).toBe(
        `Set <@${nia}> to 1,200 XP (level ${level}).\nRewards: gave Silver Cadet.`,
      );
      expect(rewardsHeld(nia, all)).toEqual([silver]);
      expect(await row(nia)).toMatchObject({ xp: 1200, level, rewardsDueAt: null });

      expect(await answer('xp remove', { member: nia, amount: '1050' })).toBe(
        `Took 1,050 XP from <@${nia}>: they now have 150 XP (level 1).\nRewards: gave Bronze Cadet; removed Silver Cadet.`,
      );
      expect(rewardsHeld(nia, all)).toEqual([bronze]);

      expect(await answer('xp add', { member: nia, amount: '50' })).toBe(
        `Gave <@${nia}> 50 XP: they now have 200 XP (level 1).`,
      );
      expect(await answer('xp remove', { member: nia, amount: '5000' })).toBe(
        `Took 5,000 XP from <@${nia}>: they now have 0 XP (level 0).\nRewards: removed Bronze Cadet.`,
      );
      await answer('xp set', { member: nia, amount: '300' });
      expect(await answer('xp reset', { member: nia })).toBe(
        `Reset <@${nia}> to 0 XP (level 0).\nRewards: removed Bronze Cadet.`,
      );
      expect(rewardsHeld(nia, all)).toEqual([]);
      expect(await row(nia)).toMatchObject({ xp: 0, level: 0, rewardsDueAt: null });
    });

    it('refuses members without Manage Server, bots and non-members, changing nothing', async () => {
      await setSettings();
      const refused = async (userId: string, options: Record<string, string>) => {
        const result = await command('xp set', userId, options);
        expect(result.response?.data?.flags).toBe(64);
        return result.response?.data?.content;
      };
      expect(await refused(nia, { member: mo, amount: '500' })).toBe(XP_NEEDS_MANAGE_SERVER);
      expect(await refused(mo, { member: SANDBOX_IDS.bot, amount: '500' })).toBe(BOTS_HAVE_NO_XP);
      expect(await refused(ada, { member: rex, amount: '500' })).toBe(
        `<@${rex}> is not a member of this server.`,
      );
      expect(await db().select().from(memberXp)).toEqual([]);
    });
  });
});
