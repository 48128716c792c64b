import { ColorRolesMode } from '@spacecadet/contract';
import { describe, expect, it } from 'vitest';
import { colorNameMatches, parseColorCustomId } from '../src/color-custom-id.ts';
import { COLOR_SQUARE_EMOJIS, colorSquareEmoji } from '../src/color-math.ts';
import {
  buildColorPanel,
  buildColorPanelEmbed,
  buildNaturalsPicker,
  buildShadePicker,
  COLOR_PANEL_MAX_COLORS,
  type PanelColor,
  REMOVE_COLOR_EMOJI,
  toDiscordComponents,
} from '../src/color-panel.ts';
import { DISCORD_LIMITS } from '../src/discord-components.ts';
import { DEFAULT_COLOR_PALETTE } from '../src/palette.ts';

const palette: PanelColor[] = DEFAULT_COLOR_PALETTE.map((family) => ({
  name: family.name,
  hex: family.hex,
  shades: family.shades.map((shade) => ({ ...shade })),
}));
const plain = (...names: string[]): PanelColor[] => names.map((name) => ({ name, hex: '#123456' }));
/** The colour buttons' labels (the panel ends with Remove color, tested on its own below). */
const labels = (colors: PanelColor[], mode: ColorRolesMode) =>
  buildColorPanel(colors, mode)
    .buttons.filter((button) => button.kind !== 'remove')
    .map((button) => button.label);

describe('buildColorPanel ordering', () => {
  it.each<[string, PanelColor[], ColorRolesMode, string[]]>([
    ['empty', [], 'basic', []],
    [
      'default palette, basic: naturals are separate buttons',
      palette,
      'basic',
      [
        'Red',
        'Orange',
        'Yellow',
        'Green',
        'Blue',
        'Indigo/Violet',
        'Pink',
        'Black',
        'Brown',
        'White',
        'Silver',
        'Gold',
      ],
    ],
    [
      'default palette, shades: naturals collapse into one button',
      palette,
      'shades',
      ['Red', 'Orange', 'Yellow', 'Green', 'Blue', 'Indigo/Violet', 'Pink', 'Naturals'],
    ],
    [
      "the palette's order is kept (the admin orders it)",
      plain('Teal', 'gold', 'Pink', 'Black', 'Mint', 'RED', 'Blue'),
      'basic',
      ['Teal', 'gold', 'Pink', 'Black', 'Mint', 'RED', 'Blue'],
    ],
    [
      'the Naturals button stands where the first natural does in shades mode',
      plain('Teal', 'White', 'Green', 'Black'),
      'shades',
      ['Teal', 'Naturals', 'Green'],
    ],
    ['no naturals means no Naturals button', plain('Red', 'Coral'), 'shades', ['Red', 'Coral']],
    ['duplicate names (any case) are shown once', plain('Red', 'red', ' RED '), 'basic', ['Red']],
  ])('%s', (_name, colors, mode, expected) => {
    expect(labels(colors, mode)).toEqual(expected);
  });
});

