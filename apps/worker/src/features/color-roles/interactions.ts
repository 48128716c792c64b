import {
  buildNaturalsPicker,
  buildShadePicker,
  colorNameMatches,
  type DiscordActionRow,
  parseColorCustomId,
} from '@spacecadet/core';
import { loadPalette, type StoredColor, type StoredShade } from '@spacecadet/db/queries/color-roles';
import { answerEphemeral, type EphemeralAnswer } from '../../interactions/respond.ts';
import type { ComponentRoute } from '../../interactions/types.ts';
import { assignColorRole } from './assign.ts';
import { toPanelColors } from './palette.ts';

export const PANEL_OUT_OF_DATE =
  'This color is no longer on the palette. Ask an admin to post the panel again.';

/**
 * Member clicks on the color panel: a colour button gives that colour; in shades mode a family
 * button (or Naturals) answers with an ephemeral shade picker whose buttons give a shade.
 */
export const colorRoleInteractions: ComponentRoute = {
  prefix: 'color:',
  async handle(interaction, deps) {
    const action = parseColorCustomId(interaction.customId);
    const guildId = interaction.guildId;
    await answerEphemeral(interaction, async (): Promise<EphemeralAnswer> => {
      if (!action || !guildId) return { content: PANEL_OUT_OF_DATE };
      const palette = await loadPalette(deps.db, guildId);
      switch (action.action) {
        case 'family': {
          const color = palette.find((candidate) => colorNameMatches(candidate.name, action.colorName));
          if (!color) return { content: PANEL_OUT_OF_DATE };
          const [panelColor] = toPanelColors([color]);
          if (!panelColor) return { content: PANEL_OUT_OF_DATE };
          return pickerAnswer(buildShadePicker(panelColor));
        }
        case 'naturals':
          return pickerAnswer(buildNaturalsPicker(toPanelColors(palette)));
        case 'pick': {
          const color = palette.find((candidate) => colorNameMatches(candidate.name, action.colorName));
          if (!color) return { content: PANEL_OUT_OF_DATE };
          return assignColorRole(interaction, deps, palette, color);
        }
        case 'shade': {
          const choice = findShade(palette, action.shadeName);
          if (!choice) return { content: PANEL_OUT_OF_DATE };
          return assignColorRole(interaction, deps, palette, choice);
        }
      }
    });
  },
};

/** A shade by name; a picker also lists shade-less colours by their own name. */
function findShade(palette: readonly StoredColor[], name: string): StoredShade | undefined {
  for (const color of palette) {
    const shade = color.shades.find((candidate) => colorNameMatches(candidate.name, name));
    if (shade) return shade;
  }
  return palette.find((color) => colorNameMatches(color.name, name));
}

function pickerAnswer(picker: { content: string; components: DiscordActionRow[] }): EphemeralAnswer {
  if (picker.components.length === 0) return { content: PANEL_OUT_OF_DATE };
  return { content: picker.content, components: picker.components };
}
