import {
  type Color,
  type ColorInput,
  type ColorRolesState,
  MAX_COLOR_SHADES,
  MAX_PALETTE_COLORS,
  routePath,
  routes,
} from '@spacecadet/contract';
import { colorRemovedRoles, colors, memberRolePicks } from '@spacecadet/db';
import {
  deletePalette,
  loadPalette,
  seedDefaultPaletteIfEmpty,
  setColorRoleId,
  setShadeRoleId,
} from '@spacecadet/db/queries/color-roles';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GUILDS, type Harness, signIn, startHarness, storedState, USERS } from './harness.ts';

/**
 * The palette editor's save (`PUT /color-roles/palette`) against real Postgres: edits keep the
 * rows (so the Discord role and its members) of renamed and recolored colours, removed colours'
 * roles are recorded for Generate Roles to delete, and every refusal names the colour and
 * stores nothing.
 */
let h: Harness;
let ada: string;
const guildId = GUILDS.station;

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
});
afterAll(async () => {
  await h?.close();
});

/** Every test starts from the default palette, with roles on Red (and its shades) and Blue. */
beforeEach(async () => {
  const db = h.database.db;
  await deletePalette(db, guildId);
  await deletePalette(db, GUILDS.orbit);
  await seedDefaultPaletteIfEmpty(db, guildId);
  const palette = await loadPalette(db, guildId);
  const red = palette.find((color) => color.name === 'Red');
  const blue = palette.find((color) => color.name === 'Blue');
  if (!red || !blue) throw new Error('default palette not seeded');
  await setColorRoleId(db, red.id, '400000000000000001');
  await setColorRoleId(db, blue.id, '400000000000000002');
  for (const [i, shade] of red.shades.entries()) await setShadeRoleId(db, shade.id, `40000000000000010${i}`);
});

const put = (body: object) =>
  h.app.inject({
    method: 'PUT',
    url: routePath(routes.putColorPalette, { guildId }),
    headers: { authorization: ada },
    payload: body,
  });
const getState = async () =>
  (
    await h.app.inject({
      method: 'GET',
      url: routePath(routes.getColorRoles, { guildId }),
      headers: { authorization: ada },
    })
  ).json<ColorRolesState>();

/** The palette as stored now, in palette order, as the editor sends it back. */
async function currentInput(): Promise<ColorInput[]> {
  return (await loadPalette(h.database.db, guildId)).map((color) => ({
    color_id: color.id,
    name: color.name,
    hex: color.hex,
    shades: color.shades.map((shade) => ({ shade_id: shade.id, name: shade.name, hex: shade.hex })),
  }));
}
const flat = (state: ColorRolesState): Color[] =>
  state.groups.flatMap((group) => group.colors).sort((a, b) => a.position - b.position);

async function expectRefused(body: object, message: string) {
  const before = await storedState(h);
  const response = await put(body);
  expect(response.statusCode, response.body).toBe(400);
  const answer = response.json<{ error: string; message: string }>();
  expect(answer.error).toBe('invalid_input');
  expect(answer.message).toBe(message);
  expect(await storedState(h)).toEqual(before);
}