describe('buildColorPanel buttons', () => {
  it('basic mode picks colours directly', () => {
    const [red] = buildColorPanel(palette, 'basic').buttons;
    expect(red).toEqual({
      key: 'red',
      label: 'Red',
      hex: '#E53935',
      emoji: '🟥',
      customId: 'color:pick:Red',
      kind: 'color',
    });
  });

  it('shades mode opens family pickers and the naturals picker', () => {
    const { buttons } = buildColorPanel(palette, 'shades');
    expect(buttons.map((b) => b.kind)).toEqual([...Array(7).fill('family'), 'naturals', 'remove']);
    expect(buttons[5]?.customId).toBe('color:family:Indigo/Violet');
    expect(buttons[7]?.customId).toBe('color:family:naturals');
  });

  it('shades mode picks a colour without shades directly', () => {
    const [button] = buildColorPanel([{ name: 'Coral', hex: '#FF7F50', shades: [] }], 'shades').buttons;
    expect(button?.kind).toBe('color');
    expect(button?.customId).toBe('color:pick:Coral');
  });

  // The colours in rows of 4, then Remove color on a row of its own (its slot is the 25th).
  it.each([
    [0, 0, false, []],
    [4, 2, false, [4, 1]],
    [5, 3, false, [4, 1, 1]],
    [12, 4, false, [4, 4, 4, 1]],
    [24, 7, false, [4, 4, 4, 4, 4, 4, 1]],
    [25, 7, true, [4, 4, 4, 4, 4, 4, 1]],
    [30, 7, true, [4, 4, 4, 4, 4, 4, 1]],
  ])('%i colours -> %i preview rows of 4 (truncated %s)', (count, rowCount, truncated, sizes) => {
    const colors = plain(...Array.from({ length: count }, (_, i) => `Colour ${i + 1}`));
    const panel = buildColorPanel(colors, 'basic');
    expect(panel.rows).toHaveLength(rowCount);
    expect(panel.rows.map((row) => row.length)).toEqual(sizes);
    expect(panel.buttons.length).toBe(count === 0 ? 0 : Math.min(count, 24) + 1);
    expect(panel.truncated).toBe(truncated);
    expect(panel.rows.flat()).toEqual(panel.buttons);
  });

  it('keeps custom ids within 100 characters for long names', () => {
    const panel = buildColorPanel(plain('x'.repeat(120)), 'basic');
    const customId = panel.buttons[0]?.customId ?? '';
    expect(customId.length).toBe(100);
    expect(panel.buttons[0]?.label.length).toBeLessThanOrEqual(80);
    const parsed = parseColorCustomId(customId);
    expect(parsed?.action).toBe('pick');
    expect(parsed?.action === 'pick' && colorNameMatches('x'.repeat(120), parsed.colorName)).toBe(true);
  });
});

describe('toDiscordComponents', () => {
  it.each([
    [0, []],
    [4, [4, 1]],
    [12, [4, 4, 4, 1]],
    [16, [4, 4, 4, 4, 1]],
    [17, [5, 5, 5, 2, 1]],
    [20, [5, 5, 5, 5, 1]],
    [21, [5, 5, 5, 5, 2]],
    [24, [5, 5, 5, 5, 5]],
    [25, [5, 5, 5, 5, 5]],
    [40, [5, 5, 5, 5, 5]],
  ])('%i colours post as rows %o (never more than 5 rows of 5)', (count, sizes) => {
    const colors = plain(...Array.from({ length: count }, (_, i) => `Colour ${i + 1}`));
    const panel = buildColorPanel(colors, 'basic');
    const rows = toDiscordComponents(panel);
    expect(rows.map((row) => row.components.length)).toEqual(sizes);
    expect(rows.length).toBeLessThanOrEqual(5);
    // Remove color is always posted, last.
    if (count > 0) expect(rows.at(-1)?.components.at(-1)?.custom_id).toBe('color:remove');
    // Up to 16 colours (and Remove color) the posted rows are the preview's rows.
    if (count <= 16)
      expect(rows.map((row) => row.components.map((c) => c.custom_id))).toEqual(
        panel.rows.map((row) => row.map((b) => b.customId)),
      );
  });

  it('posts the same buttons in the same order as the preview', () => {
    const panel = buildColorPanel(palette, 'basic');
    const rows = toDiscordComponents(panel);
    for (const row of rows) expect(row.type).toBe(1);
    const posted = rows.flatMap((row) => row.components);
    expect(posted.map((c) => (c.type === 2 ? c.custom_id : ''))).toEqual(
      panel.buttons.map((b) => b.customId),
    );
    expect(posted.every((c) => c.type === 2 && c.style === 2)).toBe(true);
  });

  it.each(ColorRolesMode.options)(
    'posts each %s button with the preview emoji, within Discord limits',
    (mode) => {
      const panel = buildColorPanel(palette, mode);
      const posted = toDiscordComponents(panel).flatMap((row) => row.components);
      expect(posted.map((c) => c.emoji)).toEqual(panel.buttons.map((b) => ({ name: b.emoji })));
      expect(posted.map((c) => `${c.emoji?.name} ${c.label}`).slice(0, 7)).toEqual([
        '🟥 Red',
        '🟧 Orange',
        '🟨 Yellow',
        '🟩 Green',
        '🟦 Blue',
        '🟪 Indigo/Violet',
        '🟥 Pink',
      ]);
      expect(posted.slice(7).map((c) => c.emoji?.name)).toEqual(
        mode === 'basic' ? ['⬛', '🟫', '⬜', '⬜', '🟨', '✖️'] : ['🟫', '✖️'],
      );
      for (const button of posted) {
        expect(button.label.length).toBeLessThanOrEqual(DISCORD_LIMITS.buttonLabelLength);
        expect(button.custom_id.length).toBeLessThanOrEqual(DISCORD_LIMITS.customIdLength);
        expect(Object.keys(button.emoji ?? {})).toEqual(['name']);
      }
    },
  );

  it('keeps 25 buttons with emoji in 5 rows of 5', () => {
    const colors = Array.from({ length: 30 }, (_, i) => ({
      name: `${'Long colour name '.repeat(6)}${i}`,
      hex: `#${(i * 0x081018).toString(16).padStart(6, '0').slice(-6)}`,
    }));
    const rows = toDiscordComponents(buildColorPanel(colors, 'basic'));
    expect(rows.map((row) => row.components.length)).toEqual([5, 5, 5, 5, 5]);
    for (const button of rows.flatMap((row) => row.components)) {
      expect([...COLOR_SQUARE_EMOJIS, REMOVE_COLOR_EMOJI]).toContain(button.emoji?.name);
      expect(button.label.length).toBeLessThanOrEqual(DISCORD_LIMITS.buttonLabelLength);
    }
  });
});

