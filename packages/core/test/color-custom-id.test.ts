import { ColorRolesMode } from '@spacecadet/contract';
import { describe, expect, it } from 'vitest';
import { type ColorPanelAction, colorNameMatches, parseColorCustomId } from '../src/color-custom-id.ts';
import { buildColorPanel, type PanelColor } from '../src/color-panel.ts';
import { DEFAULT_COLOR_PALETTE } from '../src/palette.ts';

const palette: PanelColor[] = DEFAULT_COLOR_PALETTE.map((family) => ({
  name: family.name,
  hex: family.hex,
  shades: family.shades.map((shade) => ({ ...shade })),
}));

describe('parseColorCustomId', () => {
  it.each<[string, ColorPanelAction | null]>([
    ['color:pick:Red', { action: 'pick', colorName: 'Red' }],
    ['color:pick:Indigo/Violet', { action: 'pick', colorName: 'Indigo/Violet' }],
    ['color:family:Blue', { action: 'family', colorName: 'Blue' }],
    ['color:family:naturals', { action: 'naturals' }],
    ['color:shade:Sky Blue', { action: 'shade', shadeName: 'Sky Blue' }],
    ['color:shade:Odd:Name', { action: 'shade', shadeName: 'Odd:Name' }],
    ['color:remove', { action: 'remove' }],
    ['color:remove:Red', null],
    ['color:pick:remove', { action: 'pick', colorName: 'remove' }],
    ['color:pick:', null],
    ['color:nope:Red', null],
    ['personality:zodiac:1', null],
    ['', null],
  ])('%s', (customId, expected) => {
    expect(parseColorCustomId(customId)).toEqual(expected);
  });

  it('round-trips every button the panel builds', () => {
    for (const mode of ColorRolesMode.options) {
      for (const button of buildColorPanel(palette, mode).buttons) {
        const parsed = parseColorCustomId(button.customId);
        expect(parsed).not.toBeNull();
        if (parsed?.action === 'pick' || parsed?.action === 'family') {
          expect(colorNameMatches(button.label, parsed.colorName)).toBe(true);
        }
      }
    }
  });

  it.each([
    ['Red', 'red', true],
    ['Red', 'Reddish', false],
    ['Sky Blue', 'SKY BLUE', true],
    [' Red ', 'Red', true],
  ])('colorNameMatches(%s, %s) = %s', (stored, fromId, expected) => {
    expect(colorNameMatches(stored, fromId)).toBe(expected);
  });
});
