import { routes } from '@spacecadet/contract';
import {
  type PaletteState,
  readColorChannelState,
  readPaletteState,
  writeColorChannel,
  writePalette,
} from '../services/color-roles.ts';
import type { AreaRestorers } from './restorers.ts';
import { checkAsRoute } from './route-checks.ts';

/**
 * A recorded palette, its ids kept only where the palette still has them: a color (or shade)
 * removed since comes back as a new one, its role made by the next Generate Roles.
 */
async function withKnownIds(
  db: Parameters<typeof readPaletteState>[0],
  guildId: string,
  state: PaletteState,
): Promise<PaletteState> {
  const now = await readPaletteState(db, guildId);
  const shadesOf = new Map(
    now.colors.map((color) => [color.color_id, new Set(color.shades.map((shade) => shade.shade_id))]),
  );
  return {
    colors: state.colors.map((color) => {
      const shades = color.color_id === undefined ? undefined : shadesOf.get(color.color_id);
      return {
        ...(shades ? { color_id: color.color_id } : {}),
        name: color.name,
        hex: color.hex,
        shades: color.shades.map((shade) => ({
          ...(shades?.has(shade.shade_id) ? { shade_id: shade.shade_id } : {}),
          name: shade.name,
          hex: shade.hex,
        })),
      };
    }),
  };
}

/** Undo of color settings changes (see `restorers.ts`): the palette and the panel's channel. */
export const colorSettingsRestorers: AreaRestorers = {
  state: {
    'color_roles:palette': {
      read: (context) => readPaletteState(context.app.services.db, context.guildId),
      async restore(context, _id, state) {
        const { db } = context.app.services;
        const palette = await withKnownIds(
          db,
          context.guildId,
          (state as PaletteState | null) ?? { colors: [] },
        );
        await writePalette(db, context.guildId, palette);
        return {};
      },
    },
    'color_roles:channel': {
      read: (context) => readColorChannelState(context.app.services.db, context.guildId),
      async restore(context, _id, state) {
        const channelId = (state as { channel_id: string | null } | null)?.channel_id ?? null;
        if (channelId !== null)
          await checkAsRoute(context, routes.setColorRolesChannel, { channel_id: channelId });
        await writeColorChannel(context.app.services.db, context.guildId, channelId);
        return {};
      },
    },
  },
  snapshot: {},
};