describe('Remove color', () => {
  it.each(ColorRolesMode.options)('ends the %s panel, on a row of its own in the preview', (mode) => {
    const panel = buildColorPanel(palette, mode);
    const remove = {
      key: 'color:remove',
      label: 'Remove color',
      hex: '#4E5058',
      emoji: '✖️',
      customId: 'color:remove',
      kind: 'remove',
    };
    expect(panel.buttons.at(-1)).toEqual(remove);
    expect(panel.buttons.filter((button) => button.kind === 'remove')).toHaveLength(1);
    expect(panel.rows.at(-1)).toEqual([remove]);
    expect(parseColorCustomId(remove.customId)).toEqual({ action: 'remove' });
    // The default palette fits the preview's rows of 4 on Discord too: the posted rows are the same.
    const posted = toDiscordComponents(panel);
    expect(posted.map((row) => row.components.map((c) => c.custom_id))).toEqual(
      panel.rows.map((row) => row.map((b) => b.customId)),
    );
    expect(posted.at(-1)?.components).toEqual([
      { type: 2, style: 2, custom_id: 'color:remove', label: 'Remove color', emoji: { name: '✖️' } },
    ]);
  });

  it('an empty palette has no Remove color either', () => {
    const panel = buildColorPanel([], 'basic');
    expect(panel.buttons).toEqual([]);
    expect(toDiscordComponents(panel)).toEqual([]);
  });

  it.each([16, 20, 24, 25, 60])(
    'a panel of %i long-named colours still fits Remove color within Discord limits',
    (count) => {
      const colors = Array.from({ length: count }, (_, i) => ({
        name: `${'Very long colour name '.repeat(6)}${i}`,
        hex: '#336699',
      }));
      const panel = buildColorPanel(colors, 'basic');
      const rows = toDiscordComponents(panel);
      const posted = rows.flatMap((row) => row.components);
      expect(rows.length).toBeLessThanOrEqual(DISCORD_LIMITS.actionRowsPerMessage);
      for (const row of rows) expect(row.components.length).toBeLessThanOrEqual(DISCORD_LIMITS.buttonsPerRow);
      expect(posted).toHaveLength(Math.min(count, COLOR_PANEL_MAX_COLORS) + 1);
      expect(posted.map((c) => c.custom_id)).toEqual(panel.buttons.map((b) => b.customId));
      expect(posted.at(-1)?.custom_id).toBe('color:remove');
      for (const button of posted) {
        expect(button.custom_id.length).toBeLessThanOrEqual(DISCORD_LIMITS.customIdLength);
        expect(button.label.length).toBeLessThanOrEqual(DISCORD_LIMITS.buttonLabelLength);
      }
      expect(panel.truncated).toBe(count > COLOR_PANEL_MAX_COLORS);
    },
  );
});

