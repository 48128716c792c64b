/**
 * The color-roles panel layout. The dashboard preview and the message the worker posts are
 * both built from `buildColorPanel`, so what an admin previews is what members get.
 */
import {
  ButtonStyle,
  ComponentType,
  chunk,
  DISCORD_LIMITS,
  type DiscordActionRow,
  type DiscordButton,
  type DiscordEmbed,
  truncateForDiscord,
} from './discord-components.ts';
import { NATURAL_NAMES, RAINBOW_ORDER } from './palette.ts';

export type ColorPanelMode = 'basic' | 'shades';
export const COLOR_PANEL_MODES: readonly ColorPanelMode[] = ['basic', 'shades'];

export interface PanelShade {
  name: string;
  hex: string;
  roleId?: string | null;
}

export interface PanelColor extends PanelShade {
  shades?: PanelShade[];
}

export type ColorButtonKind = 'color' | 'family' | 'naturals';

export interface ColorPanelButton {
  /** Stable React key / identity: lower-cased colour name, or `naturals`. */
  key: string;
  label: string;
  hex: string;
  /** The coloured square shown before the label, see `colorSquareEmoji`. */
  emoji: ColorSquareEmoji;
  customId: string;
  kind: ColorButtonKind;
}

export interface ColorPanel {
  buttons: ColorPanelButton[];
  /** Preview rows (spec: rows of 4). The posted message regroups, see `toDiscordComponents`. */
  rows: ColorPanelButton[][];
  /** True when more colours exist than fit in `COLOR_PANEL_MAX_BUTTONS`. */
  truncated: boolean;
}

export const COLOR_PANEL_MAX_BUTTONS = 25;
export const COLOR_PANEL_PREVIEW_ROW_SIZE = 4;
export const NATURALS_LABEL = 'Naturals';
/** Hex the Naturals button is drawn with in the preview (a warm neutral). */
export const NATURALS_HEX = '#A1887F';
export const COLOR_PANEL_ACCENT = 0xff69b4;

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

// customIds: `color:<action>:<name>`. Names are the lookup key (case-insensitive), so the
// worker needs no extra state to answer a click. Names may contain ':' or '/', which is fine
// because everything after the second ':' is the name. (A colour literally named "naturals"
// would collide with the Naturals button; the palette never seeds one.)
const CUSTOM_ID_PREFIX = 'color';
export const NATURALS_CUSTOM_ID = 'color:family:naturals';

export type ColorPanelAction =
  | { action: 'pick'; colorName: string }
  | { action: 'family'; colorName: string }
  | { action: 'naturals' }
  | { action: 'shade'; shadeName: string };

function customIdFor(action: 'pick' | 'family' | 'shade', name: string): string {
  const prefix = `${CUSTOM_ID_PREFIX}:${action}:`;
  // Discord rejects custom_ids over 100 chars; role names are <= 100 so cut the tail. The worker
  // matches a cut name by prefix (see `colorNameMatches`).
  return prefix + name.slice(0, DISCORD_LIMITS.customIdLength - prefix.length);
}

export function parseColorCustomId(customId: string): ColorPanelAction | null {
  const match = /^color:(pick|family|shade):(.+)$/s.exec(customId);
  if (!match) return null;
  const [, action, name] = match;
  if (!name) return null;
  if (action === 'pick') return { action: 'pick', colorName: name };
  if (action === 'shade') return { action: 'shade', shadeName: name };
  if (customId === NATURALS_CUSTOM_ID) return { action: 'naturals' };
  return { action: 'family', colorName: name };
}

/**
 * Whether a stored colour/shade name is the one a customId refers to: case-insensitive, and
 * a customId that was cut at 100 chars matches by prefix.
 */
export function colorNameMatches(storedName: string, idName: string): boolean {
  const stored = storedName.trim().toLowerCase();
  const wanted = idName.trim().toLowerCase();
  if (stored === wanted) return true;
  return wanted.length >= DISCORD_LIMITS.customIdLength - 'color:family:'.length && stored.startsWith(wanted);
}

// "Indigo" or "Violet" alone take the Indigo/Violet slot, so a hand-made palette sorts too.
const rainbowRank = new Map<string, number>(RAINBOW_ORDER.map((name, i) => [name.toLowerCase(), i]));
rainbowRank.set('indigo', RAINBOW_ORDER.indexOf('Indigo/Violet'));
rainbowRank.set('violet', RAINBOW_ORDER.indexOf('Indigo/Violet'));
const naturalRank = new Map<string, number>(NATURAL_NAMES.map((name, i) => [name.toLowerCase(), i]));

function normalizedName(name: string): string {
  return name.trim().toLowerCase();
}

/** Orders colours for the panel: rainbow order, then naturals, then the rest as given. */
export function orderPanelColors<T extends { name: string }>(
  colors: readonly T[],
): { rainbow: T[]; naturals: T[]; others: T[] } {
  const seen = new Set<string>();
  const rainbow: T[] = [];
  const naturals: T[] = [];
  const others: T[] = [];
  for (const color of colors) {
    const name = normalizedName(color.name);
    if (name === '' || seen.has(name)) continue;
    seen.add(name);
    if (rainbowRank.has(name)) rainbow.push(color);
    else if (naturalRank.has(name)) naturals.push(color);
    else others.push(color);
  }
  const by = (rank: Map<string, number>) => (a: T, b: T) =>
    (rank.get(normalizedName(a.name)) ?? 0) - (rank.get(normalizedName(b.name)) ?? 0);
  rainbow.sort(by(rainbowRank));
  naturals.sort(by(naturalRank));
  return { rainbow, naturals, others };
}

