import { jobIdFor } from '@spacecadet/contract';
import { roleBoostUserId, roleMenuCustomId } from '@spacecadet/core';
import { loadColorRolesMode } from '@spacecadet/db/queries/color-roles';
import {
  attachSnapshot,
  beginHistoryEntry,
  claimUndo,
  completeHistoryEntry,
  loadHistoryEntry,
} from '@spacecadet/db/queries/history';
import {
  createOwnMenu,
  requestMenuPost,
  saveReactionListChannel,
  saveReactionLists,
} from '@spacecadet/db/queries/role-menus';
import {
  colorPanels,
  colorShades,
  colors,
  guildConfigs,
  levelingBoosts,
  levelingRoles,
  levelingSettings,
  memberRolePicks,
  roleMenus,
} from '@spacecadet/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  finalAnswer,
  guildState,
  type Harness,
  jobQueue,
  memberReacts,
  memberRoles,
  SANDBOX_IDS,
  STATION,
  startHarness,
  waitFor,
} from './helpers.ts';

const rolesChannel = SANDBOX_IDS.channels.roles;
const { nia, mo, ada } = SANDBOX_IDS.users;

describe('color-roles reset and its undo', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;

  const db = () => harness.database.db;
  const run = async (name: Parameters<typeof jobs.add>[0]) => jobs.finished((await jobs.add(name)).id ?? '');
  /** Queues a job as the API does for a recorded request: its payload names the history entry. */
  const runFor = async (name: 'color-roles.reset' | 'color-roles.restore', entryId: number) => {
    const jobId = jobIdFor(name, STATION);
    await (await jobs.queue.getJob(jobId))?.remove();
    await jobs.queue.add(
      name,
      { guild_id: STATION, requested_by: SANDBOX_IDS.users.ada, history_entry_id: entryId },
      { jobId, attempts: 3, backoff: { type: 'exponential', delay: 500 } },
    );
    return jobs.finished(jobId);
  };
  /** An entry as the API's route leaves it (recorded, its snapshot to come from the job). */
  const entry = async (action: 'color_roles.reset' | 'history.undo') => {
    const id = await beginHistoryEntry(db(), {
      guildId: STATION,
      actorId: SANDBOX_IDS.users.ada,
      actorName: 'ada',
      actorAvatar: null,
      area: 'color_roles',
      action,
      subject: 'color_roles',
    });
    await completeHistoryEntry(db(), id, {
      summary: action,
      undoKind: action === 'history.undo' ? null : 'snapshot',
    });
    return id;
  };
  /** Reset Color Roles, then its undo, as the API asks for them; the restore job's outcome. */
  const resetThenUndo = async () => {
    const resetId = await entry('color_roles.reset');
    expect((await runFor('color-roles.reset', resetId)).state).toBe('completed');
    const undoId = await entry('history.undo');
    expect(await claimUndo(db(), STATION, resetId, undoId, { restore: true })).toBe(true);
    const restore = await runFor('color-roles.restore', undoId);
    expect(restore.state, restore.error).toBe('completed');
    return restore;
  };
  const roles = () => guildState(harness.sandbox, STATION).roles;
  const roleNamed = (name: string) => roles().find((role) => role.name === name);
  const idOf = (name: string) => roleNamed(name)?.id ?? '';
  const messagesIn = (channelId: string) =>
    guildState(harness.sandbox, STATION).channels.find((c) => c.id === channelId)?.messages ?? [];
  const give = (userId: string, roleId: string) =>
    control(harness.sandbox).botRest('PUT', `/guilds/${STATION}/members/${userId}/roles/${roleId}`);
  /** Everything a run decides: Discord's roles, every member's roles, the palette, the panel. */
  const everything = async () => ({
    roles: roles()
      .map((role) => `${role.id} ${role.name} ${role.color} ${role.position}`)
      .sort(),
    members: guildState(harness.sandbox, STATION).members.map((m) => [m.user_id, [...m.roles].sort()]),
    colors: (await db().select().from(colors)).map((row) => [row.id, row.name, row.roleId]).sort(),
    messages: messagesIn(rolesChannel).map((message) => message.id),
    picks: (await db().select().from(memberRolePicks)).map((p) => `${p.userId} ${p.targetKey}`).sort(),
  });

  beforeAll(async () => {
    harness = await startHarness();
    worker = await startWorker(harness.config());
    jobs = jobQueue(harness);
  });
  afterEach(async () => {
    expect((await run('color-roles.reset')).state).toBe('completed');
  });
  afterAll(async () => {
    await jobs?.close();
    await worker?.close();
    await harness.close();
  });

  it('the undo brings back the palette, the roles in their order, their holders and the panel; a rerun changes nothing', async () => {
    await db().insert(colorPanels).values({ guildId: STATION, channelId: rolesChannel });
    expect((await run('color-roles.generate')).state).toBe('completed');
    expect((await run('color-roles.post-panel')).state).toBe('completed');
    const red = roleNamed('Red');
    const blue = roleNamed('Blue');
    if (!red || !blue) throw new Error('generate made no Red or Blue role');
    await give(nia, red.id);
    await give(mo, blue.id);
    const order = roles()
      .filter((role) => role.position > 0)
      .sort((a, b) => a.position - b.position)
      .map((role) => role.name);
    const paletteBefore = (await db().select().from(colors)).map((row) => [row.id, row.name, row.hexCode]);

    const resetId = await entry('color_roles.reset');
    const reset = await runFor('color-roles.reset', resetId);
    expect(reset.state).toBe('completed');
    expect(roleNamed('Red')).toBeUndefined();
    expect(messagesIn(rolesChannel)).toHaveLength(0);
    const stored = await loadHistoryEntry(db(), STATION, resetId);
    expect(stored?.snapshotReady).not.toBeNull();
    expect(stored?.snapshot).toMatchObject({ holdersFrom: 'members', panel: { posted: true } });

    // As the undo route does: claim the undo, asking for the restore job.
    const undoId = await entry('history.undo');
    expect(await claimUndo(db(), STATION, resetId, undoId, { restore: true })).toBe(true);
    const restore = await runFor('color-roles.restore', undoId);
    expect(restore.state).toBe('completed');
    expect(restore.result).toMatchObject({ ok: true, created: 12 });

    const redAgain = roleNamed('Red');
    expect(redAgain?.color).toBe(red.color);
    expect(memberRoles(harness.sandbox, STATION, nia)).toContain(redAgain?.id);
    expect(memberRoles(harness.sandbox, STATION, mo)).toContain(roleNamed('Blue')?.id);
    expect(
      roles()
        .filter((role) => role.position > 0)
        .sort((a, b) => a.position - b.position)
        .map((role) => role.name),
    ).toEqual(order);
    expect((await db().select().from(colors)).map((row) => [row.id, row.name, row.hexCode])).toEqual(
      paletteBefore,
    );
    expect(messagesIn(rolesChannel)).toHaveLength(1);
    expect((await loadHistoryEntry(db(), STATION, resetId))?.restoredAt).not.toBeNull();

    // A second run finds nothing requested and changes nothing.
    const before = await everything();
    const again = await runFor('color-roles.restore', undoId);
    expect(again.result).toMatchObject({ ok: true, summary: 'Nothing to restore.' });
    expect(await everything()).toEqual(before);
  });

  it('puts the color mode back, so the holders of shade roles get their shade again', async () => {
    const setMode = (mode: 'basic' | 'shades') =>
      db()
        .insert(guildConfigs)
        .values({ guildId: STATION, data: { color_roles_mode: mode, kept: true } })
        .onConflictDoUpdate({
          target: guildConfigs.guildId,
          set: { data: { color_roles_mode: mode, kept: true } },
        });
    try {
      await setMode('shades');
      expect((await run('color-roles.generate')).state).toBe('completed');
      const crimson = roleNamed('Crimson');
      if (!crimson) throw new Error('generate made no Crimson role in shades mode');
      await give(nia, crimson.id);
      const resetId = await entry('color_roles.reset');
      expect((await runFor('color-roles.reset', resetId)).state).toBe('completed');
      expect((await loadHistoryEntry(db(), STATION, resetId))?.snapshot).toMatchObject({ mode: 'shades' });

      // The admin switched to basic since; the undo brings the palette back as it was.
      await setMode('basic');
      const undoId = await entry('history.undo');
      expect(await claimUndo(db(), STATION, resetId, undoId, { restore: true })).toBe(true);
      expect((await runFor('color-roles.restore', undoId)).state).toBe('completed');

      expect(await loadColorRolesMode(db(), STATION)).toBe('shades');
      const [config] = await db().select().from(guildConfigs).where(eq(guildConfigs.guildId, STATION));
      expect(config?.data).toEqual({ color_roles_mode: 'shades', kept: true });
      const crimsonAgain = roleNamed('Crimson');
      expect(crimsonAgain?.color).toBe(crimson.color);
      expect(memberRoles(harness.sandbox, STATION, nia)).toContain(crimsonAgain?.id);
      // Red has shades: in shades mode it has no role of its own.
      expect(roleNamed('Red')).toBeUndefined();
    } finally {
      await db().delete(guildConfigs).where(eq(guildConfigs.guildId, STATION));
    }
  });

  it('an entry it cannot restore does not hold up the others: its undo is given back, with a warning', async () => {
    expect((await run('color-roles.generate')).state).toBe('completed');
    const good = await entry('color_roles.reset');
    expect((await runFor('color-roles.reset', good)).state).toBe('completed');
    // An entry whose snapshot lacks the palette (unreadable): no retry can restore it.
    const bad = await entry('color_roles.reset');
    await attachSnapshot(db(), STATION, bad, { holders: {} }, { ready: true });
    const undoId = await entry('history.undo');
    expect(await claimUndo(db(), STATION, good, undoId, { restore: true })).toBe(true);
    expect(await claimUndo(db(), STATION, bad, undoId, { restore: true })).toBe(true);

    const restore = await runFor('color-roles.restore', undoId);
    expect(restore.state, restore.error).toBe('completed');
    expect((restore.result as { warnings?: string[] }).warnings).toEqual([
      `"color_roles.reset" was not undone: History entry ${bad} holds nothing to restore. Undo it again once that is fixed.`,
    ]);
    expect(roleNamed('Red')).toBeDefined();
    expect((await loadHistoryEntry(db(), STATION, good))?.restoredAt).not.toBeNull();
    expect(await loadHistoryEntry(db(), STATION, bad)).toMatchObject({
      undoneBy: null,
      restoreRequestedAt: null,
      restoredAt: null,
    });

    // Alone, it fails the job with its reason (and is given back again).
    expect(await claimUndo(db(), STATION, bad, undoId, { restore: true })).toBe(true);
    const alone = await runFor('color-roles.restore', undoId);
    expect(alone.state).toBe('failed');
    expect(alone.error).toMatch(/holds nothing to restore/);
    expect((await loadHistoryEntry(db(), STATION, bad))?.undoneBy).toBeNull();
  });

  it('moves every menu, reaction row, reward, no-XP role and boost to the recreated roles: a click and a reaction give them', async () => {
    expect((await run('color-roles.generate')).state).toBe('completed');
    const red = idOf('Red');
    const blue = idOf('Blue');
    const green = idOf('Green');
    if (!red || !blue || !green) throw new Error('generate made no Red, Blue or Green role');
    try {
      const menuOf = (title: string, requiredRoleId: string | null) =>
        createOwnMenu(
          db(),
          STATION,
          {
            title,
            description: 'Pick a color.',
            color: null,
            channelId: rolesChannel,
            style: 'buttons',
            mode: 'normal',
            maxRoles: null,
            requiredRoleId,
            options: [
              { role_id: red, label: 'Red', emoji: '🔴' },
              { role_id: blue, label: 'Blue', emoji: '🔵' },
            ],
          },
          ada,
          1_000,
        );
      const menu = await menuOf('Colors menu', null);
      const gated = await menuOf('Red members only', green);
      if (!menu || !gated) throw new Error('menus not created');
      expect(await requestMenuPost(db(), STATION, menu.id)).not.toBeNull();
      expect((await run('role-menus.post')).state).toBe('completed');
      await saveReactionLists(
        db(),
        STATION,
        {
          color_roles: [
            { role_id: red, emoji: '🔴' },
            { role_id: blue, emoji: '🔵' },
          ],
          personality_roles: [],
        },
        ada,
      );
      await saveReactionListChannel(db(), STATION, 'color_roles', rolesChannel, ada);
      expect((await run('reaction-roles.post-panel')).state).toBe('completed');
      await jobs.followUpsDone();
      await db()
        .insert(levelingRoles)
        .values({ guildId: STATION, roleName: 'Red', levelRequired: 5, roleId: red });
      await db()
        .insert(levelingSettings)
        .values({ guildId: STATION, noXpRoles: [blue, SANDBOX_IDS.roles.stationCrew] });
      await db()
        .insert(levelingBoosts)
        .values({ guildId: STATION, userId: roleBoostUserId(green), multiplier: 2 });

      const restore = await resetThenUndo();
      // The repair the restore queued updates the posted menus.
      await jobs.followUpsDone();

      const newRed = idOf('Red');
      const newBlue = idOf('Blue');
      const newGreen = idOf('Green');
      expect([newRed, newBlue, newGreen]).not.toContain(red);
      // The personality list is saved empty beside it.
      const menus = (await db().select().from(roleMenus)).filter((row) => row.options.length > 0);
      expect(menus).toHaveLength(3);
      for (const row of menus) {
        expect(row.options.map((option) => option.role_id)).toEqual([newRed, newBlue]);
      }
      expect(menus.find((row) => row.id === gated.id)?.requiredRoleId).toBe(newGreen);
      expect((await db().select().from(levelingRoles)).map((row) => row.roleId)).toEqual([newRed]);
      expect((await db().select().from(levelingSettings))[0]?.noXpRoles).toEqual([
        newBlue,
        SANDBOX_IDS.roles.stationCrew,
      ]);
      expect((await db().select().from(levelingBoosts)).map((row) => row.userId)).toEqual([
        roleBoostUserId(newGreen),
      ]);

      expect((restore.result as { summary: string }).summary).toContain(
        'Moved to the new roles: 3 role menus, 1 reward role, 1 no-XP role, 1 role boost.',
      );

      // The posted menu's buttons name the new role: a click gives it.
      const posted = menus.find((row) => row.id === menu.id);
      const messageId = posted?.messageIds[0] ?? '';
      const buttons = (messagesIn(rolesChannel).find((m) => m.id === messageId)?.components ?? []).flatMap(
        (row) => (row as { components?: Array<{ custom_id?: string }> }).components ?? [],
      );
      const blueButton = roleMenuCustomId(menu.id, newBlue);
      expect(buttons.map((button) => button.custom_id)).toContain(blueButton);
      const click = await control(harness.sandbox).click({
        guild_id: STATION,
        channel_id: rolesChannel,
        message_id: messageId,
        user_id: mo,
        custom_id: blueButton,
      });
      expect(await finalAnswer(harness.sandbox, click)).toBe(`You now have <@&${newBlue}>.`);
      expect(memberRoles(harness.sandbox, STATION, mo)).toContain(newBlue);

      // A reaction on the Color Roles reaction list gives the new role.
      const list = menus.find((row) => row.listKey === 'color_roles');
      await memberReacts(harness.sandbox, {
        guild_id: STATION,
        channel_id: rolesChannel,
        message_id: list?.messageIds[0] ?? '',
        user_id: nia,
        emoji: '🔴',
      });
      await waitFor('the reaction to give the new Red', () =>
        memberRoles(harness.sandbox, STATION, nia).includes(newRed) ? true : undefined,
      );
    } finally {
      await db().delete(roleMenus);
      await db().delete(levelingRoles);
      await db().delete(levelingSettings);
      await db().delete(levelingBoosts);
      await jobs.followUpsDone();
    }
  });

  it('gives each holder back exactly the colors they held, and counts the members given', async () => {
    await db()
      .insert(guildConfigs)
      .values({ guildId: STATION, data: { color_roles_mode: 'shades' } });
    try {
      expect((await run('color-roles.generate')).state).toBe('completed');
      const navy = idOf('Navy');
      const bronze = idOf('Bronze');
      const crimson = idOf('Crimson');
      if (!navy || !bronze || !crimson) throw new Error('generate made no Navy, Bronze or Crimson role');
      // nia was given two colors by hand, mo one.
      await give(nia, navy);
      await give(nia, bronze);
      await give(mo, crimson);
      const restore = await resetThenUndo();

      const palette = new Set(
        [...(await db().select().from(colors)), ...(await db().select().from(colorShades))].flatMap((row) =>
          row.roleId ? [row.roleId] : [],
        ),
      );
      const colorsOf = (userId: string) =>
        memberRoles(harness.sandbox, STATION, userId)
          .filter((roleId) => palette.has(roleId))
          .map((roleId) => roles().find((role) => role.id === roleId)?.name)
          .sort();
      expect(colorsOf(nia)).toEqual(['Bronze', 'Navy']);
      expect(colorsOf(mo)).toEqual(['Crimson']);
      expect((restore.result as { summary: string }).summary).toContain(
        'given back to 2 members who held them',
      );
    } finally {
      await db().delete(guildConfigs).where(eq(guildConfigs.guildId, STATION));
    }
  });

  it('replaces a palette set up again since the reset', async () => {
    expect((await run('color-roles.generate')).state).toBe('completed');
    const red = roleNamed('Red');
    if (!red) throw new Error('generate made no Red role');
    await give(nia, red.id);
    const resetId = await entry('color_roles.reset');
    expect((await runFor('color-roles.reset', resetId)).state).toBe('completed');
    const oldIds = (await loadHistoryEntry(db(), STATION, resetId))?.snapshot as {
      palette: { colors: Array<{ id: number }> };
    };

    // The admin generates again: a new palette (new ids), new roles.
    expect((await run('color-roles.generate')).state).toBe('completed');
    const newRed = roleNamed('Red')?.id;
    const undoId = await entry('history.undo');
    expect(await claimUndo(db(), STATION, resetId, undoId, { restore: true })).toBe(true);
    expect((await runFor('color-roles.restore', undoId)).state).toBe('completed');

    expect((await db().select().from(colors)).map((row) => row.id).sort()).toEqual(
      oldIds.palette.colors.map((color) => color.id).sort(),
    );
    expect(roles().filter((role) => role.name === 'Red')).toHaveLength(1);
    expect(roleNamed('Red')?.id).not.toBe(newRed);
    expect(memberRoles(harness.sandbox, STATION, nia)).toContain(roleNamed('Red')?.id);
  });
});
