import { memberPicksKey, type RoleMenuMode, type RoleMenuStyle } from '@spacecadet/contract';
import { type RoleMenuOption, roleMenuCustomId } from '@spacecadet/core';
import { menuPickScope } from '@spacecadet/db/queries/member-picks';
import {
  clearMenuPostRequest,
  createOwnMenu,
  deleteOwnMenu,
  ROLE_MENUS_SETUP_CHANNEL,
  type RoleMenuValues,
  requestMenuPost,
  saveMenuMessages,
  updateOwnMenu,
} from '@spacecadet/db/queries/role-menus';
import { memberRolePicks, type RoleMenuRow, roleMenus } from '@spacecadet/db/schema';
import { eq, like, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { managedIds } from '../src/features/repairs/managed-ids.ts';
import { guildMenus } from '../src/features/role-menus/menus.ts';
import { ROLE_MENU_OUT_OF_DATE } from '../src/features/role-menus/picks.ts';
import { memberColorLockKey } from '../src/roles/member-color.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  finalAnswer,
  guildState,
  type Harness,
  jobQueue,
  memberRoles,
  SANDBOX_IDS,
  STATION,
  setupChangesHeard,
  startHarness,
  stationWithCrowd,
  storedKey,
  waitFor,
} from './helpers.ts';

const { roles: rolesChannel, announcements, orbitHangar } = SANDBOX_IDS.channels;
const { ada } = SANDBOX_IDS.users;
const { stationCrew } = SANDBOX_IDS.roles;
const EMOJIS = ['🍎', '🍌', '🍇'];

