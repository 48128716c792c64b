import { describe, expect, it } from 'vitest';
import { colorSquareEmoji } from '../src/color-math.ts';
import { NATURALS_HEX } from '../src/color-panel.ts';
import { DEFAULT_COLOR_PALETTE } from '../src/palette.ts';

const familyHex = (name: string) => DEFAULT_COLOR_PALETTE.find((f) => f.name === name)?.hex ?? '';

describe('colorSquareEmoji', () => {
  it.each([
    ['Red', '🟥'],
    ['Orange', '🟧'],
    ['Yellow', '🟨'],
    ['Green', '🟩'],
    ['Blue', '🟦'],
    ['Indigo/Violet', '🟪'],
    // Pink is red-hued and 🟪 is drawn lavender: pinks take 🟥 (documented on colorSquareEmoji).
    ['Pink', '🟥'],
    ['Black', '⬛'],
    ['Brown', '🟫'],
    ['White', '⬜'],
    ['Silver', '⬜'],
    ['Gold', '🟨'],
  ])('default %s family reads %s', (name, emoji) => {
    expect(familyHex(name)).toMatch(/^#/);
    expect(colorSquareEmoji(familyHex(name))).toBe(emoji);
  });

  it.each([
    // Default palette shades.
    ['Dark Red', '#8B0000', '🟥'],
    ['Light Pink', '#FFB6C1', '🟥'],
    ['Hot Pink', '#FF69B4', '🟥'],
    ['Magenta', '#FF00FF', '🟪'],
    ['Indigo', '#4B0082', '🟪'],
    ['Lavender', '#B57EDC', '🟪'],
    ['Burnt Orange', '#CC5500', '🟧'],
    ['Peach', '#FFB07C', '🟧'],
    ['Bronze', '#CD7F32', '🟧'],
    ['Lemon', '#FFF44F', '🟨'],
    ['Goldenrod', '#DAA520', '🟨'],
    ['Mint', '#98FF98', '🟩'],
    ['Forest Green', '#228B22', '🟩'],
    ['Teal', '#008080', '🟦'],
    ['Navy', '#1F305E', '🟦'],
    ['Sky Blue', '#87CEEB', '🟦'],
    ['Charcoal', '#36454F', '⬛'],
    ['Chocolate', '#7B3F00', '🟫'],
    ['Coffee', '#4B3621', '🟫'],
    ['Tan', '#D2B48C', '🟫'],
    ['Cream', '#FFFDD0', '⬜'],
    ['Champagne', '#F7E7CE', '⬜'],
    ['Gray', '#808080', '⬜'],
    ['Slate', '#708090', '⬜'],
    ['Naturals button', NATURALS_HEX, '🟫'],
    // Edges: pure primaries, extremes, greys either side of the black/white split.
    ['pure red', '#FF0000', '🟥'],
    ['pure green', '#00FF00', '🟩'],
    ['pure blue', '#0000FF', '🟦'],
    ['cyan', '#00FFFF', '🟦'],
    ['pure yellow', '#FFFF00', '🟨'],
    ['maroon', '#800000', '🟥'],
    ['true black', '#000000', '⬛'],
    ['very dark blue is black', '#0A0A1E', '⬛'],
    ['dim grey', '#696969', '⬛'],
    ['lower-case, no #, padded', ' e53935 ', '🟥'],
    ['short #RGB', '#F0F', '🟪'],
    ['not a hex', 'red', '⬜'],
    ['empty', '', '⬜'],
  ])('%s %s reads %s', (_name, hex, emoji) => {
    expect(colorSquareEmoji(hex)).toBe(emoji);
  });
});