function colorButton(color: PanelColor, mode: ColorPanelMode): ColorPanelButton {
  // In shades mode a colour with shades opens the picker; one without shades has nothing to
  // pick from, so it is picked directly like in basic mode.
  const opensPicker = mode === 'shades' && (color.shades?.length ?? 0) > 0;
  return {
    key: normalizedName(color.name),
    label: truncateForDiscord(color.name.trim(), DISCORD_LIMITS.buttonLabelLength),
    hex: color.hex,
    emoji: colorSquareEmoji(color.hex),
    customId: customIdFor(opensPicker ? 'family' : 'pick', color.name.trim()),
    kind: opensPicker ? 'family' : 'color',
  };
}

export function buildColorPanel(colors: readonly PanelColor[], mode: ColorPanelMode): ColorPanel {
  const { rainbow, naturals, others } = orderPanelColors(colors);
  const buttons: ColorPanelButton[] = rainbow.map((color) => colorButton(color, mode));
  if (mode === 'shades') {
    if (naturals.length > 0) {
      buttons.push({
        key: 'naturals',
        label: NATURALS_LABEL,
        hex: NATURALS_HEX,
        emoji: colorSquareEmoji(NATURALS_HEX),
        customId: NATURALS_CUSTOM_ID,
        kind: 'naturals',
      });
    }
  } else {
    buttons.push(...naturals.map((color) => colorButton(color, mode)));
  }
  buttons.push(...others.map((color) => colorButton(color, mode)));

  const shown = buttons.slice(0, COLOR_PANEL_MAX_BUTTONS);
  return {
    buttons: shown,
    rows: chunk(shown, COLOR_PANEL_PREVIEW_ROW_SIZE),
    truncated: buttons.length > shown.length,
  };
}

/**
 * Discord action rows for the posted panel.
 *
 * The preview lays buttons out in rows of 4 (spec) and the posted panel uses the same rows
 * while they fit Discord's 5 action rows (up to 20 buttons), so members see what the admin
 * previewed. Beyond 20, rows of 4 would need up to 7 rows and Discord would reject the
 * message, so the same buttons in the same order are regrouped into rows of 5 (5 x 5 = 25).
 * Buttons are grey (secondary): Discord buttons cannot take arbitrary colours, so each carries
 * the preview's coloured square emoji before its label.
 */
export function toDiscordComponents(panel: Pick<ColorPanel, 'buttons'>): DiscordActionRow<DiscordButton>[] {
  const maxButtons = DISCORD_LIMITS.actionRowsPerMessage * DISCORD_LIMITS.buttonsPerRow;
  const buttons: DiscordButton[] = panel.buttons.slice(0, maxButtons).map((button) => ({
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    custom_id: button.customId,
    label: button.label,
    emoji: { name: button.emoji },
  }));
  const rowSize =
    buttons.length <= DISCORD_LIMITS.actionRowsPerMessage * COLOR_PANEL_PREVIEW_ROW_SIZE
      ? COLOR_PANEL_PREVIEW_ROW_SIZE
      : DISCORD_LIMITS.buttonsPerRow;
  return chunk(buttons, rowSize).map((components) => ({
    type: ComponentType.ActionRow,
    components,
  }));
}

export function buildColorPanelEmbed(mode: ColorPanelMode = 'basic'): DiscordEmbed {
  const description =
    mode === 'shades'
      ? 'Pick a colour family below, then choose a shade. Picking another colour replaces your current one.'
      : 'Click a colour below to get it. Picking another colour replaces your current one.';
  return {
    title: '🎨 Color Roles',
    description,
    color: COLOR_PANEL_ACCENT,
    footer: { text: 'Only one colour role at a time.' },
  };
}

export interface ShadePicker {
  content: string;
  shades: PanelShade[];
  components: DiscordActionRow<DiscordButton>[];
  truncated: boolean;
}

function pickerFor(title: string, shades: readonly PanelShade[]): ShadePicker {
  const max = DISCORD_LIMITS.actionRowsPerMessage * DISCORD_LIMITS.buttonsPerRow;
  const seen = new Set<string>();
  const unique = shades.filter((shade) => {
    const name = normalizedName(shade.name);
    if (name === '' || seen.has(name)) return false;
    seen.add(name);
    return true;
  });
  const shown = unique.slice(0, max);
  const buttons: DiscordButton[] = shown.map((shade) => ({
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    custom_id: customIdFor('shade', shade.name.trim()),
    label: truncateForDiscord(shade.name.trim(), DISCORD_LIMITS.buttonLabelLength),
    emoji: { name: colorSquareEmoji(shade.hex) },
  }));
  return {
    content: `Choose a shade of **${title}**:`,
    shades: shown,
    components: chunk(buttons, DISCORD_LIMITS.buttonsPerRow).map((components) => ({
      type: ComponentType.ActionRow,
      components,
    })),
    truncated: unique.length > shown.length,
  };
}

/** The ephemeral picker a member sees after clicking a family button (shades mode). */
export function buildShadePicker(color: PanelColor): ShadePicker {
  const shades = color.shades && color.shades.length > 0 ? color.shades : [color];
  return pickerFor(color.name.trim(), shades);
}

/**
 * The ephemeral picker behind the single Naturals button: every natural family's shades
 * (or the family itself when it has none), in natural order.
 */
export function buildNaturalsPicker(colors: readonly PanelColor[]): ShadePicker {
  const { naturals } = orderPanelColors(colors);
  const shades = naturals.flatMap((color) =>
    color.shades && color.shades.length > 0 ? color.shades : [color],
  );
  return pickerFor(NATURALS_LABEL, shades);
}