describe('role menus of the admin’s own', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;
  let redis: Redis;
  /** Members without roles, one for each test (no test reads roles another test changed). */
  let crowd: string[] = [];
  /** 25 roles the bot can give, made in Discord before the worker starts. */
  const menuRoles: string[] = [];
  let titles = 0;

  const sandbox = () => control(harness.sandbox);
  const nextMember = () => {
    const member = crowd.shift();
    if (!member) throw new Error('the crowd ran out');
    return member;
  };
  const run = async (name: Parameters<typeof jobs.add>[0], guildId = STATION) =>
    jobs.finished((await jobs.add(name, guildId)).id ?? '');
  const messagesIn = (channelId: string) =>
    guildState(harness.sandbox, STATION).channels.find((c) => c.id === channelId)?.messages ?? [];
  const message = (channelId: string, id: string | undefined) =>
    messagesIn(channelId).find((m) => m.id === id);
  const holds = (userId: string, roleId: string | undefined) =>
    memberRoles(harness.sandbox, STATION, userId).includes(roleId ?? '');
  const heldOf = (userId: string, roleIds: readonly string[]) =>
    roleIds.filter((roleId) => holds(userId, roleId));
  const menuRow = async (id: string): Promise<RoleMenuRow | undefined> =>
    (await harness.database.db.select().from(roleMenus).where(eq(roleMenus.id, id)))[0];
  const options = (count: number, from = 0): RoleMenuOption[] =>
    menuRoles.slice(from, from + count).map((roleId, i) => ({
      role_id: roleId,
      label: `Role ${from + i + 1}`,
      emoji: EMOJIS[i],
    }));

  /** An admin's menu as the API saves it, titled apart from every other test's. */
  const createMenu = async (values: Partial<RoleMenuValues> = {}): Promise<RoleMenuRow> => {
    titles += 1;
    const menu = await createOwnMenu(
      harness.database.db,
      values.channelId === orbitHangar ? SANDBOX_IDS.guilds.orbit : STATION,
      {
        title: `Menu ${titles}`,
        description: 'Pick your roles.',
        color: null,
        channelId: rolesChannel,
        style: 'buttons',
        mode: 'normal',
        maxRoles: null,
        requiredRoleId: null,
        options: options(3),
        ...values,
      },
      ada,
      // Not the cap under test: each test makes menus of its own.
      1_000,
    );
    if (!menu) throw new Error('menu not created');
    return menu;
  };
  /**
   * The post job, then its follow-ups (the first run of the 5-minute repair its first post
   * creates, the reconcile after a reaction menu kept its messages): every step that posts goes
   * through it, so no follow-up reads what the test changes next.
   */
  const postJob = async () => {
    const outcome = await run('role-menus.post');
    await jobs.followUpsDone();
    return outcome;
  };
  /** Post / Update of one menu: the request the API stores, then the job. */
  const post = async (menuId: string) => {
    expect(await requestMenuPost(harness.database.db, STATION, menuId)).not.toBeNull();
    const outcome = await postJob();
    const menu = await menuRow(menuId);
    return { ...outcome, menu };
  };
  const posted = async (values: Partial<RoleMenuValues> = {}) => {
    const menu = await createMenu(values);
    const outcome = await post(menu.id);
    expect(outcome.state, outcome.error).toBe('completed');
    const messageId = outcome.menu?.messageIds[0];
    if (!outcome.menu || !messageId) throw new Error('the menu was not posted');
    return { menu: outcome.menu, messageId };
  };

  /** One pick by a member, as a button click or as the select's one chosen value; its final answer. */
  const pick = async (
    style: RoleMenuStyle,
    menu: { menu: RoleMenuRow; messageId: string },
    userId: string,
    roleIds: readonly string[],
  ) => {
    const result = await sandbox().click({
      guild_id: STATION,
      channel_id: rolesChannel,
      message_id: menu.messageId,
      user_id: userId,
      ...(style === 'buttons'
        ? { custom_id: roleMenuCustomId(menu.menu.id, roleIds[0]) }
        : { custom_id: roleMenuCustomId(menu.menu.id), values: [...roleIds] }),
    });
    expect(result.responded).toBe(true);
    return finalAnswer(harness.sandbox, result);
  };
  const role = (index: number) => menuRoles[index] ?? '';
  const mention = (index: number) => `<@&${role(index)}>`;

  beforeAll(async () => {
    const world = stationWithCrowd('2000000777', 40, 'picker');
    crowd = world.crowd;
    harness = await startHarness(world.fixture);
    for (let i = 0; i < 25; i += 1) {
      const made = await sandbox().botRest<{ id: string }>('POST', `/guilds/${STATION}/roles`, {
        name: `Menu role ${i + 1}`,
      });
      menuRoles.push(made.id);
    }
    jobs = jobQueue(harness);
    redis = new Redis(harness.redis.url);
    worker = await startWorker(harness.config());
  });
  afterAll(async () => {
    await worker?.close();
    await jobs?.close();
    redis?.disconnect();
    await harness.close();
  });

  describe.each(['buttons', 'select'] as const)('%s', (style) => {
    const make = (mode: RoleMenuMode, values: Partial<RoleMenuValues> = {}) =>
      posted({ style, mode, ...values });

    it('normal: each pick toggles its role', async () => {
      const menu = await make('normal');
      const member = nextMember();
      expect(await pick(style, menu, member, [role(0)])).toBe(`You now have ${mention(0)}.`);
      await pick(style, menu, member, [role(1)]);
      expect(heldOf(member, menuRoles)).toEqual([role(0), role(1)]);
      expect(await pick(style, menu, member, [role(0)])).toBe(
        `You no longer have ${mention(0)}. Your roles from this menu: ${mention(1)}.`,
      );
      expect(heldOf(member, menuRoles)).toEqual([role(1)]);
    });

    it('unique: picking another swaps, so one role of the menu at a time', async () => {
      const menu = await make('unique');
      const member = nextMember();
      await pick(style, menu, member, [role(0)]);
      expect(await pick(style, menu, member, [role(1)])).toBe(
        `You now have ${mention(1)} and no longer ${mention(0)}.`,
      );
      expect(heldOf(member, menuRoles)).toEqual([role(1)]);
      // Picking the held role again drops it.
      expect(await pick(style, menu, member, [role(1)])).toBe(`You no longer have ${mention(1)}.`);
      expect(heldOf(member, menuRoles)).toEqual([]);
    });

    it('unique: two quick picks of one member end with exactly one role of the menu', async () => {
      const menu = await make('unique');
      const member = nextMember();
      await Promise.all([pick(style, menu, member, [role(0)]), pick(style, menu, member, [role(2)])]);
      expect(heldOf(member, menuRoles)).toHaveLength(1);
    });

    it('verify: a pick only ever adds', async () => {
      const menu = await make('verify');
      const member = nextMember();
      await pick(style, menu, member, [role(0)]);
      expect(await pick(style, menu, member, [role(0)])).toBe(
        `Nothing changed: your roles from this menu are ${mention(0)}.`,
      );
      expect(heldOf(member, menuRoles)).toEqual([role(0)]);
    });

    it('drop: a pick only ever removes', async () => {
      const menu = await make('drop');
      const member = nextMember();
      await sandbox().botRest('PUT', `/guilds/${STATION}/members/${member}/roles/${role(0)}`);
      expect(await pick(style, menu, member, [role(0)])).toBe(`You no longer have ${mention(0)}.`);
      expect(await pick(style, menu, member, [role(1)])).toBe(
        "Nothing changed: you have none of this menu's roles.",
      );
      expect(heldOf(member, menuRoles)).toEqual([]);
    });

    it('limit: a pick past max_roles is refused with the limit', async () => {
      const menu = await make('limit', { maxRoles: 2 });
      const member = nextMember();
      await pick(style, menu, member, [role(0)]);
      await pick(style, menu, member, [role(1)]);
      expect(await pick(style, menu, member, [role(2)])).toBe(
        'You can hold at most 2 roles of this menu. Drop one first.',
      );
      expect(heldOf(member, menuRoles)).toEqual([role(0), role(1)]);
    });

    it('a required role: a member without it is told its name and nothing changes', async () => {
      const menu = await make('normal', { requiredRoleId: stationCrew });
      const member = nextMember();
      const answer = await pick(style, menu, member, [role(0)]);
      expect(answer).toContain(`<@&${stationCrew}>`);
      expect(memberRoles(harness.sandbox, STATION, member)).toEqual([]);
      // With it, the same pick goes through.
      await sandbox().botRest('PUT', `/guilds/${STATION}/members/${member}/roles/${stationCrew}`);
      expect(await pick(style, menu, member, [role(0)])).toBe(`You now have ${mention(0)}.`);
    });

    it('a role the bot cannot give is answered with why, and nothing changes', async () => {
      const { stationModerators } = SANDBOX_IDS.roles;
      const menu = await make('normal', {
        options: [...options(1), { role_id: stationModerators, label: 'Mods' }],
      });
      const member = nextMember();
      expect(await pick(style, menu, member, [stationModerators])).toBe(
        `I can't give you <@&${stationModerators}>: my role must be above it in Server Settings → Roles. Ask an admin.`,
      );
      expect(memberRoles(harness.sandbox, STATION, member)).toEqual([]);
    });

    if (style === 'select') {
      it('select: each chosen value is one pick', async () => {
        const menu = await make('normal');
        const member = nextMember();
        expect(await pick(style, menu, member, [role(0), role(2)])).toBe(
          `You now have ${mention(0)} and ${mention(2)}.`,
        );
        expect(heldOf(member, menuRoles)).toEqual([role(0), role(2)]);
      });
    }
  });

  describe('reactions', () => {
    const react = (messageId: string, userId: string, emoji: string, method: 'POST' | 'DELETE' = 'POST') =>
      fetch(`${harness.sandbox.url}/_sandbox/reactions`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          guild_id: STATION,
          channel_id: rolesChannel,
          message_id: messageId,
          user_id: userId,
          emoji,
        }),
      }).then(async (response) => {
        if (!response.ok) throw new Error(`reaction -> ${response.status}: ${await response.text()}`);
      });
    const reactionsOf = (messageId: string, userId: string) =>
      (message(rolesChannel, messageId)?.reactions ?? [])
        .filter((r) => r.user_ids.includes(userId))
        .map((r) => r.emoji.name);
    const postReactions = async (mode: RoleMenuMode, values: Partial<RoleMenuValues> = {}) => {
      const menu = await posted({ style: 'reactions', mode, ...values });
      await setupChangesHeard(harness, guildMenus, ROLE_MENUS_SETUP_CHANNEL);
      return menu;
    };

    it('unique: a second reaction swaps the role and takes the older reaction away', async () => {
      const { messageId } = await postReactions('unique');
      const member = nextMember();
      await react(messageId, member, '🍎');
      await waitFor('the first role', () => holds(member, role(0)));
      await react(messageId, member, '🍌');
      await waitFor(
        'the swap, the older reaction gone',
        () => heldOf(member, menuRoles).join() === role(1) && reactionsOf(messageId, member).join() === '🍌',
      );
    });

    it('limit: a reaction past max_roles is taken away and gives nothing', async () => {
      const { messageId } = await postReactions('limit', { maxRoles: 1 });
      const member = nextMember();
      await react(messageId, member, '🍎');
      await waitFor('the first role', () => holds(member, role(0)));
      await react(messageId, member, '🍇');
      await waitFor('the refused reaction to go', () => reactionsOf(messageId, member).join() === '🍎');
      expect(heldOf(member, menuRoles)).toEqual([role(0)]);
    });
  });

  describe('posting', () => {
    it('a 25-option buttons menu is one message of 5 rows of 5 buttons; a second post edits it', async () => {
      const menu = await createMenu({
        options: options(25).map((o) => ({ role_id: o.role_id, label: o.label })),
      });
      const first = await post(menu.id);
      expect(first.state, first.error).toBe('completed');
      expect(first.result).toMatchObject({ ok: true, summary: 'Role menu posted.' });
      const [messageId] = first.menu?.messageIds ?? [];
      const rows = (message(rolesChannel, messageId)?.components ?? []) as Array<{
        components: Array<{ custom_id: string; label: string }>;
      }>;
      expect(rows.map((row) => row.components.length)).toEqual([5, 5, 5, 5, 5]);
      expect(rows.flatMap((row) => row.components.map((button) => button.custom_id))).toEqual(
        menuRoles.map((roleId) => roleMenuCustomId(menu.id, roleId)),
      );
      expect(first.menu?.postRequestedAt).toBeNull();

      const count = messagesIn(rolesChannel).length;
      const again = await post(menu.id);
      expect(again.result).toMatchObject({ ok: true, summary: 'Role menu updated.' });
      expect(again.menu?.messageIds).toEqual([messageId]);
      expect(messagesIn(rolesChannel)).toHaveLength(count);
    });

    it('a saved change is edited into the posted message in place by the repair', async () => {
      const { menu, messageId } = await posted();
      const changed = await updateOwnMenu(
        harness.database.db,
        STATION,
        menu.id,
        {
          title: `${menu.title} (renamed)`,
          description: 'Now a select.',
          color: 0x123456,
          channelId: rolesChannel,
          style: 'select',
          mode: 'unique',
          maxRoles: null,
          requiredRoleId: null,
          options: options(2),
        },
        ada,
      );
      expect(changed).not.toBeNull();
      const repaired = await run('role-menus.repair');
      expect(repaired.state, repaired.error).toBe('completed');
      expect(repaired.result).toMatchObject({ summary: 'Role menus repaired.' });
      expect((await menuRow(menu.id))?.messageIds).toEqual([messageId]);
      const edited = message(rolesChannel, messageId);
      expect(edited?.embeds[0]?.title).toBe(`${menu.title} (renamed)`);
      const [row] = (edited?.components ?? []) as Array<{
        components: Array<{ custom_id: string; options: unknown[] }>;
      }>;
      const select = row?.components[0];
      expect(select?.custom_id).toBe(roleMenuCustomId(menu.id));
      expect(select?.options).toHaveLength(2);
    });

    it.each(['buttons', 'select'] as const)(
      'a posted %s menu as Discord keeps it is what the layout draws: a repair changes nothing',
      async (style) => {
        const { stationRocket, stationParrot } = SANDBOX_IDS.emojis;
        await posted({
          style,
          description: '  Pick **yours**  ',
          color: 0x123456,
          options: [
            { role_id: role(0), label: ' Apple ', emoji: '🍎', description: ' The red one ' },
            { role_id: role(1), label: 'Rocket', emoji: `<:rocket:${stationRocket}>` },
            { role_id: role(2), label: 'Parrot', emoji: `<a:party_parrot:${stationParrot}>` },
            { role_id: role(3), label: 'Plain' },
          ],
        });
        const repaired = await run('role-menus.repair');
        expect(repaired.state, repaired.error).toBe('completed');
        expect(repaired.result).toMatchObject({ summary: 'Everything was in place.' });
      },
    );

    it('a stored channel of another server: Post refuses and posts nothing there', async () => {
      const menu = await createMenu();
      await harness.database.db
        .update(roleMenus)
        .set({ channelId: orbitHangar })
        .where(eq(roleMenus.id, menu.id));
      const orbitMessages = () =>
        guildState(harness.sandbox, SANDBOX_IDS.guilds.orbit).channels.find((c) => c.id === orbitHangar)
          ?.messages.length;
      const before = orbitMessages();
      const outcome = await post(menu.id);
      expect(outcome.state).toBe('failed');
      expect(outcome.error).toContain('That channel is not in this server.');
      expect(orbitMessages()).toBe(before);
      expect(outcome.menu?.messageIds).toEqual([]);
    });

    it('a required role that is not one of the server’s is told to the admin when posting', async () => {
      // Stored before the API checked it, or the role was deleted since: every member is refused.
      const { orbitBot } = SANDBOX_IDS.roles;
      const menu = await createMenu({ requiredRoleId: orbitBot });
      const outcome = await post(menu.id);
      expect(outcome.state, outcome.error).toBe('completed');
      expect(outcome.result).toMatchObject({
        warnings: [
          `${menu.title}: its required role is not a role of this server (deleted?), so every member is refused. Pick another required role, or none.`,
        ],
      });
    });

    it('a deleted message is posted again by Post', async () => {
      const { menu, messageId } = await posted();
      await sandbox().botRest('DELETE', `/channels/${rolesChannel}/messages/${messageId}`);
      const again = await post(menu.id);
      expect(again.state, again.error).toBe('completed');
      const [reposted] = again.menu?.messageIds ?? [];
      expect(reposted).toBeDefined();
      expect(reposted).not.toBe(messageId);
      expect(messagesIn(rolesChannel).filter((m) => m.embeds[0]?.title === menu.title)).toHaveLength(1);
    });

    it('a new channel: Post moves the menu there', async () => {
      const { menu, messageId } = await posted();
      await harness.database.db
        .update(roleMenus)
        .set({ channelId: announcements })
        .where(eq(roleMenus.id, menu.id));
      const moved = await post(menu.id);
      expect(moved.result).toMatchObject({ summary: 'Role menu updated and moved to the new channel.' });
      expect(moved.menu?.messageChannelId).toBe(announcements);
      expect(message(rolesChannel, messageId)).toBeUndefined();
      expect(message(announcements, moved.menu?.messageIds[0])?.embeds[0]?.title).toBe(menu.title);
    });

    it('a deleted menu: the repair deletes its message, forgets its picks, and the row goes', async () => {
      const posting = await posted();
      const { menu, messageId } = posting;
      const member = nextMember();
      await pick('buttons', posting, member, [role(0)]);
      const picksOfMenu = () =>
        harness.database.db
          .select()
          .from(memberRolePicks)
          .where(like(memberRolePicks.scope, `${menuPickScope(menu.id)}%`));
      await waitFor('the pick to be recorded', async () => (await picksOfMenu()).length > 0);
      expect(await deleteOwnMenu(harness.database.db, STATION, menu.id, ada)).toBe('marked');
      const repaired = await run('role-menus.repair');
      expect(repaired.state, repaired.error).toBe('completed');
      expect(message(rolesChannel, messageId)).toBeUndefined();
      expect(await menuRow(menu.id)).toBeUndefined();
      expect(await picksOfMenu()).toEqual([]);
      // The member keeps the role the menu gave.
      expect(holds(member, role(0))).toBe(true);
    });

    it('a menu deleted while its post job is posting it: the message that job leaves goes with the repair', async () => {
      const menu = await createMenu();
      expect(await requestMenuPost(harness.database.db, STATION, menu.id)).not.toBeNull();
      // The job read the menu and is posting it when the admin deletes it...
      expect(await deleteOwnMenu(harness.database.db, STATION, menu.id, ada)).toBe('marked');
      // ...then it posts the message and stores its id, as syncMenuPanel does.
      const late = await sandbox().botRest<{ id: string }>('POST', `/channels/${rolesChannel}/messages`, {
        embeds: [{ title: menu.title }],
      });
      await saveMenuMessages(harness.database.db, menu.id, {
        messageIds: [late.id],
        channelId: rolesChannel,
      });
      // The repair the delete queued runs after it (one job of a guild at a time).
      const repaired = await run('role-menus.repair');
      expect(repaired.state, repaired.error).toBe('completed');
      expect(message(rolesChannel, late.id)).toBeUndefined();
      expect(await menuRow(menu.id)).toBeUndefined();
    });

    it('a buttons menu message an admin deletes is posted again by the repair it triggers', async () => {
      await worker.close();
      worker = await startWorker(harness.config({ REPAIR_DELAY_MS: '200' }));
      const { menu, messageId } = await posted({ style: 'select' });
      await setupChangesHeard(harness, managedIds, ROLE_MENUS_SETUP_CHANNEL);
      await sandbox().botRest('DELETE', `/channels/${rolesChannel}/messages/${messageId}`);
      const [reposted] = await waitFor('the menu to be posted again', async () => {
        const ids = (await menuRow(menu.id))?.messageIds ?? [];
        return ids[0] && ids[0] !== messageId ? ids : undefined;
      });
      expect(message(rolesChannel, reposted)?.embeds[0]?.title).toBe(menu.title);
      // The repair ends after it stores the new id: the next test's fault is not for it.
      await jobs.followUpsDone();
    });

    it('a post job stopped halfway is rerun whole: both menus asked for are posted once, and the result speaks of both', async () => {
      const first = await createMenu();
      const second = await createMenu({ channelId: announcements });
      expect(await requestMenuPost(harness.database.db, STATION, first.id)).not.toBeNull();
      expect(await requestMenuPost(harness.database.db, STATION, second.id)).not.toBeNull();
      // The first attempt posts the first menu, then Discord fails the second's message.
      await sandbox().fault({
        method: 'POST',
        path: `/channels/${announcements}/messages`,
        status: 400,
        count: 1,
      });
      const outcome = await postJob();
      await sandbox().clearFaults();
      expect(outcome.state, outcome.error).toBe('completed');
      expect(outcome.result).toMatchObject({ ok: true, summary: expect.stringMatching(/^Role menus /) });
      for (const [menu, channelId] of [
        [first, rolesChannel],
        [second, announcements],
      ] as const) {
        const row = await menuRow(menu.id);
        expect(row?.postRequestedAt).toBeNull();
        expect(row?.messageIds).toHaveLength(1);
        expect(messagesIn(channelId).filter((m) => m.embeds[0]?.title === menu.title)).toHaveLength(1);
      }
    });

    it('a Post asked for again after the job read the request stays asked for, in the same millisecond or from a clock behind', async () => {
      const { db } = harness.database;
      const menu = await createMenu();
      const stamp = async () => (await menuRow(menu.id))?.postRequestedAt ?? null;
      for (const secondAt of [0, -5_000]) {
        const first = new Date('2031-01-01T00:00:00.123Z');
        vi.useFakeTimers({ toFake: ['Date'], now: first });
        try {
          await requestMenuPost(db, STATION, menu.id);
          // What the job reads before it posts.
          const read = await stamp();
          if (!read) throw new Error('no request stored');
          // The admin presses Post again while the job runs: in the same millisecond, or
          // through an API process whose clock is behind.
          vi.setSystemTime(first.getTime() + secondAt);
          await requestMenuPost(db, STATION, menu.id);
          await clearMenuPostRequest(db, menu.id, read);
          expect(await stamp()).not.toBeNull();
          // The rerun reads the new request and clears it.
          const again = await stamp();
          if (!again) throw new Error('no request stored');
          await clearMenuPostRequest(db, menu.id, again);
          expect(await stamp()).toBeNull();
        } finally {
          vi.useRealTimers();
        }
      }
    });

    it('a request stamped in microseconds (by SQL) is cleared by the job that read it as a JS Date', async () => {
      const menu = await createMenu();
      await harness.database.db
        .update(roleMenus)
        .set({ postRequestedAt: sql`'2031-01-01 00:00:00.123456+00'::timestamptz` })
        .where(eq(roleMenus.id, menu.id));
      const read = (await menuRow(menu.id))?.postRequestedAt;
      if (!read) throw new Error('no request stored');
      await clearMenuPostRequest(harness.database.db, menu.id, read);
      expect((await menuRow(menu.id))?.postRequestedAt).toBeNull();
    });

    it('fails clearly when no menu waits to be posted', async () => {
      const failed = await postJob();
      expect(failed.state, JSON.stringify(failed.result)).toBe('failed');
      expect(failed.error).toMatch(/^invalid_input: Nothing to post/);
    });
  });

  describe('clicks that cannot be trusted', () => {
    it("a button naming another server's menu changes nothing", async () => {
      const foreign = await createMenu({ channelId: orbitHangar, options: options(1) });
      const customId = roleMenuCustomId(foreign.id, role(0));
      const bait = await sandbox().botRest<{ id: string }>('POST', `/channels/${rolesChannel}/messages`, {
        content: 'bait',
        components: [{ type: 1, components: [{ type: 2, style: 2, label: 'Take', custom_id: customId }] }],
      });
      const member = nextMember();
      const result = await sandbox().click({
        guild_id: STATION,
        channel_id: rolesChannel,
        message_id: bait.id,
        user_id: member,
        custom_id: customId,
      });
      expect(await finalAnswer(harness.sandbox, result)).toBe(ROLE_MENU_OUT_OF_DATE);
      expect(memberRoles(harness.sandbox, STATION, member)).toEqual([]);
    });

    it('a role that is not one of the menu’s options changes nothing', async () => {
      const { menu } = await posted({ options: options(1, 5) });
      const customId = roleMenuCustomId(menu.id, role(1));
      const bait = await sandbox().botRest<{ id: string }>('POST', `/channels/${rolesChannel}/messages`, {
        content: 'bait',
        components: [{ type: 1, components: [{ type: 2, style: 2, label: 'Take', custom_id: customId }] }],
      });
      const member = nextMember();
      const button = await sandbox().click({
        guild_id: STATION,
        channel_id: rolesChannel,
        message_id: bait.id,
        user_id: member,
        custom_id: customId,
      });
      expect(await finalAnswer(harness.sandbox, button)).toBe(ROLE_MENU_OUT_OF_DATE);
      // A select's values are the member's client's to send: one not on the menu is refused too.
      const select = await posted({ style: 'select', options: options(1, 5) });
      const crafted = await sandbox().click({
        guild_id: STATION,
        channel_id: rolesChannel,
        message_id: select.messageId,
        user_id: member,
        custom_id: roleMenuCustomId(select.menu.id),
        values: [role(5), role(1)],
      });
      expect(await finalAnswer(harness.sandbox, crafted)).toBe(ROLE_MENU_OUT_OF_DATE);
      expect(memberRoles(harness.sandbox, STATION, member)).toEqual([]);
    });

    it('a click while the gateway cache lacks the server still applies, and Discord’s refusal is answered', async () => {
      const { stationModerators } = SANDBOX_IDS.roles;
      const posting = await posted({
        options: [...options(1), { role_id: stationModerators, label: 'Mods' }],
      });
      const member = nextMember();
      const cached = worker.client.guilds.cache.get(STATION);
      if (!cached) throw new Error('the station is not cached');
      worker.client.guilds.cache.delete(STATION);
      try {
        expect(await pick('buttons', posting, member, [role(0)])).toBe(`You now have ${mention(0)}.`);
        expect(await pick('buttons', posting, member, [stationModerators])).toMatch(
          new RegExp(`^I couldn't change <@&${stationModerators}> for you`),
        );
        expect(heldOf(member, [...menuRoles, stationModerators])).toEqual([role(0)]);
      } finally {
        worker.client.guilds.cache.set(STATION, cached);
      }
    });

    it('a click waits for the member lock a reaction holds, then applies', async () => {
      const { menu, messageId } = await posted();
      const member = nextMember();
      const lock = storedKey(harness, memberColorLockKey(STATION, member));
      await redis.set(lock, 'a reaction being applied', 'PX', 30_000);
      const clicked = sandbox().click({
        guild_id: STATION,
        channel_id: rolesChannel,
        message_id: messageId,
        user_id: member,
        custom_id: roleMenuCustomId(menu.id, role(0)),
      });
      const picks = storedKey(harness, memberPicksKey('role-menus', STATION, member));
      await waitFor('the click to be recorded as a waiting pick', async () =>
        Object.keys(await redis.hgetall(picks)).some((field) => field.startsWith('p:')),
      );
      expect(holds(member, role(0))).toBe(false);
      await redis.del(lock);
      expect(await finalAnswer(harness.sandbox, await clicked)).toBe(`You now have ${mention(0)}.`);
      expect(holds(member, role(0))).toBe(true);
    });
  });
});
