/**
 * The color-roles panel layout. The dashboard preview and the message the worker posts are
 * both built from `buildColorPanel`, so what an admin previews is what members get.
 */
import type { ColorRolesMode } from '@spacecadet/contract';
import { colorCustomId, NATURALS_CUSTOM_ID, REMOVE_COLOR_CUSTOM_ID } from './color-custom-id.ts';
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
import { isNaturalColorName } from './palette.ts';

export interface PanelShade {
  name: string;
  hex: string;
  roleId?: string | null;
}

export interface PanelColor extends PanelShade {
  shades?: PanelShade[];
}

/** `remove` is the "Remove color" button that ends every non-empty panel. */
export type ColorButtonKind = 'color' | 'family' | 'naturals' | 'remove';

/** The emoji before "Remove color": not a coloured square, so it reads as no colour. */
export const REMOVE_COLOR_EMOJI = '✖️';
export const REMOVE_COLOR_LABEL = 'Remove color';

export interface ColorPanelButton {
  /** Stable React key / identity: lower-cased colour name, `naturals`, or `color:remove`. */
  key: string;
  label: string;
  hex: string;
  /** The coloured square shown before the label (see `colorSquareEmoji`); ✖️ on Remove color. */
  emoji: ColorSquareEmoji | typeof REMOVE_COLOR_EMOJI;
  customId: string;
  kind: ColorButtonKind;
}

export interface ColorPanel {
  /** Every button in order: the colours, then Remove color (none at all without colours). */
  buttons: ColorPanelButton[];
  /**
   * Preview rows: the colours in rows of 4, then Remove color on a row of its
   * own. The posted message regroups when that is more than 5 rows, see `toDiscordComponents`.
   */
  rows: ColorPanelButton[][];
  /** True when more colours exist than fit in `COLOR_PANEL_MAX_COLORS`. */
  truncated: boolean;
}

/** Discord's 5 rows of 5; the panel's last slot is reserved for Remove color. */
const COLOR_PANEL_MAX_BUTTONS = DISCORD_LIMITS.actionRowsPerMessage * DISCORD_LIMITS.buttonsPerRow;
export const COLOR_PANEL_MAX_COLORS = COLOR_PANEL_MAX_BUTTONS - 1;
const COLOR_PANEL_PREVIEW_ROW_SIZE = 4;
const NATURALS_LABEL = 'Naturals';
/** Hex the Naturals button is drawn with in the preview (a warm neutral). */
export const NATURALS_HEX = '#A1887F';
/** Hex of Remove color in the preview: Discord's grey secondary button. */
const REMOVE_COLOR_HEX = '#4E5058';
const COLOR_PANEL_ACCENT = 0xff69b4;

function normalizedName(name: string): string {
  return name.trim().toLowerCase();
}

/**
 * The colours to show, in the admin's order (the palette's stored order): blank names and a
 * name seen before (any case) are skipped.
 */
