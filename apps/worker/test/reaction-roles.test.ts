import type { ReactionList } from '@spacecadet/contract';
import type { RoleMenuOption } from '@spacecadet/core';
import {
  ROLE_MENUS_SETUP_CHANNEL,
  saveReactionListChannel,
  saveReactionLists,
} from '@spacecadet/db/queries/role-menus';
import { memberRolePicks, roleMenus } from '@spacecadet/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { guildMenus } from '../src/features/role-menus/menus.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  guildState,
  type Harness,
  holdNextRoleChange,
  jobQueue,
  memberRoles,
  SANDBOX_IDS,
  STATION,
  setupChangesHeard,
  startHarness,
  waitFor,
} from './helpers.ts';

const { roles: rolesChannel, general, announcements } = SANDBOX_IDS.channels;
const { ada, mo, nia } = SANDBOX_IDS.users;
const FRUITS = [...'🍎🍌🍇🍉🍒🍑🍍🥝🥥🥑🍆🥕🌽🥦🍄🥜🌰🍞🥐🥖🧀🥚🍳🥞🥓'];

describe('reaction roles', () => {
  let harness: Harness;
  let worker: RunningWorker | undefined;
  let jobs: ReturnType<typeof jobQueue>;
  const sandbox = () => control(harness.sandbox);
  /** Role ids by name, made once in Discord. */
  const role: Record<string, string> = {};
  const fruitRoles: string[] = [];

  const run = async (name: Parameters<typeof jobs.add>[0]) => jobs.finished((await jobs.add(name)).id ?? '');
  /** Post / Update, then its follow-ups: every step that posts goes through it. */
  const post = async () => {
    const outcome = await run('reaction-roles.post-panel');
    await jobs.followUpsDone();
    return outcome;
  };
  const messagesIn = (channelId: string) =>
    guildState(harness.sandbox, STATION).channels.find((c) => c.id === channelId)?.messages ?? [];
  const message = (channelId: string, id: string | undefined) =>
    messagesIn(channelId).find((m) => m.id === id);
  const botReactions = (channelId: string, id: string | undefined) =>
    (message(channelId, id)?.reactions ?? []).filter((r) => r.me).map((r) => r.emoji.name);
  const reactionsOf = (channelId: string, id: string | undefined, userId: string) =>
    (message(channelId, id)?.reactions ?? [])
      .filter((r) => r.user_ids.includes(userId))
      .map((r) => r.emoji.name);
  const menu = async (list: ReactionList) => {
    const [row] = await harness.database.db.select().from(roleMenus).where(eq(roleMenus.listKey, list));
    if (!row) throw new Error(`no ${list} menu`);
    return row;
  };
  const saveLists = (lists: Record<ReactionList, RoleMenuOption[]>) =>
    saveReactionLists(harness.database.db, STATION, lists, ada);
  const colorRows = (...names: Array<'Red' | 'Blue' | 'Green'>) =>
    names.map((name) => ({ role_id: role[name] ?? '', emoji: { Red: '🔴', Blue: '🔵', Green: '🟢' }[name] }));
  const fruitRows = (count: number) =>
    fruitRoles.slice(0, count).map((roleId, i) => ({ role_id: roleId, emoji: FRUITS[i] }));
  /** The worker's copy of the menus has seen what the last job stored. */
  const menusHeard = () => setupChangesHeard(harness, guildMenus, ROLE_MENUS_SETUP_CHANNEL);
  const reaction = (method: 'POST' | 'DELETE', messageId: string, userId: string, emoji: string) =>
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
      if (!response.ok) throw new Error(`${method} reaction -> ${response.status}: ${await response.text()}`);
    });
  const holds = (userId: string, roleId: string | undefined) =>
    memberRoles(harness.sandbox, STATION, userId).includes(roleId ?? '');

  beforeAll(async () => {
    harness = await startHarness();
    jobs = jobQueue(harness);
    for (const name of ['Red', 'Blue', 'Green']) {
      role[name] = (await sandbox().botRest<{ id: string }>('POST', `/guilds/${STATION}/roles`, { name })).id;
    }
    for (const [i] of FRUITS.entries()) {
      const made = await sandbox().botRest<{ id: string }>('POST', `/guilds/${STATION}/roles`, {
        name: `Fruit ${i + 1}`,
      });
      fruitRoles.push(made.id);
    }
    worker = await startWorker(harness.config());
  });
  afterAll(async () => {
    await worker?.close();
    await jobs?.close();
    await harness.close();
  });

  describe('posting', () => {
    beforeEach(async () => {
      await harness.database.db.delete(roleMenus);
    });

    it('posts both lists, 20 reactions a message, and a repost edits in place', async () => {
      await saveLists({ color_roles: colorRows('Red', 'Blue'), personality_roles: fruitRows(25) });
      await saveReactionListChannel(harness.database.db, STATION, 'color_roles', rolesChannel, ada);
      await saveReactionListChannel(harness.database.db, STATION, 'personality_roles', general, ada);
      const first = await post();
      expect(first.state, first.error).toBe('completed');
      expect(first.result).toMatchObject({ ok: true, summary: 'Reaction panels posted.' });

      const colors = await menu('color_roles');
      const fruits = await menu('personality_roles');
      expect(colors.messageIds).toHaveLength(1);
      expect(colors.messageChannelId).toBe(rolesChannel);
      expect(fruits.messageIds).toHaveLength(2);
      expect(botReactions(rolesChannel, colors.messageIds[0])).toEqual(['🔴', '🔵']);
      expect(botReactions(general, fruits.messageIds[0])).toEqual(FRUITS.slice(0, 20));
      expect(botReactions(general, fruits.messageIds[1])).toEqual(FRUITS.slice(20));
      expect(message(general, fruits.messageIds[1])?.embeds[0]?.title).toBe('Personality Roles (2/2)');

      // Again: the same messages, nothing posted, nothing reacted twice.
      const count = messagesIn(general).length + messagesIn(rolesChannel).length;
      const again = await post();
      expect(again.result).toMatchObject({ ok: true, summary: 'Reaction panels updated.' });
      expect((await menu('color_roles')).messageIds).toEqual(colors.messageIds);
      expect((await menu('personality_roles')).messageIds).toEqual(fruits.messageIds);
      expect(messagesIn(general).length + messagesIn(rolesChannel).length).toBe(count);
      expect(botReactions(general, fruits.messageIds[0])).toEqual(FRUITS.slice(0, 20));

      // A deleted second message is posted again; the first stays.
      await sandbox().botRest('DELETE', `/channels/${general}/messages/${fruits.messageIds[1]}`);
      expect((await post()).state).toBe('completed');
      const reposted = await menu('personality_roles');
      expect(reposted.messageIds[0]).toBe(fruits.messageIds[0]);
      expect(reposted.messageIds[1]).not.toBe(fruits.messageIds[1]);
      expect(botReactions(general, reposted.messageIds[1])).toEqual(FRUITS.slice(20));

      // A shorter list: the second message goes, and a removed row's reaction goes.
      await saveLists({ color_roles: colorRows('Red'), personality_roles: fruitRows(3) });
      expect((await post()).state).toBe('completed');
      const shorter = await menu('personality_roles');
      expect(shorter.messageIds).toEqual([fruits.messageIds[0]]);
      expect(message(general, reposted.messageIds[1])).toBeUndefined();
      expect(botReactions(general, shorter.messageIds[0])).toEqual(FRUITS.slice(0, 3));
      expect(botReactions(rolesChannel, colors.messageIds[0])).toEqual(['🔴']);

      // Another channel: the panel moves.
      await saveReactionListChannel(harness.database.db, STATION, 'color_roles', announcements, ada);
      const moved = await post();
      expect(moved.result).toMatchObject({
        summary: 'Reaction panels updated and moved to the new channel.',
      });
      const movedMenu = await menu('color_roles');
      expect(movedMenu.messageChannelId).toBe(announcements);
      expect(message(rolesChannel, colors.messageIds[0])).toBeUndefined();
      expect(botReactions(announcements, movedMenu.messageIds[0])).toEqual(['🔴']);

      // No rows: the panels go.
      await saveLists({ color_roles: [], personality_roles: [] });
      const removed = await post();
      expect(removed.result).toMatchObject({ summary: 'Reaction panels removed: the lists have no rows.' });
      expect(message(announcements, movedMenu.messageIds[0])).toBeUndefined();
      expect((await menu('color_roles')).messageIds).toEqual([]);
    });

    it('adopts a panel a killed run posted but never recorded, instead of posting a second', async () => {
      await saveLists({ color_roles: colorRows('Red', 'Blue'), personality_roles: [] });
      await saveReactionListChannel(harness.database.db, STATION, 'color_roles', rolesChannel, ada);
      const orphan = await sandbox().botRest<{ id: string }>('POST', `/channels/${rolesChannel}/messages`, {
        embeds: [{ title: 'Color Roles', description: 'half posted' }],
      });
      const before = messagesIn(rolesChannel).length;
      expect((await post()).state).toBe('completed');
      expect((await menu('color_roles')).messageIds).toEqual([orphan.id]);
      expect(messagesIn(rolesChannel).length).toBe(before);
      expect(botReactions(rolesChannel, orphan.id)).toEqual(['🔴', '🔵']);
      await harness.database.db.delete(roleMenus);
      await sandbox().botRest('DELETE', `/channels/${rolesChannel}/messages/${orphan.id}`);
    });

    it('fails clearly when nothing can be posted, and warns about a row it cannot give', async () => {
      await saveLists({ color_roles: colorRows('Red'), personality_roles: [] });
      const failed = await post();
      expect(failed.state, JSON.stringify(failed.result)).toBe('failed');
      expect(failed.error).toMatch(/^invalid_input: Color Roles: pick a channel/);

      await saveReactionListChannel(harness.database.db, STATION, 'color_roles', rolesChannel, ada);
      await saveLists({
        color_roles: [...colorRows('Red'), { role_id: SANDBOX_IDS.roles.stationModerators, emoji: '⬆️' }],
        personality_roles: [],
      });
      const posted = await post();
      expect(posted.state, posted.error).toBe('completed');
      expect(posted.result).toMatchObject({
        warnings: [expect.stringMatching(/^Color Roles, row 2 .*"Moderators".*get nothing until/)],
      });
      // The row keeps its place on the panel: the layout is the stored list's.
      const colors = await menu('color_roles');
      expect(botReactions(rolesChannel, colors.messageIds[0])).toEqual(['🔴', '⬆️']);
      await saveLists({ color_roles: [], personality_roles: [] });
      const removed = await post();
      expect(removed.state, removed.error).toBe('completed');
      expect(removed.result).toMatchObject({ summary: 'Reaction panels removed: the lists have no rows.' });
    });
  });

  describe('members reacting', () => {
    let colorPanel = '';
    let fruitPanel = '';

    beforeAll(async () => {
      await harness.database.db.delete(roleMenus);
      await saveLists({ color_roles: colorRows('Red', 'Blue', 'Green'), personality_roles: fruitRows(3) });
      await saveReactionListChannel(harness.database.db, STATION, 'color_roles', rolesChannel, ada);
      await saveReactionListChannel(harness.database.db, STATION, 'personality_roles', rolesChannel, ada);
      expect((await post()).state).toBe('completed');
      colorPanel = (await menu('color_roles')).messageIds[0] ?? '';
      fruitPanel = (await menu('personality_roles')).messageIds[0] ?? '';
      await menusHeard();
    });

    it('color list: a second color swaps the role and takes the older reaction away', async () => {
      await reaction('POST', colorPanel, mo, '🔴');
      await waitFor('mo to get Red', () => holds(mo, role.Red));
      await reaction('POST', colorPanel, mo, '🔵');
      await waitFor(
        'mo to swap to Blue, her red reaction gone',
        () =>
          holds(mo, role.Blue) &&
          !holds(mo, role.Red) &&
          reactionsOf(rolesChannel, colorPanel, mo).join() === '🔵',
      );
      // Removing the reaction removes the role.
      await reaction('DELETE', colorPanel, mo, '🔵');
      await waitFor('mo to lose Blue', () => !holds(mo, role.Blue));
      expect(holds(mo, role.Red)).toBe(false);
    });

    it('color list: two quick reactions end with one color and its reaction', async () => {
      await Promise.all([reaction('POST', colorPanel, nia, '🔴'), reaction('POST', colorPanel, nia, '🟢')]);
      const held = await waitFor('nia to end with one color and only its reaction', () => {
        const colors = ['Red', 'Green', 'Blue'].filter((name) => holds(nia, role[name]));
        const mine = reactionsOf(rolesChannel, colorPanel, nia);
        const emoji = { Red: '🔴', Green: '🟢', Blue: '🔵' }[colors[0] ?? 'Blue'];
        return colors.length === 1 && mine.length === 1 && mine[0] === emoji ? colors : undefined;
      });
      expect(held).toHaveLength(1);
    });

    it('personality list: a member keeps every role they react to', async () => {
      await reaction('POST', fruitPanel, ada, FRUITS[0] ?? '');
      await reaction('POST', fruitPanel, ada, FRUITS[1] ?? '');
      await waitFor('ada to hold both', () => holds(ada, fruitRoles[0]) && holds(ada, fruitRoles[1]));
      expect(reactionsOf(rolesChannel, fruitPanel, ada)).toEqual(FRUITS.slice(0, 2));
      await reaction('DELETE', fruitPanel, ada, FRUITS[0] ?? '');
      await waitFor('ada to lose the first', () => !holds(ada, fruitRoles[0]));
      expect(holds(ada, fruitRoles[1])).toBe(true);
    });

    it('reactions made while the worker was away are reconciled when it comes back', async () => {
      // ada holds fruit 2 by her reaction (recorded); nia holds fruit 3 without any pick recorded.
      await sandbox().botRest('PUT', `/guilds/${STATION}/members/${nia}/roles/${fruitRoles[2]}`);
      await waitFor('ada pick written', async () =>
        (await harness.database.db.select().from(memberRolePicks)).some(
          (pick) => pick.userId === ada && pick.targetKey === fruitRoles[1],
        ),
      );
      await worker?.close();
      worker = undefined;
      await reaction('DELETE', fruitPanel, ada, FRUITS[1] ?? '');
      await reaction('POST', fruitPanel, mo, FRUITS[0] ?? '');
      await reaction('POST', fruitPanel, mo, FRUITS[2] ?? '');
      expect(holds(ada, fruitRoles[1])).toBe(true);

      worker = await startWorker(harness.config());
      await waitFor(
        'the reconcile',
        () => !holds(ada, fruitRoles[1]) && holds(mo, fruitRoles[0]) && holds(mo, fruitRoles[2]),
      );
      const outcome = await jobs.finished(`role-menus.reconcile.${STATION}`);
      expect(outcome.state).toBe('completed');
      // Never picked by a reaction: kept.
      expect(holds(nia, fruitRoles[2])).toBe(true);
      await menusHeard();
    });

    it('a panel message deleted by an admin is posted again by the repair', async () => {
      await worker?.close();
      worker = await startWorker(harness.config({ REPAIR_DELAY_MS: '200' }));
      await menusHeard();
      await sandbox().botRest('DELETE', `/channels/${rolesChannel}/messages/${colorPanel}`);
      const repaired = await waitFor('the color panel to be posted again', async () => {
        const ids = (await menu('color_roles')).messageIds;
        return ids[0] && ids[0] !== colorPanel && botReactions(rolesChannel, ids[0]).length === 3
          ? ids
          : undefined;
      });
      expect(message(rolesChannel, repaired[0])?.embeds[0]?.title).toBe('Color Roles');
      expect(messagesIn(rolesChannel).filter((m) => m.embeds[0]?.title === 'Color Roles')).toHaveLength(1);
    });

    it('cleared reactions come back; members keep their roles and their picks are forgotten', async () => {
      expect(holds(mo, fruitRoles[0])).toBe(true);
      await sandbox().botRest('DELETE', `/channels/${rolesChannel}/messages/${fruitPanel}/reactions`);
      expect(botReactions(rolesChannel, fruitPanel)).toEqual([]);
      await waitFor('the bot to react again', () => botReactions(rolesChannel, fruitPanel).length === 3);
      expect(botReactions(rolesChannel, fruitPanel)).toEqual(FRUITS.slice(0, 3));
      expect(holds(mo, fruitRoles[0]) && holds(mo, fruitRoles[2])).toBe(true);
      const picks = await harness.database.db.select().from(memberRolePicks);
      expect(picks.filter((pick) => fruitRoles.includes(pick.targetKey))).toEqual([]);
    });

    it('a re-posted panel takes no role away: its reactions are gone, not withdrawn', async () => {
      await reaction('POST', fruitPanel, nia, FRUITS[1] ?? '');
      await waitFor(
        'nia to get the second fruit, recorded',
        async () =>
          holds(nia, fruitRoles[1]) &&
          (await harness.database.db.select().from(memberRolePicks)).some(
            (pick) => pick.userId === nia && pick.targetKey === fruitRoles[1],
          ),
      );
      await sandbox().botRest('DELETE', `/channels/${rolesChannel}/messages/${fruitPanel}`);
      const [reposted] = await waitFor('the fruit panel to be posted again', async () => {
        const ids = (await menu('personality_roles')).messageIds;
        return ids[0] && ids[0] !== fruitPanel && botReactions(rolesChannel, ids[0]).length === 3
          ? ids
          : undefined;
      });
      const reconciled = await run('role-menus.reconcile');
      expect(reconciled.state, reconciled.error).toBe('completed');
      expect(holds(nia, fruitRoles[1])).toBe(true);
      expect(reactionsOf(rolesChannel, reposted, nia)).toEqual([]);
      fruitPanel = reposted ?? '';
    });
  });

  describe('panels whose channel, roles or members changed', () => {
    const { stationModerators } = SANDBOX_IDS.roles;
    const memberRolesToClear = () => [
      ...['Red', 'Blue', 'Green'].map((name) => role[name] ?? ''),
      ...fruitRoles.slice(0, 3),
    ];
    const picksOf = async (userId: string) =>
      (await harness.database.db.select().from(memberRolePicks))
        .filter((pick) => pick.userId === userId)
        .map((pick) => pick.targetKey);
    /** Posts the color list alone in #roles; answers its message id once the worker knows it. */
    const postColors = async (rows: RoleMenuOption[]) => {
      await saveLists({ color_roles: rows, personality_roles: [] });
      await saveReactionListChannel(harness.database.db, STATION, 'color_roles', rolesChannel, ada);
      const posted = await post();
      expect(posted.state, posted.error).toBe('completed');
      await menusHeard();
      return (await menu('color_roles')).messageIds[0] ?? '';
    };
    const reconcileFinishedAfter = (since: number) =>
      waitFor('the reconcile to finish', async () => {
        const job = await jobs.queue.getJob(`role-menus.reconcile.${STATION}`);
        return job?.finishedOn && job.finishedOn >= since ? job : undefined;
      });
    const memberReads = (since: number) =>
      harness.sandbox.world.requests
        .filter(
          (r) => r.seq > since && r.method === 'GET' && r.path.startsWith(`/guilds/${STATION}/members/`),
        )
        .map((r) => r.path.split('/').at(-1));

    beforeEach(async () => {
      if (!worker) worker = await startWorker(harness.config());
      await jobs.followUpsDone();
      await harness.database.db.delete(roleMenus);
      await harness.database.db.delete(memberRolePicks);
      for (const channelId of [rolesChannel, general, announcements]) {
        for (const old of messagesIn(channelId)) {
          await sandbox().botRest('DELETE', `/channels/${channelId}/messages/${old.id}`);
        }
      }
      for (const userId of [ada, mo, nia]) {
        for (const roleId of memberRolesToClear()) {
          if (holds(userId, roleId)) {
            await sandbox().botRest('DELETE', `/guilds/${STATION}/members/${userId}/roles/${roleId}`);
          }
        }
      }
    });

    it('a deleted panel channel takes no role away; the menu counts as not posted', async () => {
      const panel = await postColors(colorRows('Red', 'Blue'));
      await reaction('POST', panel, mo, '🔴');
      await waitFor(
        'mo to get Red, recorded',
        async () => holds(mo, role.Red) && (await picksOf(mo)).length > 0,
      );
      // The channel is gone (the sandbox cannot delete one: the menu points at a channel that no longer exists).
      const gone = '1099999999999999999';
      await harness.database.db
        .update(roleMenus)
        .set({ channelId: gone, messageChannelId: gone })
        .where(eq(roleMenus.listKey, 'color_roles'));
      const reconciled = await run('role-menus.reconcile');
      expect(reconciled.state, reconciled.error).toBe('completed');
      expect(reconciled.result).toMatchObject({
        warnings: [expect.stringMatching(/^Color Roles: the channel of its panel was deleted/)],
      });
      expect(holds(mo, role.Red)).toBe(true);
      expect((await menu('color_roles')).messageIds).toEqual([]);
    });

    it('a repair keeps the panel where it is; only Post / Update moves it to a new channel', async () => {
      const panel = await postColors(colorRows('Red', 'Blue'));
      await reaction('POST', panel, mo, '🔵');
      await waitFor('mo to get Blue', () => holds(mo, role.Blue));
      await saveReactionListChannel(harness.database.db, STATION, 'color_roles', announcements, ada);
      const repaired = await run('role-menus.repair');
      expect(repaired.state, repaired.error).toBe('completed');
      const kept = await menu('color_roles');
      expect(kept.messageChannelId).toBe(rolesChannel);
      expect(kept.messageIds).toEqual([panel]);
      expect(reactionsOf(rolesChannel, panel, mo)).toEqual(['🔵']);
      const moved = await post();
      expect(moved.result).toMatchObject({
        summary: 'Reaction panels updated and moved to the new channel.',
      });
      expect((await menu('color_roles')).messageChannelId).toBe(announcements);
    });

    it('a re-post adopts the page a killed run posted before recording it, instead of a second', async () => {
      await saveLists({ color_roles: [], personality_roles: fruitRows(25) });
      await saveReactionListChannel(harness.database.db, STATION, 'personality_roles', general, ada);
      expect((await post()).state).toBe('completed');
      const [first, second] = (await menu('personality_roles')).messageIds;
      // The second page was deleted, and a run re-posting it was killed before it stored the new id.
      await sandbox().botRest('DELETE', `/channels/${general}/messages/${second}`);
      const orphan = await sandbox().botRest<{ id: string }>('POST', `/channels/${general}/messages`, {
        embeds: [{ title: 'Personality Roles (2/2)', description: 'half posted' }],
      });
      expect((await post()).state).toBe('completed');
      expect((await menu('personality_roles')).messageIds).toEqual([first, orphan.id]);
      const titled = messagesIn(general).filter((m) => m.embeds[0]?.title?.startsWith('Personality Roles'));
      expect(titled).toHaveLength(2);
      expect(botReactions(general, orphan.id)).toEqual(FRUITS.slice(20));
    });

    it('a row the bot cannot give keeps its place and reactions; its picks are refused', async () => {
      const panel = await postColors([
        ...colorRows('Red'),
        { role_id: stationModerators, emoji: '⬆️' },
        ...colorRows('Green'),
      ]);
      expect(botReactions(rolesChannel, panel)).toEqual(['🔴', '⬆️', '🟢']);
      await reaction('POST', panel, nia, '🟢');
      await waitFor('nia to get Green', () => holds(nia, role.Green));
      await reaction('POST', panel, mo, '⬆️');
      await waitFor("mo's refused reaction to go", () => reactionsOf(rolesChannel, panel, mo).length === 0);
      expect(holds(mo, stationModerators)).toBe(false);
      const repaired = await run('role-menus.repair');
      expect(repaired.result).toMatchObject({
        summary: 'Everything was in place.',
        warnings: [expect.stringMatching(/^Color Roles, row 2 .*"Moderators"/)],
      });
      expect(botReactions(rolesChannel, panel)).toEqual(['🔴', '⬆️', '🟢']);
      expect(reactionsOf(rolesChannel, panel, nia)).toEqual(['🟢']);
    });

    it('a member who unreacts while a reconcile runs does not get the role back from it', async () => {
      await saveLists({ color_roles: [], personality_roles: fruitRows(3) });
      await saveReactionListChannel(harness.database.db, STATION, 'personality_roles', rolesChannel, ada);
      expect((await post()).state).toBe('completed');
      const panel = (await menu('personality_roles')).messageIds[0] ?? '';
      await worker?.close();
      worker = undefined;
      // While the worker is away mo and nia react; the reconcile reads both, gives mo's role first.
      await reaction('POST', panel, mo, FRUITS[0] ?? '');
      await reaction('POST', panel, nia, FRUITS[1] ?? '');
      const held = await holdNextRoleChange(harness, mo, 'PUT', 3);
      const since = Date.now();
      worker = await startWorker(harness.config());
      await held();
      // nia unreacts after the reconcile read the reactions: the live handler reads her roles.
      const before = harness.sandbox.world.requests.at(-1)?.seq ?? 0;
      await reaction('DELETE', panel, nia, FRUITS[1] ?? '');
      await waitFor('the live handler to read nia', () => memberReads(before).includes(nia));
      const reconciled = await reconcileFinishedAfter(since);
      expect(reconciled.failedReason).toBeUndefined();
      expect(holds(mo, fruitRoles[0])).toBe(true);
      expect(holds(nia, fruitRoles[1])).toBe(false);
    });

    it('a restart reads from Discord only the members whose reactions differ from their picks', async () => {
      const panel = await postColors(colorRows('Red', 'Blue'));
      await reaction('POST', panel, mo, '🔴');
      await reaction('POST', panel, nia, '🔵');
      await waitFor(
        'both picks recorded',
        async () =>
          (await picksOf(mo)).includes(role.Red ?? '') && (await picksOf(nia)).includes(role.Blue ?? ''),
      );
      await worker?.close();
      worker = undefined;
      await reaction('POST', panel, ada, '🔴');
      const before = harness.sandbox.world.requests.at(-1)?.seq ?? 0;
      const since = Date.now();
      worker = await startWorker(harness.config());
      await reconcileFinishedAfter(since);
      expect(holds(ada, role.Red)).toBe(true);
      const members: readonly string[] = [ada, mo, nia];
      expect(memberReads(before).filter((id) => members.includes(id ?? ''))).toEqual([ada]);
    });

    it('a panel channel the bot can no longer see is a warning, not "the bot is not in this server"', async () => {
      await postColors(colorRows('Red'));
      const overwrite = `${harness.sandbox.url}/_sandbox/channels/${rolesChannel}/permissions/${SANDBOX_IDS.roles.stationBot}`;
      const denied = await fetch(overwrite, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 0, allow: '0', deny: String(1n << 10n) }),
      });
      expect(denied.status).toBe(200);
      try {
        const reconciled = await run('role-menus.reconcile');
        expect(reconciled.state, reconciled.error).toBe('completed');
        expect(reconciled.result).toMatchObject({
          warnings: expect.arrayContaining([expect.stringMatching(/roles/)]),
        });
      } finally {
        await fetch(overwrite, { method: 'DELETE' });
      }
    });
  });
});
