import {
  buildNaturalsPicker,
  buildShadePicker,
  COLOR_CUSTOM_ID_PREFIX,
  colorNameMatches,
  type DiscordActionRow,
  parseColorCustomId,
} from '@spacecadet/core';
import { loadPalette, type StoredColor, type StoredShade } from '@spacecadet/db/queries/color-roles';
import { answerEphemeral, type EphemeralAnswer } from '../../interactions/respond.ts';
import type { ComponentRoute } from '../../interactions/types.ts';
import { assignColorRole, removeColorRoles } from './assign.ts';
import { toPanelColors } from './palette.ts';

export const PANEL_OUT_OF_DATE =
  'This color is no longer on the palette. Ask an admin to post the panel again.';

/**
 * Member clicks on the color panel: a colour button gives that colour; in shades mode a family
 * button (or Naturals) answers with an ephemeral shade picker whose buttons give a shade;
 * Remove color takes the member's colour away. A click that changes roles is acknowledged as it
 * arrives (a family button that gives a colour: before the role change) and its outcome edited
 * in, so it never waits behind other role changes for the bot's global 50 requests a second;
 * pickers are answered in one call.
 *
 * A panel posted before the admin switched the mode stays usable after Generate Roles retired
 * the old mode's roles: a colour button whose colour has no role but shades with roles opens
 * the shade picker, and a family button or shade whose shades have no roles gives the colour.
 */
export const colorRoleInteractions: ComponentRoute = {
  prefix: COLOR_CUSTOM_ID_PREFIX,
  async handle(interaction, deps) {
    const action = parseColorCustomId(interaction.customId);
    const guildId = interaction.guildId;
    await answerEphemeral(
      interaction,
      async (deferFirst): Promise<EphemeralAnswer> => {
        if (!action || !guildId) return { content: PANEL_OUT_OF_DATE };
        const palette = await loadPalette(deps.db, guildId);
        switch (action.action) {
          case 'family': {
            const color = palette.find((candidate) => colorNameMatches(candidate.name, action.colorName));
            if (!color) return { content: PANEL_OUT_OF_DATE };
            if (color.roleId && !color.shades.some((shade) => shade.roleId)) {
              return assignColorRole(interaction, deps, palette, color, deferFirst);
            }
            const [panelColor] = toPanelColors([color]);
            if (!panelColor) return { content: PANEL_OUT_OF_DATE };
            return pickerAnswer(buildShadePicker(panelColor));
          }
          case 'naturals':
            return pickerAnswer(buildNaturalsPicker(toPanelColors(palette)));
          case 'pick': {
            const color = palette.find((candidate) => colorNameMatches(candidate.name, action.colorName));
            if (!color) return { content: PANEL_OUT_OF_DATE };
            if (!color.roleId && color.shades.some((shade) => shade.roleId)) {
              const [panelColor] = toPanelColors([color]);
              if (panelColor) return pickerAnswer(buildShadePicker(panelColor));
            }
            return assignColorRole(interaction, deps, palette, color, deferFirst);
          }
          case 'shade': {
            const found = findShade(palette, action.shadeName);
            if (!found) return { content: PANEL_OUT_OF_DATE };
            const choice = !found.shade.roleId && found.color.roleId ? found.color : found.shade;
            return assignColorRole(interaction, deps, palette, choice, deferFirst);
          }
          case 'remove':
            return removeColorRoles(interaction, deps, palette, deferFirst);
        }
      },
      { deferAtOnce: action !== null && CHANGES_ROLES.has(action.action) },
    );
  },
};

/** Clicks that change the member's roles (unless refused), acknowledged as they arrive. */
const CHANGES_ROLES: ReadonlySet<string> = new Set(['pick', 'shade', 'remove']);

/** A shade by name, with its colour; a picker also lists shade-less colours by their own name. */
function findShade(
  palette: readonly StoredColor[],
  name: string,
): { shade: StoredShade; color: StoredColor } | undefined {
  for (const color of palette) {
    const shade = color.shades.find((candidate) => colorNameMatches(candidate.name, name));
    if (shade) return { shade, color };
  }
  const color = palette.find((candidate) => colorNameMatches(candidate.name, name));
  return color ? { shade: color, color } : undefined;
}

function pickerAnswer(picker: { content: string; components: DiscordActionRow[] }): EphemeralAnswer {
  if (picker.components.length === 0) return { content: PANEL_OUT_OF_DATE };
  return { content: picker.content, components: picker.components };
}
