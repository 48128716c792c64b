import { hexToColorInt } from '@spacecadet/core';
import { loadPalette, type PaletteColorInput, savePalette } from '@spacecadet/db/queries/color-roles';
import { colorPanels, colorRemovedRoles, colors, guildConfigs, memberRolePicks } from '@spacecadet/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
  startHarness,
  waitFor,
} from './helpers.ts';

/**
 * An admin's palette edits (saved as the API's PUT palette does) brought to Discord by Generate
 * Roles against the sandbox: a renamed or recolored colour keeps its role (same id, edited in
 * place) and so its members; a removed colour's role is deleted; an added colour gets a role;
 * the posted panel is updated to show the palette as it is now.
 */
describe('color-roles: an edited palette through Generate Roles', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;
  const { nia, mo } = SANDBOX_IDS.users;

  const run = async (name: Parameters<typeof jobs.add>[0]) => jobs.finished((await jobs.add(name)).id ?? '');
  const roles = () => guildState(harness.sandbox, STATION).roles;
  const roleById = (id: string | null | undefined) => roles().find((role) => role.id === id);
  const give = (userId: string, roleId: string) =>
    control(harness.sandbox).botRest('PUT', `/guilds/${STATION}/members/${userId}/roles/${roleId}`);
  const setMode = (mode: 'basic' | 'shades') =>
    harness.database.db
      .insert(guildConfigs)
      .values({ guildId: STATION, data: { color_roles_mode: mode } })
      .onConflictDoUpdate({ target: guildConfigs.guildId, set: { data: { color_roles_mode: mode } } });
  /** The stored palette as the editor sends it back (ids kept). */
  const current = async (): Promise<PaletteColorInput[]> =>
    (await loadPalette(harness.database.db, STATION)).map((color) => ({
      id: color.id,
      name: color.name,
      hex: color.hex,
      shades: color.shades.map((shade) => ({ id: shade.id, name: shade.name, hex: shade.hex })),
    }));
  const save = async (colors: PaletteColorInput[]) =>
    expect(await savePalette(harness.database.db, STATION, colors)).toBeNull();
  /** The posted panel's button custom ids, in order. */
  const panelButtons = () => {
    const channel = guildState(harness.sandbox, STATION).channels.find(
      (c) => c.id === SANDBOX_IDS.channels.roles,
    );
    expect(channel?.messages).toHaveLength(1);
    return (channel?.messages[0]?.components ?? []).flatMap((row) =>
      'components' in row ? row.components.map((c) => ('custom_id' in c ? c.custom_id : '')) : [],
    );
  };

  beforeAll(async () => {
    harness = await startHarness();
    // Repairs on, as in production: the bot's own deletes of removed colours must not be undone.
    worker = await startWorker(harness.config({ REPAIR_DELAY_MS: '1000' }));
    jobs = jobQueue(harness);
  });
  afterEach(async () => {
    expect((await run('color-roles.reset')).state).toBe('completed');
    await setMode('basic');
    // Each test posts its own panel (postStationColorPanel stores the channel afresh).
    await harness.database.db.delete(colorPanels);
    await harness.database.db.delete(memberRolePicks);
  });
  afterAll(async () => {
    await jobs?.close();
    await worker?.close();
    await harness.close();
  });

  it('basic mode: a renamed and recolored colour keeps its role and its member; removed and added colours follow; the panel too', async () => {
    await postStationColorPanel(harness);
    const palette = await current();
    const red = palette.find((color) => color.name === 'Red');
    const orange = palette.find((color) => color.name === 'Orange');
    const before = await loadPalette(harness.database.db, STATION);
    const redRole = before.find((color) => color.name === 'Red')?.roleId;
    const orangeRole = before.find((color) => color.name === 'Orange')?.roleId;
    if (!red || !orange || !redRole || !orangeRole) throw new Error('roles not generated');
    await give(nia, redRole);
    await give(mo, orangeRole);
    const rolesBefore = roles().length;

    await save([
      { ...red, name: 'Scarlet', hex: '#FF2400' },
      { name: 'Teal', hex: '#008080', shades: [] },
      ...palette.filter((color) => color !== red && color !== orange),
    ]);
    const outcome = await run('color-roles.generate');
    expect(outcome.state, outcome.error).toBe('completed');
    expect(outcome.result).toMatchObject({ ok: true, created: 1 });
    expect(outcome.result).toMatchObject({
      summary: expect.stringMatching(
        /1 role renamed or recolored; 1 role of removed colors deleted\. Color panel updated\.$/,
      ),
    });

    // Same role, edited in place: Nia still wears it.
    expect(roleById(redRole)).toMatchObject({ name: 'Scarlet', color: hexToColorInt('#FF2400') });
    expect(memberRoles(harness.sandbox, STATION, nia)).toContain(redRole);
    // Orange's role is gone from Discord (and so from Mo).
    expect(roleById(orangeRole)).toBeUndefined();
    expect(memberRoles(harness.sandbox, STATION, mo)).not.toContain(orangeRole);
    // Teal got a role of its own.
    const after = await loadPalette(harness.database.db, STATION);
    const teal = after.find((color) => color.name === 'Teal');
    expect(roleById(teal?.roleId)).toMatchObject({ name: 'Teal', color: hexToColorInt('#008080') });
    expect(roles()).toHaveLength(rolesBefore);
    expect(await harness.database.db.select().from(colorRemovedRoles)).toEqual([]);

    // The posted panel was edited in place, in the palette's order.
    const buttons = panelButtons();
    expect(buttons.slice(0, 3)).toEqual(['color:pick:Scarlet', 'color:pick:Teal', 'color:pick:Yellow']);
    expect(buttons).not.toContain('color:pick:Orange');
    expect(buttons).toHaveLength(13);

    // Nothing left to do: a second run changes nothing.
    const again = await run('color-roles.generate');
    expect(again.result).toMatchObject({ created: 0 });
    expect(again.result).not.toMatchObject({
      summary: expect.stringMatching(/renamed|removed|panel updated/),
    });
  });

  it('shades mode: a renamed shade keeps its role and member, a removed shade loses it, a new one gets one', async () => {
    await setMode('shades');
    expect((await run('color-roles.generate')).state).toBe('completed');
    const palette = await current();
    const stored = await loadPalette(harness.database.db, STATION);
    const red = palette.find((color) => color.name === 'Red');
    const storedRed = stored.find((color) => color.name === 'Red');
    const [lightRed, crimson, darkRed] = red?.shades ?? [];
    const crimsonRole = storedRed?.shades.find((shade) => shade.name === 'Crimson')?.roleId;
    const darkRedRole = storedRed?.shades.find((shade) => shade.name === 'Dark Red')?.roleId;
    if (!red || !lightRed || !crimson || !darkRed || !crimsonRole || !darkRedRole)
      throw new Error('no shades');
    await give(nia, crimsonRole);

    await save(
      palette.map((color) =>
        color === red
          ? {
              ...red,
              shades: [
                lightRed,
                { ...crimson, name: 'Cardinal', hex: '#C41E3A' },
                { name: 'Rose', hex: '#FF007F' },
              ],
            }
          : color,
      ),
    );
    const outcome = await run('color-roles.generate');
    expect(outcome.state, outcome.error).toBe('completed');
    expect(outcome.result).toMatchObject({ created: 1 });
    expect(roleById(crimsonRole)).toMatchObject({ name: 'Cardinal', color: hexToColorInt('#C41E3A') });
    expect(memberRoles(harness.sandbox, STATION, nia)).toContain(crimsonRole);
    expect(roleById(darkRedRole)).toBeUndefined();
    const rose = (await loadPalette(harness.database.db, STATION))
      .find((color) => color.name === 'Red')
      ?.shades.find((shade) => shade.name === 'Rose');
    expect(roleById(rose?.roleId)).toMatchObject({ name: 'Rose', color: hexToColorInt('#FF007F') });
  });

  it('a member picks the renamed colour on the updated panel; the repair gives its deleted role back under the new name', async () => {
    const messageId = await postStationColorPanel(harness);
    const palette = await current();
    const red = palette.find((color) => color.name === 'Red');
    if (!red?.id) throw new Error('no Red');
    await save(palette.map((color) => (color === red ? { ...red, name: 'Scarlet', hex: '#FF2400' } : color)));
    expect((await run('color-roles.generate')).state).toBe('completed');

    const click = await control(harness.sandbox).click({
      guild_id: STATION,
      channel_id: SANDBOX_IDS.channels.roles,
      message_id: messageId,
      user_id: nia,
      custom_id: 'color:pick:Scarlet',
    });
    expect(await finalAnswer(harness.sandbox, click)).toBe('You now have the **Scarlet** color.');
    const picked = async () =>
      (await harness.database.db.select().from(memberRolePicks)).some(
        (pick) => pick.userId === nia && pick.targetKey === `color:${red.id}`,
      );
    await waitFor('the pick recorded under the same colour', picked);

    const scarletRole = (await loadPalette(harness.database.db, STATION)).find(
      (c) => c.id === red.id,
    )?.roleId;
    await fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/roles/${scarletRole}`, {
      method: 'DELETE',
    });
    const recreated = await waitFor('Scarlet recreated and on nia again', async () => {
      const roleId = (await loadPalette(harness.database.db, STATION)).find((c) => c.id === red.id)?.roleId;
      if (!roleId || roleId === scarletRole || !roleById(roleId)) return undefined;
      return memberRoles(harness.sandbox, STATION, nia).includes(roleId) ? roleId : undefined;
    });
    expect(roleById(recreated)).toMatchObject({ name: 'Scarlet', color: hexToColorInt('#FF2400') });
  });

  it('a role above the bot is neither renamed nor deleted: the admin is told, and the removal waits', async () => {
    expect((await run('color-roles.generate')).state).toBe('completed');
    const { stationModerators } = SANDBOX_IDS.roles;
    const moderators = roleById(stationModerators)?.name;
    // Red's role sits above the bot's (as if an admin dragged it up): here, the fixture's Moderators.
    const red = (await loadPalette(harness.database.db, STATION)).find((color) => color.name === 'Red');
    if (!red) throw new Error('no Red');
    await harness.database.db.update(colors).set({ roleId: stationModerators }).where(eq(colors.id, red.id));

    const palette = await current();
    await save(palette.map((color) => (color.id === red.id ? { ...color, name: 'Scarlet' } : color)));
    const renamed = await run('color-roles.generate');
    expect(renamed.state, renamed.error).toBe('completed');
    expect(renamed.result).toMatchObject({
      warnings: expect.arrayContaining([
        `I could not rename or recolor the role "${moderators}" to "Scarlet": my role must be above it in Server Settings → Roles.`,
      ]),
    });
    expect(roleById(stationModerators)?.name).toBe(moderators);

    await save((await current()).filter((color) => color.id !== red.id));
    const removed = await run('color-roles.generate');
    expect(removed.result).toMatchObject({
      warnings: expect.arrayContaining([
        `I could not delete the role "Scarlet" of a removed color: my role must be above it. Delete it by hand.`,
      ]),
    });
    expect(roleById(stationModerators)).toBeDefined();
    // Still recorded, so the next run tries again; forgotten here so the reset leaves the fixture be.
    const waiting = await harness.database.db.select().from(colorRemovedRoles);
    expect(waiting.map((row) => row.roleId)).toEqual([stationModerators]);
    await harness.database.db.delete(colorRemovedRoles);
  });

  it('reset also deletes the role of a colour removed since the last Generate Roles', async () => {
    expect((await run('color-roles.generate')).state).toBe('completed');
    const palette = await current();
    const blueRole = (await loadPalette(harness.database.db, STATION)).find((c) => c.name === 'Blue')?.roleId;
    await save(palette.filter((color) => color.name !== 'Blue'));
    expect(roleById(blueRole)).toBeDefined();
    expect((await run('color-roles.reset')).state).toBe('completed');
    expect(roleById(blueRole)).toBeUndefined();
    expect(await harness.database.db.select().from(colorRemovedRoles)).toEqual([]);
  });
});
