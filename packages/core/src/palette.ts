/**
 * The default color palette "Generate Roles" seeds when a server has none.
 * Order matters: the panel shows rainbow families first, then naturals.
 */

export interface PaletteShade {
  name: string;
  hex: string;
}

export interface PaletteFamily {
  name: string;
  hex: string;
  shades: PaletteShade[];
}

export const RAINBOW_ORDER = ['Red', 'Orange', 'Yellow', 'Green', 'Blue', 'Indigo/Violet', 'Pink'] as const;

export const NATURAL_NAMES = ['Black', 'Brown', 'White', 'Silver', 'Gold'] as const;

/**
 * Hex codes are upper-case `#RRGGBB`. Discord treats role colour 0 (#000000) as
 * "no colour", so Black uses near-blacks instead.
 */
export const DEFAULT_COLOR_PALETTE: readonly PaletteFamily[] = [
  {
    name: 'Red',
    hex: '#E53935',
    shades: [
      { name: 'Light Red', hex: '#FF6F61' },
      { name: 'Crimson', hex: '#DC143C' },
      { name: 'Dark Red', hex: '#8B0000' },
    ],
  },
  {
    name: 'Orange',
    hex: '#FB8C00',
    shades: [
      { name: 'Peach', hex: '#FFB07C' },
      { name: 'Tangerine', hex: '#FF9408' },
      { name: 'Burnt Orange', hex: '#CC5500' },
    ],
  },
  {
    name: 'Yellow',
    hex: '#FDD835',
    shades: [
      { name: 'Lemon', hex: '#FFF44F' },
      { name: 'Mustard', hex: '#FFDB58' },
      { name: 'Amber', hex: '#FFBF00' },
    ],
  },
  {
    name: 'Green',
    hex: '#43A047',
    shades: [
      { name: 'Mint', hex: '#98FF98' },
      { name: 'Lime', hex: '#32CD32' },
      { name: 'Emerald', hex: '#50C878' },
      { name: 'Forest Green', hex: '#228B22' },
    ],
  },
  {
    name: 'Blue',
    hex: '#1E88E5',
    shades: [
      { name: 'Sky Blue', hex: '#87CEEB' },
      { name: 'Teal', hex: '#008080' },
      { name: 'Royal Blue', hex: '#4169E1' },
      { name: 'Navy', hex: '#1F305E' },
    ],
  },
  {
    name: 'Indigo/Violet',
    hex: '#7E57C2',
    shades: [
      { name: 'Lavender', hex: '#B57EDC' },
      { name: 'Violet', hex: '#8F00FF' },
      { name: 'Indigo', hex: '#4B0082' },
    ],
  },
  {
    name: 'Pink',
    hex: '#EC407A',
    shades: [
      { name: 'Light Pink', hex: '#FFB6C1' },
      { name: 'Hot Pink', hex: '#FF69B4' },
      { name: 'Magenta', hex: '#FF00FF' },
    ],
  },
  {
    name: 'Black',
    hex: '#0A0A0A',
    shades: [
      { name: 'Jet', hex: '#111111' },
      { name: 'Onyx', hex: '#1A1A1A' },
      { name: 'Charcoal', hex: '#36454F' },
    ],
  },
  {
    name: 'Brown',
    hex: '#795548',
    shades: [
      { name: 'Tan', hex: '#D2B48C' },
      { name: 'Chocolate', hex: '#7B3F00' },
      { name: 'Coffee', hex: '#4B3621' },
    ],
  },
  {
    name: 'White',
    hex: '#FFFFFF',
    shades: [
      { name: 'Snow', hex: '#FFFAFA' },
      { name: 'Ivory', hex: '#FFFFF0' },
      { name: 'Cream', hex: '#FFFDD0' },
    ],
  },
  {
    name: 'Silver',
    hex: '#C0C0C0',
    shades: [
      { name: 'Light Gray', hex: '#D3D3D3' },
      { name: 'Gray', hex: '#808080' },
      { name: 'Slate', hex: '#708090' },
    ],
  },
  {
    name: 'Gold',
    hex: '#FFD700',
    shades: [
      { name: 'Champagne', hex: '#F7E7CE' },
      { name: 'Goldenrod', hex: '#DAA520' },
      { name: 'Bronze', hex: '#CD7F32' },
    ],
  },
];

/** The group name the default palette seeds each family under. */
export const RAINBOW_GROUP_NAME = 'Rainbow';
export const NATURALS_GROUP_NAME = 'Naturals';

const naturalSet = new Set<string>(NATURAL_NAMES.map((name) => name.toLowerCase()));

export function isNaturalColorName(name: string): boolean {
  return naturalSet.has(name.trim().toLowerCase());
}

/** Discord role colours are 24-bit integers; parse `#RRGGBB` (or `RRGGBB`). */
export function hexToColorInt(hex: string): number {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!match?.[1]) throw new Error(`Invalid hex color: ${hex}`);
  return Number.parseInt(match[1], 16);
}

/** A Discord colour integer as `#RRGGBB` (upper case, as the palette writes hex codes). */
export function colorIntToHex(color: number): string {
  return `#${(color & 0xffffff).toString(16).padStart(6, '0').toUpperCase()}`;
}
