import { describe, expect, it } from 'vitest';
import {
  colorIntToHex,
  DEFAULT_COLOR_PALETTE,
  hexToColorInt,
  NATURAL_NAMES,
  RAINBOW_ORDER,
} from '../src/palette.ts';

const HEX_COLOR_PATTERN = /^#[0-9A-Fa-f]{6}$/;

describe('DEFAULT_COLOR_PALETTE', () => {
  it('has the 12 families: rainbow order then naturals', () => {
    expect(DEFAULT_COLOR_PALETTE.map((f) => f.name)).toEqual([...RAINBOW_ORDER, ...NATURAL_NAMES]);
  });

  it.each(DEFAULT_COLOR_PALETTE.map((family) => [family.name, family] as const))(
    '%s has a valid base and 3-4 named shades, never pure black',
    (_name, family) => {
      expect(family.hex).toMatch(HEX_COLOR_PATTERN);
      expect(family.shades.length).toBeGreaterThanOrEqual(3);
      expect(family.shades.length).toBeLessThanOrEqual(4);
      for (const shade of [family, ...family.shades]) {
        expect(shade.hex).toMatch(HEX_COLOR_PATTERN);
        expect(shade.hex).not.toBe('#000000');
        expect(shade.name.trim().length).toBeGreaterThan(0);
      }
    },
  );

  it('uses near-black #0A0A0A for Black', () => {
    expect(DEFAULT_COLOR_PALETTE.find((f) => f.name === 'Black')?.hex).toBe('#0A0A0A');
  });

  it('has unique colour and shade names (the panel looks them up by name)', () => {
    const names = DEFAULT_COLOR_PALETTE.flatMap((f) => [f.name, ...f.shades.map((s) => s.name)]).map((n) =>
      n.toLowerCase(),
    );
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('hexToColorInt', () => {
  it.each([
    ['#FF69B4', 0xff69b4],
    ['0a0a0a', 0x0a0a0a],
    ['#ffffff', 0xffffff],
  ])('%s -> %i', (hex, int) => {
    expect(hexToColorInt(hex)).toBe(int);
  });
  it.each(['', '#FFF', '#GGGGGG', '#1234567'])('rejects %s', (hex) => {
    expect(() => hexToColorInt(hex)).toThrow(/Invalid hex/);
  });
});

describe('colorIntToHex', () => {
  it.each([
    [0xff69b4, '#FF69B4'],
    [0x0a0a0a, '#0A0A0A'],
    [0, '#000000'],
    [0xffffff, '#FFFFFF'],
  ])('%i -> %s', (int, hex) => {
    expect(colorIntToHex(int)).toBe(hex);
    expect(hexToColorInt(hex)).toBe(int);
  });
});
