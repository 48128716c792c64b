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
 * The preview lays buttons out in rows of 4 (spec), but Discord allows at most 5 action rows
 * of 5 buttons: 25 buttons in rows of 4 would need 7 rows and Discord would reject the
 * message. So the posted form keeps the same buttons in the same order and regroups them into
 * rows of 5 (5 x 5 = 25). Buttons are grey (secondary): Discord buttons cannot take arbitrary
 * colours, the role colour shows once the member has it.
 */
export function toDiscordComponents(panel: Pick<ColorPanel, 'buttons'>): DiscordActionRow<DiscordButton>[] {
  const maxButtons = DISCORD_LIMITS.actionRowsPerMessage * DISCORD_LIMITS.buttonsPerRow;
  const buttons: DiscordButton[] = panel.buttons.slice(0, maxButtons).map((button) => ({
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    custom_id: button.customId,
    label: button.label,
  }));
  return chunk(buttons, DISCORD_LIMITS.buttonsPerRow).map((components) => ({
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
