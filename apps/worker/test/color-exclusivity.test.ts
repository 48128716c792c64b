import type { RoleMenuMode } from '@spacecadet/contract';
import { REMOVE_COLOR_CUSTOM_ID, roleMenuCustomId } from '@spacecadet/core';
import { COLOR_SETUP_CHANNEL } from '@spacecadet/db/queries/color-roles';
import { COLOR_PICK_SCOPE, menuPickScope } from '@spacecadet/db/queries/member-picks';
import {
  createOwnMenu,
  ROLE_MENUS_SETUP_CHANNEL,
  requestMenuPost,
  saveReactionListChannel,
  saveReactionLists,
} from '@spacecadet/db/queries/role-menus';
import { colors, memberRolePicks, type RoleMenuRow, roleMenus } from '@spacecadet/db/schema';
import { waitFor } from '@spacecadet/testing';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLOR_REMOVED_MESSAGE } from '../src/features/color-roles/assign.ts';
import { managedIds } from '../src/features/repairs/managed-ids.ts';
import { guildMenus } from '../src/features/role-menus/menus.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  finalAnswer,
  guildState,
  type Harness,
  jobQueue,
  memberRoles,
  postStationColorPanel,
  SANDBOX_IDS,
  STATION,
  setupChangesHeard,
  startHarness,
  stationWithCrowd,
} from './helpers.ts';

const { roles: rolesChannel } = SANDBOX_IDS.channels;
const { ada } = SANDBOX_IDS.users;
/** The Color Roles reaction list: a row (emoji) for each of these colours of the palette. */
const LIST_EMOJIS: Record<string, string> = { Red: '🔴', Blue: '🔵', Orange: '🟠', Pink: '🌸' };

/**
 * "One color role at a time" is a rule about the member: the colour panel, the Color Roles
 * reaction list and any role menu listing palette roles (unique or normal) all swap the
 * member's colour through one place, under one lock.
 */
