import { describe, expect, it } from 'vitest';
import {
  COLOR_NAME_PATTERN,
  HEX_PATTERN,
  PutPaletteBody,
  ROLE_NAME_MAX_LENGTH,
  SHADE_NAME_PATTERN,
} from '../src/index.ts';

/**
 * The palette body publishes its rules as patterns (OpenAPI) and checks them in one refinement
 * that names the colour: both must say the same of every name and hex.
 */
const NAMES = [
  'Red',
  ' Teal ',
  'Indigo/Violet',
  '🚀',
  '🚀'.repeat(ROLE_NAME_MAX_LENGTH),
  'a'.repeat(ROLE_NAME_MAX_LENGTH),
  'a'.repeat(ROLE_NAME_MAX_LENGTH + 1),
  '',
  '   ',
  '\t',
  'a\u0000b',
  'a\uD800b',
  '@everyone',
  'everyone',
  ' @Here ',
  'heres',
  'naturals',
  ' NATURALS ',
  'Naturals 2',
];
const HEXES = [
  '#1E88E5',
  '1e88e5',
  '#000000',
  '000000',
  '#0A0A0A',
  '#FFF',
  '#12345G',
  ' #123456',
  '#1234567',
  '',
];

const publishedName = (pattern: string, name: string) =>
  new RegExp(pattern, 'u').test(name) && [...name].length >= 1 && [...name].length <= ROLE_NAME_MAX_LENGTH;
const accepted = (colors: unknown) => PutPaletteBody.safeParse({ colors }).success;

describe('palette rules: published pattern and refinement agree', () => {
  it.each(NAMES)('colour name %j', (name) => {
    expect(accepted([{ name, hex: '#123456' }])).toBe(publishedName(COLOR_NAME_PATTERN, name));
  });
  it.each(NAMES)('shade name %j', (name) => {
    expect(accepted([{ name: 'Red', hex: '#123456', shades: [{ name, hex: '#123456' }] }])).toBe(
      publishedName(SHADE_NAME_PATTERN, name),
    );
  });
  it.each(HEXES)('hex %j', (hex) => {
    expect(accepted([{ name: 'Red', hex }])).toBe(new RegExp(HEX_PATTERN, 'u').test(hex));
  });
  it('a shade may be called Naturals, a colour may not', () => {
    expect(accepted([{ name: 'Red', hex: '#123456', shades: [{ name: 'Naturals', hex: '#123456' }] }])).toBe(
      true,
    );
    expect(accepted([{ name: 'Naturals', hex: '#123456' }])).toBe(false);
  });
});