describe('saving the palette', () => {
  it('GET names each colour by id and position, in the seeded (rainbow, then naturals) order', async () => {
    const colorsNow = flat(await getState());
    expect(colorsNow.map((color) => color.color_name).slice(0, 3)).toEqual(['Red', 'Orange', 'Yellow']);
    expect(colorsNow.map((color) => color.position)).toEqual([...colorsNow.keys()]);
    expect(new Set(colorsNow.map((color) => color.color_id)).size).toBe(12);
  });

  it('renames, recolors, reorders, adds and removes in one write, answering the new state', async () => {
    const input = await currentInput();
    const [red, orange, , , blue] = input;
    if (!red || !orange || !blue) throw new Error('no palette');
    // Members' picks: one on Red (renamed, kept), one on Orange (removed), one on a Red shade (removed).
    const redShade = red.shades[0];
    await h.database.db.insert(memberRolePicks).values([
      { guildId, userId: '1', scope: 'color', targetKey: `color:${red.color_id}` },
      { guildId, userId: '2', scope: 'color', targetKey: `color:${orange.color_id}` },
      { guildId, userId: '3', scope: 'color', targetKey: `shade:${redShade?.shade_id}` },
    ]);
    const body = {
      colors: [
        { color_id: blue.color_id, name: 'Ocean', hex: '1e90ff', shades: blue.shades },
        { name: 'Teal', hex: '#008080' },
        { ...red, name: 'Scarlet', hex: '#ff2400', shades: red.shades.slice(1) },
      ],
    };
    const response = await put(body);
    expect(response.statusCode, response.body).toBe(200);
    const saved = flat(response.json<ColorRolesState>());
    expect(saved.map((color) => [color.color_name, color.hex_code])).toEqual([
      ['Ocean', '#1E90FF'],
      ['Teal', '#008080'],
      ['Scarlet', '#FF2400'],
    ]);
    // Same rows: the Discord role stays with the colour through the rename and recolor.
    expect(saved[0]).toMatchObject({ color_id: blue.color_id, role_id: '400000000000000002' });
    expect(saved[2]).toMatchObject({ color_id: red.color_id, role_id: '400000000000000001' });
    expect(saved[1]?.role_id).toBeNull();
    expect(saved[2]?.shades.map((shade) => shade.shade_id)).toEqual(
      red.shades.slice(1).map((s) => s.shade_id),
    );
    expect(flat(await getState())).toEqual(saved);

    const removed = await h.database.db
      .select({ roleId: colorRemovedRoles.roleId, name: colorRemovedRoles.name })
      .from(colorRemovedRoles)
      .where(eq(colorRemovedRoles.guildId, guildId));
    expect(removed).toEqual([{ roleId: '400000000000000100', name: 'Light Red' }]);
    const picks = await h.database.db
      .select({ userId: memberRolePicks.userId, targetKey: memberRolePicks.targetKey })
      .from(memberRolePicks)
      .where(eq(memberRolePicks.guildId, guildId));
    expect(picks).toEqual([{ userId: '1', targetKey: `color:${red.color_id}` }]);
  });

  it("a removed colour's role and its shades' roles are recorded for Generate Roles to delete", async () => {
    const input = await currentInput();
    const response = await put({ colors: input.filter((color) => color.name !== 'Red') });
    expect(response.statusCode, response.body).toBe(200);
    const removed = await h.database.db
      .select({ roleId: colorRemovedRoles.roleId })
      .from(colorRemovedRoles)
      .where(eq(colorRemovedRoles.guildId, guildId))
      .orderBy(colorRemovedRoles.roleId);
    expect(removed.map((row) => row.roleId)).toEqual([
      '400000000000000001',
      '400000000000000100',
      '400000000000000101',
      '400000000000000102',
    ]);
  });

  it('swaps two names and edits shades (rename, recolor, add, remove) keeping their ids', async () => {
    const input = await currentInput();
    const [red, orange] = input;
    if (!red || !orange) throw new Error('no palette');
    const [lightRed, crimson] = red.shades;
    const response = await put({
      colors: [
        { ...red, name: 'Orange', shades: [] },
        {
          ...orange,
          name: 'Red',
          shades: [
            { ...lightRed, name: 'Rose', hex: '#FF007F' },
            { name: 'Coral', hex: '#FF7F50' },
          ],
        },
      ],
    });
    // Light Red moved to another colour: refused (a shade belongs to its colour).
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toBe(
      `Color 2 ("Red"): shade_id ${lightRed?.shade_id} is not a shade of this color; leave it out to add a new shade`,
    );
    const swap = await put({
      colors: [
        {
          ...red,
          name: 'Orange',
          shades: [
            { ...crimson, name: 'Rose', hex: '#ff007f' },
            { name: 'Coral', hex: '#FF7F50' },
          ],
        },
        { ...orange, name: 'Red' },
      ],
    });
    expect(swap.statusCode, swap.body).toBe(200);
    const [first, second] = flat(swap.json<ColorRolesState>());
    expect(first).toMatchObject({
      color_id: red.color_id,
      color_name: 'Orange',
      role_id: '400000000000000001',
    });
    expect(second).toMatchObject({ color_id: orange.color_id, color_name: 'Red' });
    expect(first?.shades).toEqual([
      { shade_id: crimson?.shade_id, shade_name: 'Rose', hex_code: '#FF007F', role_id: '400000000000000101' },
      { shade_id: expect.any(Number), shade_name: 'Coral', hex_code: '#FF7F50', role_id: null },
    ]);
  });

  it('a first palette of your own needs no default one', async () => {
    await deletePalette(h.database.db, guildId);
    const response = await put({
      colors: [{ name: 'Mint', hex: '#98FF98', shades: [{ name: 'Sage', hex: '#9CAF88' }] }],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<ColorRolesState>().groups).toMatchObject([
      { group_name: 'Rainbow', colors: [{ color_name: 'Mint', shades: [{ shade_name: 'Sage' }] }] },
    ]);
  });
});

describe('refusals name the colour and store nothing', () => {
  const color = (name: string, hex = '#123456', shades: object[] = []) => ({ name, hex, shades });

  it.each<[string, object[], string]>([
    ['an empty palette', [], 'The palette needs at least one color; Reset removes them all'],
    [
      'a name twice (any case)',
      [color('Teal'), color('Coral'), color(' teal ')],
      'Color 3 ("teal"): color 1 already has this name; each color needs its own',
    ],
    ['a bad hex', [color('Teal', '#12345G')], 'Color 1 ("Teal"): "#12345G" is not a hex color like #1E88E5'],
    ['a short hex', [color('Teal', '#FFF')], 'Color 1 ("Teal"): "#FFF" is not a hex color like #1E88E5'],
    [
      'pure black',
      [color('Void', '#000000')],
      'Color 1 ("Void"): #000000 is "no color" to Discord; use a near-black such as #0A0A0A',
    ],
    ['a blank name', [color('Teal'), color('   ')], 'Color 2: needs a name'],
    [
      'a name over 100 characters',
      [color('x'.repeat(101))],
      `Color 1 ("${'x'.repeat(40)}"): name is 101 characters; Discord allows at most 100 in a role name`,
    ],
    [
      '@everyone',
      [color('@everyone')],
      'Color 1 ("@everyone"): cannot be named @everyone: Discord keeps that name',
    ],
    [
      'Naturals',
      [color('naturals')],
      'Color 1 ("naturals"): cannot be named Naturals: the panel keeps that name for its Naturals button',
    ],
    [
      'a shade name twice across colours',
      [
        color('Red', '#FF0000', [{ name: 'Rose', hex: '#FF007F' }]),
        color('Pink', '#FFC0CB', [{ name: 'ROSE', hex: '#FF66CC' }]),
      ],
      'Color 2 ("Pink"), shade 1 ("ROSE"): shade 1 of color 1 already has this name; each shade needs its own',
    ],
    [
      'a bad shade hex',
      [color('Red', '#FF0000', [{ name: 'Rose', hex: 'rose' }])],
      'Color 1 ("Red"), shade 1 ("Rose"): "rose" is not a hex color like #1E88E5',
    ],
    [
      'a blank shade name',
      [color('Red', '#FF0000', [{ name: '', hex: '#FF007F' }])],
      'Color 1 ("Red"), shade 1: needs a name',
    ],
    [
      'more shades than a picker holds',
      [
        color(
          'Red',
          '#FF0000',
          Array.from({ length: MAX_COLOR_SHADES + 1 }, (_, i) => ({ name: `R${i}`, hex: '#FF0000' })),
        ),
      ],
      `Color 1 ("Red"): ${MAX_COLOR_SHADES + 1} shades; a shade picker holds at most ${MAX_COLOR_SHADES}`,
    ],
    [
      'more colours than the panel holds',
      Array.from({ length: MAX_PALETTE_COLORS + 1 }, (_, i) => color(`C${i}`)),
      `At most ${MAX_PALETTE_COLORS} colors: that is what the color panel holds`,
    ],
  ])('%s', async (_name, list, message) => {
    await expectRefused({ colors: list }, message);
  });

  it('a colour id of another server, an unknown one, or one twice', async () => {
    await seedDefaultPaletteIfEmpty(h.database.db, GUILDS.orbit);
    const [orbitColor] = await loadPalette(h.database.db, GUILDS.orbit);
    const input = await currentInput();
    const [red, orange] = input;
    if (!orbitColor || !red || !orange) throw new Error('no palette');
    await expectRefused(
      { colors: [red, { color_id: orbitColor.id, name: 'Stolen', hex: '#123456' }] },
      `Color 2 ("Stolen"): color_id ${orbitColor.id} is not a color of this server's palette; leave it out to add a new color`,
    );
    await expectRefused(
      { colors: [{ color_id: 999_999, name: 'Ghost', hex: '#123456' }] },
      `Color 1 ("Ghost"): color_id 999999 is not a color of this server's palette; leave it out to add a new color`,
    );
    await expectRefused(
      { colors: [red, { ...orange, color_id: red.color_id }] },
      `Color 2 ("Orange"): color_id ${red.color_id} is listed twice`,
    );
  });

  it("a shade id of another colour or another server's", async () => {
    await seedDefaultPaletteIfEmpty(h.database.db, GUILDS.orbit);
    const [orbitColor] = await loadPalette(h.database.db, GUILDS.orbit);
    const [red, orange] = await currentInput();
    const orbitShade = orbitColor?.shades[0];
    const redShade = red?.shades[0];
    if (!red || !orange || !orbitShade || !redShade) throw new Error('no palette');
    await expectRefused(
      {
        colors: [
          { ...red, shades: [] },
          { ...orange, shades: [redShade] },
        ],
      },
      `Color 2 ("Orange"): shade_id ${redShade.shade_id} is not a shade of this color; leave it out to add a new shade`,
    );
    await expectRefused(
      {
        colors: [
          { ...red, shades: [{ shade_id: orbitShade.id, name: orbitShade.name, hex: orbitShade.hex }] },
        ],
      },
      `Color 1 ("Red"): shade_id ${orbitShade.id} is not a shade of this color; leave it out to add a new shade`,
    );
    await expectRefused(
      { colors: [{ name: 'New', hex: '#123456', shades: [redShade] }] },
      `Color 1 ("New"): shade_id ${redShade.shade_id} is not a shade of this color; leave it out to add a new shade`,
    );
    // The colours stayed where they were.
    expect((await h.database.db.select().from(colors).where(eq(colors.guildId, guildId))).length).toBe(12);
  });
});
