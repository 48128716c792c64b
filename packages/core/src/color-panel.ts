/**
 * The color-roles panel layout. The dashboard preview and the message the worker posts are
 * both built from `buildColorPanel`, so what an admin previews is what members get.
 */
import type { ColorRolesMode } from '@spacecadet/contract';
import { colorCustomId, NATURALS_CUSTOM_ID } from './color-custom-id.ts';
import { type ColorSquareEmoji, colorSquareEmoji } from './color-math.ts';
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

const COLOR_PANEL_MAX_BUTTONS = 25;
const COLOR_PANEL_PREVIEW_ROW_SIZE = 4;
const NATURALS_LABEL = 'Naturals';
/** Hex the Naturals button is drawn with in the preview (a warm neutral). */
export const NATURALS_HEX = '#A1887F';
const COLOR_PANEL_ACCENT = 0xff69b4;

// "Indigo" or "Violet" alone take the Indigo/Violet slot, so a hand-made palette sorts too.
const rainbowRank = new Map<string, number>(RAINBOW_ORDER.map((name, i) => [name.toLowerCase(), i]));
rainbowRank.set('indigo', RAINBOW_ORDER.indexOf('Indigo/Violet'));
rainbowRank.set('violet', RAINBOW_ORDER.indexOf('Indigo/Violet'));
const naturalRank = new Map<string, number>(NATURAL_NAMES.map((name, i) => [name.toLowerCase(), i]));

function normalizedName(name: string): string {
  return name.trim().toLowerCase();
}

/** Orders colours for the panel: rainbow order, then naturals, then the rest as given. */
function orderPanelColors<T extends { name: string }>(
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

function colorButton(color: PanelColor, mode: ColorRolesMode): ColorPanelButton {
  // In shades mode a colour with shades opens the picker; one without shades has nothing to
  // pick from, so it is picked directly like in basic mode.
  const opensPicker = mode === 'shades' && (color.shades?.length ?? 0) > 0;
  return {
    key: normalizedName(color.name),
    label: truncateForDiscord(color.name.trim(), DISCORD_LIMITS.buttonLabelLength),
    hex: color.hex,
    emoji: colorSquareEmoji(color.hex),
    customId: colorCustomId(opensPicker ? 'family' : 'pick', color.name.trim()),
    kind: opensPicker ? 'family' : 'color',
  };
}

export function buildColorPanel(colors: readonly PanelColor[], mode: ColorRolesMode): ColorPanel {
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

export function buildColorPanelEmbed(mode: ColorRolesMode = 'basic'): DiscordEmbed {
  const description =
    mode === 'shades'
      ? 'Pick a color family below, then choose a shade. Picking another color replaces your current one.'
      : 'Click a color below to get it. Picking another color replaces your current one.';
  return {
    title: '🎨 Color Roles',
    description,
    color: COLOR_PANEL_ACCENT,
    footer: { text: 'Only one color role at a time.' },
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
    custom_id: colorCustomId('shade', shade.name.trim()),
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