describe('one color role at a time, whichever way it was picked', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;
  let crowd: string[] = [];
  let colorPanel = '';
  let colorList: RoleMenuRow;
  let uniqueMenu: { menu: RoleMenuRow; messageId: string };
  let normalMenu: { menu: RoleMenuRow; messageId: string };
  /** The palette's colours by name: role id and palette id. */
  const palette = new Map<string, { roleId: string; id: string }>();

  const sandbox = () => control(harness.sandbox);
  const nextMember = () => {
    const member = crowd.shift();
    if (!member) throw new Error('the crowd ran out');
    return member;
  };
  const colorOf = (name: string) => {
    const color = palette.get(name);
    if (!color) throw new Error(`no ${name} in the palette`);
    return color;
  };
  const roleOf = (name: string) => colorOf(name).roleId;
  const mention = (name: string) => `<@&${roleOf(name)}>`;
  /** The names of the palette colours the member holds in Discord. */
  const colorsOf = (member: string) => {
    const held = new Set(memberRoles(harness.sandbox, STATION, member));
    return [...palette.entries()].filter(([, color]) => held.has(color.roleId)).map(([name]) => name);
  };
  const run = async (name: Parameters<typeof jobs.add>[0]) => {
    const outcome = await jobs.finished((await jobs.add(name)).id ?? '');
    await jobs.followUpsDone();
    expect(outcome.state, outcome.error).toBe('completed');
  };
  const postMenu = async (mode: RoleMenuMode, names: readonly string[]) => {
    const menu = await createOwnMenu(
      harness.database.db,
      STATION,
      {
        title: `Colors (${mode})`,
        description: 'Pick a color.',
        color: null,
        channelId: rolesChannel,
        style: 'buttons',
        mode,
        maxRoles: null,
        requiredRoleId: null,
        options: names.map((name) => ({ role_id: roleOf(name), label: name })),
      },
      ada,
      10,
    );
    if (!menu) throw new Error('menu not created');
    expect(await requestMenuPost(harness.database.db, STATION, menu.id)).not.toBeNull();
    await run('role-menus.post');
    const [posted] = await harness.database.db.select().from(roleMenus).where(eq(roleMenus.id, menu.id));
    const messageId = posted?.messageIds[0];
    if (!posted || !messageId) throw new Error('the menu was not posted');
    return { menu: posted, messageId };
  };

  /** A click on the colour panel; resolves with its final answer (the role change is in). */
  const panelClick = async (member: string, customId: string) => {
    const result = await sandbox().click({
      guild_id: STATION,
      channel_id: rolesChannel,
      message_id: colorPanel,
      user_id: member,
      custom_id: customId,
    });
    return finalAnswer(harness.sandbox, result);
  };
  const panelPick = (member: string, name: string) => panelClick(member, `color:pick:${name}`);
  /** A button click on one of the admin's own menus; resolves with its final answer. */
  const menuPick = async (menu: { menu: RoleMenuRow; messageId: string }, member: string, name: string) => {
    const result = await sandbox().click({
      guild_id: STATION,
      channel_id: rolesChannel,
      message_id: menu.messageId,
      user_id: member,
      custom_id: roleMenuCustomId(menu.menu.id, roleOf(name)),
    });
    return finalAnswer(harness.sandbox, result);
  };
  /** A reaction on the Color Roles list (applied later, from the gateway). */
  const listReaction = async (member: string, name: string) => {
    const response = await fetch(`${harness.sandbox.url}/_sandbox/reactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        guild_id: STATION,
        channel_id: rolesChannel,
        message_id: colorList.messageIds[0],
        user_id: member,
        emoji: LIST_EMOJIS[name],
      }),
    });
    if (!response.ok) throw new Error(`reaction -> ${response.status}: ${await response.text()}`);
  };
  /** The member's reactions on the Color Roles list, as emoji. */
  const listReactionsOf = (member: string) =>
    (
      guildState(harness.sandbox, STATION)
        .channels.find((channel) => channel.id === rolesChannel)
        ?.messages.find((message) => message.id === colorList.messageIds[0])?.reactions ?? []
    )
      .filter((reaction) => reaction.user_ids.includes(member))
      .map((reaction) => reaction.emoji.name);
  /** The member's recorded picks (`member_role_picks`) as `scope=target`, once written. */
  const picksOf = async (member: string) =>
    (
      await harness.database.db
        .select()
        .from(memberRolePicks)
        .where(eq(memberRolePicks.userId, member))
        .orderBy(asc(memberRolePicks.scope))
    ).map((pick) => `${pick.scope}=${pick.targetKey}`);
  /** Waits for `check`, failing with what it last saw. */
  const until = async <T>(what: string, read: () => Promise<T> | T, check: (value: T) => boolean) => {
    let seen: T | undefined;
    const found = await waitFor(
      () => `${what}; last saw ${JSON.stringify(seen)}`,
      async () => {
        const value = await read();
        seen = value;
        return check(value) ? { value } : undefined;
      },
    );
    return found.value;
  };

  beforeAll(async () => {
    const world = stationWithCrowd('2000000343', 10, 'painter');
    crowd = world.crowd;
    harness = await startHarness(world.fixture);
    worker = await startWorker(harness.config());
    jobs = jobQueue(harness);
    colorPanel = await postStationColorPanel(harness);
    for (const color of await harness.database.db.select().from(colors)) {
      if (color.roleId) palette.set(color.name, { roleId: color.roleId, id: String(color.id) });
    }
    await saveReactionLists(
      harness.database.db,
      STATION,
      {
        color_roles: Object.entries(LIST_EMOJIS).map(([name, emoji]) => ({ role_id: roleOf(name), emoji })),
        personality_roles: [],
      },
      ada,
    );
    await saveReactionListChannel(harness.database.db, STATION, 'color_roles', rolesChannel, ada);
    await run('reaction-roles.post-panel');
    const [list] = await harness.database.db
      .select()
      .from(roleMenus)
      .where(eq(roleMenus.listKey, 'color_roles'));
    if (!list?.messageIds[0]) throw new Error('the Color Roles list was not posted');
    colorList = list;
    uniqueMenu = await postMenu('unique', ['Green', 'Pink', 'Red']);
    normalMenu = await postMenu('normal', ['Yellow', 'Green', 'Orange']);
    // The worker's copies of the menus and of the palette's roles have seen all of it.
    await setupChangesHeard(harness, guildMenus, ROLE_MENUS_SETUP_CHANNEL);
    await setupChangesHeard(harness, managedIds, COLOR_SETUP_CHANNEL);
  });
  afterAll(async () => {
    await worker?.close();
    await jobs?.close();
    await harness.close();
  });

  it('panel, then reaction list, then a unique menu, then a normal menu: one color each time, the last picked', async () => {
    const member = nextMember();
    expect(await panelPick(member, 'Yellow')).toBe('You now have the **Yellow** color.');
    expect(colorsOf(member)).toEqual(['Yellow']);

    // The list does not list Yellow: the reaction gives Blue and swaps out the panel's Yellow.
    await listReaction(member, 'Blue');
    await until(
      'Blue from the list',
      () => colorsOf(member),
      (held) => held.includes('Blue'),
    );
    await until(
      'Yellow to be taken away',
      () => colorsOf(member),
      (held) => !held.includes('Yellow'),
    );
    expect(colorsOf(member)).toEqual(['Blue']);
    expect(listReactionsOf(member)).toEqual([LIST_EMOJIS.Blue]);

    // A unique menu without Blue swaps out the list's Blue, and the list's reaction goes.
    expect(await menuPick(uniqueMenu, member, 'Green')).toBe(`You now have ${mention('Green')}.`);
    expect(colorsOf(member)).toEqual(['Green']);
    expect(listReactionsOf(member)).toEqual([]);

    // A normal menu toggles its roles, but a colour picked there is still the member's one colour.
    expect(await menuPick(normalMenu, member, 'Yellow')).toBe(
      `You now have ${mention('Yellow')} and no longer ${mention('Green')}.`,
    );
    expect(colorsOf(member)).toEqual(['Yellow']);

    // Back on the panel: the normal menu's colour is swapped out like any other.
    expect(await panelPick(member, 'Orange')).toBe('You now have the **Orange** color.');
    expect(colorsOf(member)).toEqual(['Orange']);

    // The records agree with the roles: the colour pick is Orange, and no menu keeps a pick of a
    // colour taken away (a recreated role goes back only to who holds it).
    await until(
      'the picks to agree with the roles',
      () => picksOf(member),
      (recorded) => recorded.join() === `${COLOR_PICK_SCOPE}=color:${colorOf('Orange').id}`,
    );
  });

  it('a color picked (or removed) on the panel or a menu takes away the member’s reaction of the color it swaps out', async () => {
    const member = nextMember();
    await listReaction(member, 'Red');
    await until(
      'Red from the list',
      () => colorsOf(member),
      (held) => held.includes('Red'),
    );
    expect(await panelPick(member, 'Blue')).toBe('You now have the **Blue** color.');
    expect(colorsOf(member)).toEqual(['Blue']);
    expect(listReactionsOf(member)).toEqual([]);
    // The list's record of Red is gone; the colour pick is Blue.
    await until(
      "the list's pick of Red to be forgotten",
      () => picksOf(member),
      (recorded) => recorded.join() === `${COLOR_PICK_SCOPE}=color:${colorOf('Blue').id}`,
    );

    await listReaction(member, 'Pink');
    await until(
      'Pink from the list',
      () => colorsOf(member),
      (held) => held.join() === 'Pink',
    );
    // A normal menu's pick swaps out Pink and takes the list's reaction of it away.
    expect(await menuPick(normalMenu, member, 'Orange')).toBe(`You now have ${mention('Orange')}.`);
    expect(colorsOf(member)).toEqual(['Orange']);
    expect(listReactionsOf(member)).toEqual([]);
    await until(
      'the picks to agree with the roles',
      () => picksOf(member),
      (recorded) =>
        recorded.join() ===
        [
          `${COLOR_PICK_SCOPE}=color:${colorOf('Orange').id}`,
          `${menuPickScope(normalMenu.menu.id, roleOf('Orange'))}=${roleOf('Orange')}`,
        ].join(),
    );

    // The panel's Remove color takes a colour of the list away with its reaction.
    await listReaction(member, 'Red');
    await until(
      'Red from the list',
      () => colorsOf(member),
      (held) => held.join() === 'Red',
    );
    expect(await panelClick(member, REMOVE_COLOR_CUSTOM_ID)).toBe(COLOR_REMOVED_MESSAGE);
    expect(colorsOf(member)).toEqual([]);
    expect(listReactionsOf(member)).toEqual([]);
  });

  it('picks made at once on the panel, the reaction list and a unique menu end with one color, the last applied', async () => {
    const member = nextMember();
    const before = harness.sandbox.world.requests.at(-1)?.seq ?? 0;
    const picked = ['Yellow', 'Orange', 'Pink'];
    const [panelAnswer, , menuAnswer] = await Promise.all([
      panelPick(member, 'Yellow'),
      listReaction(member, 'Orange'),
      menuPick(uniqueMenu, member, 'Pink'),
    ]);
    expect(panelAnswer).toBe('You now have the **Yellow** color.');
    expect(menuAnswer).toMatch(new RegExp(`^You now have ${mention('Pink')}`));
    // Every pick gave its role once; the order they were applied in is Discord's record.
    const gives = await until(
      'each pick to give its role',
      () =>
        harness.sandbox.world.requests
          .filter(
            (request) =>
              request.seq > before &&
              request.method === 'PUT' &&
              request.status < 300 &&
              request.path.startsWith(`/guilds/${STATION}/members/${member}/roles/`),
          )
          .map((request) => request.path.split('/').at(-1)),
      (ids) => picked.every((name) => ids.includes(roleOf(name))),
    );
    const last = picked.find((name) => roleOf(name) === gives.at(-1));
    if (!last) throw new Error(`an unexpected role was given last: ${gives.at(-1)}`);
    const held = await until(
      `${last} alone`,
      () => colorsOf(member),
      (names) => names.join() === last,
    );
    expect(held).toEqual([last]);
    // The list keeps the member's reaction only for the colour they hold.
    const emojis = last === 'Orange' ? [LIST_EMOJIS.Orange] : [];
    await until(
      'the list to keep only the reaction of the colour held',
      () => listReactionsOf(member),
      (mine) => mine.join() === emojis.join(),
    );
    // The colour pick is the colour held, and no menu keeps a pick of a colour taken away.
    const others = picked.filter((name) => name !== last).map(roleOf);
    await until(
      'the picks to agree with the roles',
      () => picksOf(member),
      (recorded) =>
        recorded.includes(`${COLOR_PICK_SCOPE}=color:${colorOf(last).id}`) &&
        !recorded.some((pick) => others.some((roleId) => pick.endsWith(`=${roleId}`))),
    );
  });
});