function panelColorsInOrder<T extends { name: string }>(colors: readonly T[]): T[] {
  const seen = new Set<string>();
  return colors.filter((color) => {
    const name = normalizedName(color.name);
    if (name === '' || seen.has(name)) return false;
    seen.add(name);
    return true;
  });
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

/**
 * The panel of a palette: one button per colour in the palette's order (the admin orders it;
 * the default palette is seeded rainbow first, then naturals). In shades mode the natural
 * tones (Black, Brown, White, Silver, Gold) share one Naturals button, where the first of them
 * stands.
 */
export function buildColorPanel(colors: readonly PanelColor[], mode: ColorRolesMode): ColorPanel {
  const buttons: ColorPanelButton[] = [];
  let naturalsShown = false;
  for (const color of panelColorsInOrder(colors)) {
    if (mode === 'shades' && isNaturalColorName(color.name)) {
      if (naturalsShown) continue;
      naturalsShown = true;
      buttons.push({
        key: 'naturals',
        label: NATURALS_LABEL,
        hex: NATURALS_HEX,
        emoji: colorSquareEmoji(NATURALS_HEX),
        customId: NATURALS_CUSTOM_ID,
        kind: 'naturals',
      });
    } else {
      buttons.push(colorButton(color, mode));
    }
  }

  const shown = buttons.slice(0, COLOR_PANEL_MAX_COLORS);
  const rows = chunk(shown, COLOR_PANEL_PREVIEW_ROW_SIZE);
  const remove = shown.length > 0 ? removeColorButton() : null;
  return {
    buttons: remove ? [...shown, remove] : shown,
    rows: remove ? [...rows, [remove]] : rows,
    truncated: buttons.length > shown.length,
  };
}

function removeColorButton(): ColorPanelButton {
  return {
    key: REMOVE_COLOR_CUSTOM_ID,
    label: REMOVE_COLOR_LABEL,
    hex: REMOVE_COLOR_HEX,
    emoji: REMOVE_COLOR_EMOJI,
    customId: REMOVE_COLOR_CUSTOM_ID,
    kind: 'remove',
  };
}

/**
 * Discord action rows for the posted panel.
 *
 * The preview lays the colours out in rows of 4 with Remove color on a row of its own,
 * and the posted panel uses the same rows while they fit Discord's 5 action rows (up to 16
 * colours), so members see what the admin previewed. Beyond that Discord would reject the
 * message, so the same buttons in the same order are regrouped: the colours in rows of 5, and
 * Remove color on its own row while one is free (up to 20 colours), else at the end of the last
 * row (the panel keeps at most 24 colours, so that row always has room: 5 x 5 = 25).
 * Buttons are grey (secondary): Discord buttons cannot take arbitrary colours, so each carries
 * the preview's coloured square emoji before its label.
 */
export function toDiscordComponents(panel: Pick<ColorPanel, 'buttons'>): DiscordActionRow<DiscordButton>[] {
  const toButton = (button: ColorPanelButton): DiscordButton => ({
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    custom_id: button.customId,
    label: button.label,
    emoji: { name: button.emoji },
  });
  const remove = panel.buttons.find((button) => button.kind === 'remove');
  const colorButtons = panel.buttons
    .filter((button) => button.kind !== 'remove')
    .slice(0, remove ? COLOR_PANEL_MAX_COLORS : COLOR_PANEL_MAX_BUTTONS)
    .map(toButton);
  const maxRows = DISCORD_LIMITS.actionRowsPerMessage;
  const removeRows = remove ? 1 : 0;
  const previewRows = chunk(colorButtons, COLOR_PANEL_PREVIEW_ROW_SIZE);
  const rows =
    previewRows.length + removeRows <= maxRows
      ? previewRows
      : chunk(colorButtons, DISCORD_LIMITS.buttonsPerRow);
  if (remove) {
    const last = rows.at(-1);
    if (rows.length < maxRows || !last) rows.push([toButton(remove)]);
    else last.push(toButton(remove));
  }
  return rows.map((components) => ({ type: ComponentType.ActionRow, components }));
}

export function buildColorPanelEmbed(mode: ColorRolesMode = 'basic'): DiscordEmbed {
  const pick =
    mode === 'shades' ? 'Pick a color family below, then choose a shade.' : 'Click a color below to get it.';
  const description = `${pick} Picking another color replaces your current one; "${REMOVE_COLOR_LABEL}" takes it away.`;
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
 * (or the family itself when it has none), in the palette's order.
 */
export function buildNaturalsPicker(colors: readonly PanelColor[]): ShadePicker {
  const naturals = panelColorsInOrder(colors).filter((color) => isNaturalColorName(color.name));
  const shades = naturals.flatMap((color) =>
    color.shades && color.shades.length > 0 ? color.shades : [color],
  );
  return pickerFor(NATURALS_LABEL, shades);
}
