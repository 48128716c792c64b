/**
 * Colour math for the panel: which of Discord's coloured square emoji reads closest to a role's
 * hex, so grey buttons still show their colour.
 */

/**
 * Discord buttons are grey whatever the role colour, but they can carry a unicode emoji. These
 * are Discord's coloured squares; `colorSquareEmoji` picks the one that reads closest to a hex.
 */
export const COLOR_SQUARE_EMOJIS = ['🟥', '🟧', '🟨', '🟩', '🟦', '🟪', '🟫', '⬛', '⬜'] as const;
export type ColorSquareEmoji = (typeof COLOR_SQUARE_EMOJIS)[number];

/** sRGB hex to OKLCh (lightness 0..1, chroma ~0..0.32, hue in degrees), a perceptual colour space. */
function hexToOklch(hex: string): { l: number; c: number; h: number } | null {
  const match = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(hex.trim());
  if (!match?.[1]) return null;
  const digits = match[1].length === 3 ? [...match[1]].map((d) => d + d).join('') : match[1];
  const n = Number.parseInt(digits, 16);
  const linear = (channel: number) => {
    const v = channel / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const r = linear((n >> 16) & 255);
  const g = linear((n >> 8) & 255);
  const b = linear(n & 255);
  const l_ = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m_ = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s_ = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  const l = 0.2104542553 * l_ + 0.793617785 * m_ - 0.0040720468 * s_;
  const a = 1.9779984951 * l_ - 2.428592205 * m_ + 0.4505937099 * s_;
  const bb = 0.0259040371 * l_ + 0.7827717662 * m_ - 0.808675766 * s_;
  const h = (Math.atan2(bb, a) * 180) / Math.PI;
  return { l, c: Math.hypot(a, bb), h: h < 0 ? h + 360 : h };
}

// Hue boundaries (OKLCh degrees) sit halfway between the hues of the squares as Discord's emoji
// font (Twemoji) draws them: red 20, orange 63, yellow 85, green 136, blue 244, purple 302.
// Yellow|green is moved from 110 to 115 so lemon yellows stay yellow.
const HUE_SQUARES: ReadonlyArray<readonly [upTo: number, emoji: ColorSquareEmoji]> = [
  [41, '🟥'],
  [74, '🟧'],
  [115, '🟨'],
  [190, '🟩'],
  [273, '🟦'],
  [341, '🟪'],
  [360, '🟥'],
];
/** Below this chroma a colour reads as grey (or, when warm, as a muted brown). */
const MUTED_CHROMA = 0.07;
const NEUTRAL_CHROMA = 0.025;
/** Greys darker than this read ⬛ (Charcoal, Dim Gray), lighter ones ⬜ (Gray, Silver). */
const GREY_WHITE_FROM = 0.55;
const WARM_HUES = { from: 20, to: 115 } as const;

/** From orange on, a dark warm colour reads brown; darker reds stay red (Dark Red #8B0000). */
const DARK_BROWN_FROM_HUE = 41;
const isWarm = (h: number) => h >= WARM_HUES.from && h < WARM_HUES.to;

/**
 * The coloured square that reads closest to `hex`, judged in OKLCh (perceptual lightness,
 * chroma and hue) rather than by raw RGB distance, which sends greys to 🟪 and dark reds to ⬛:
 *
 * - near black (lightness < 0.2) is ⬛;
 * - greys and near-whites (chroma < 0.07) are ⬛ below lightness 0.55, else ⬜; a muted
 *   warm colour that is not near white is 🟫 (Brown #795548, Tan, the Naturals button's taupe);
 * - a dark orange or yellow (lightness < 0.5) is 🟫 (Chocolate), a dark red stays 🟥;
 * - everything else goes by hue (see `HUE_SQUARES`). Teal and cyan read 🟦, magenta 🟪.
 *
 * Pink has no square. Pinks are red-hued (default Pink #EC407A is ~5°, Hot Pink ~352°) and
 * 🟪 is drawn lavender, so pinks take 🟥, the nearer of the two; the label tells them apart.
 * Anything that is not a `#RGB`/`#RRGGBB` hex gets ⬜, which claims no colour.
 */
export function colorSquareEmoji(hex: string): ColorSquareEmoji {
  const lch = hexToOklch(hex);
  if (!lch) return '⬜';
  const { l, c, h } = lch;
  if (l < 0.2) return '⬛';
  if (c < MUTED_CHROMA) {
    if (c >= NEUTRAL_CHROMA && isWarm(h) && l < 0.85) return '🟫';
    return l < GREY_WHITE_FROM ? '⬛' : '⬜';
  }
  if (l < 0.5 && h >= DARK_BROWN_FROM_HUE && h < WARM_HUES.to) return '🟫';
  return HUE_SQUARES.find(([upTo]) => h < upTo)?.[1] ?? '🟥';
}

/** WCAG relative luminance of an RGB integer. */
function relativeLuminance(rgb: number): number {
  const channel = (shift: number) => {
    const c = ((rgb >> shift) & 0xff) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0);
}

/** WCAG contrast ratio of two RGB integers (1 to 21). */
export function contrastRatio(a: number, b: number): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * `rgb` mixed toward white just enough to be read on `background` (WCAG AA, 4.5:1 by default):
 * a role's color as text on a dark surface keeps its hue and stays legible.
 */
export function readableOn(rgb: number, background: number, minRatio = 4.5): number {
  const mix = (t: number) => {
    const part = (shift: number) => {
      const c = (rgb >> shift) & 0xff;
      return Math.round(c + (255 - c) * t) << shift;
    };
    return part(16) | part(8) | part(0);
  };
  for (let step = 0; step <= 20; step++) {
    const color = mix(step / 20);
    if (contrastRatio(color, background) >= minRatio) return color;
  }
  return 0xffffff;
}