describe('shade pickers', () => {
  it('lists a family shades as shade buttons', () => {
    const blue = palette.find((c) => c.name === 'Blue');
    if (!blue) throw new Error('Blue missing from palette');
    const picker = buildShadePicker(blue);
    expect(picker.content).toContain('Blue');
    const ids = picker.components.flatMap((row) => row.components.map((c) => c.custom_id));
    expect(ids).toEqual([
      'color:shade:Sky Blue',
      'color:shade:Teal',
      'color:shade:Royal Blue',
      'color:shade:Navy',
    ]);
    const emojis = picker.components.flatMap((row) => row.components.map((c) => c.emoji));
    expect(emojis).toEqual([{ name: '🟦' }, { name: '🟦' }, { name: '🟦' }, { name: '🟦' }]);
    expect(picker.truncated).toBe(false);
  });

  it('falls back to the colour itself when it has no shades', () => {
    const picker = buildShadePicker({ name: 'Coral', hex: '#FF7F50' });
    expect(picker.shades.map((s) => s.name)).toEqual(['Coral']);
  });

  it('caps at 25 options in at most 5 rows', () => {
    const shades = Array.from({ length: 30 }, (_, i) => ({ name: `Shade ${i}`, hex: '#111111' }));
    const picker = buildShadePicker({ name: 'Many', hex: '#111111', shades });
    expect(picker.components.map((row) => row.components.length)).toEqual([5, 5, 5, 5, 5]);
    expect(picker.truncated).toBe(true);
  });

  it('the naturals picker gathers every natural family shades in palette order', () => {
    const picker = buildNaturalsPicker(palette);
    expect(picker.shades.map((s) => s.name)).toEqual([
      'Jet',
      'Onyx',
      'Charcoal',
      'Tan',
      'Chocolate',
      'Coffee',
      'Snow',
      'Ivory',
      'Cream',
      'Light Gray',
      'Gray',
      'Slate',
      'Champagne',
      'Goldenrod',
      'Bronze',
    ]);
    expect(picker.components).toHaveLength(3);
    expect(
      picker.components.flatMap((row) => row.components.map((c) => `${c.emoji?.name} ${c.label}`)),
    ).toEqual(picker.shades.map((shade) => `${colorSquareEmoji(shade.hex)} ${shade.name}`));
    expect(picker.components.flatMap((row) => row.components.map((c) => c.emoji?.name))).toEqual([
      '⬛',
      '⬛',
      '⬛',
      '🟫',
      '🟫',
      '🟫',
      '⬜',
      '⬜',
      '⬜',
      '⬜',
      '⬜',
      '⬜',
      '⬜',
      '🟨',
      '🟧',
    ]);
  });
});

describe('buildColorPanelEmbed', () => {
  it.each(ColorRolesMode.options)('%s mode has a title, description and pink accent', (mode) => {
    const embed = buildColorPanelEmbed(mode);
    expect(embed.title).toMatch(/Color Roles/);
    expect(embed.description.length).toBeGreaterThan(10);
    expect(embed.color).toBe(0xff69b4);
  });

  it.each(ColorRolesMode.options)('%s mode tells members how to remove their color', (mode) => {
    expect(buildColorPanelEmbed(mode).description).toContain('"Remove color" takes it away');
  });
});
