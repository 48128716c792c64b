import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { colorPanels } from '../../schema/color-roles.ts';

/** Where the guild's colour panel is posted (channel and message), as the worker moves it. */

export interface ColorPanelLocation {
  /** The channel the admin picked for the panel. */
  channelId: string | null;
  messageId: string | null;
  /**
   * The channel `messageId` was posted in. Rows from before this was stored have none: their
   * message was posted in `channelId`.
   */
  messageChannelId: string | null;
  /** The palette was edited since the panel was posted (see `color_panels.palette_edited`). */
  paletteEdited: boolean;
}

export async function loadPanelLocation(db: Db, guildId: string): Promise<ColorPanelLocation> {
  const [panel] = await db
    .select({
      channelId: colorPanels.channelId,
      messageId: colorPanels.messageId,
      messageChannelId: colorPanels.messageChannelId,
      paletteEdited: colorPanels.paletteEdited,
    })
    .from(colorPanels)
    .where(eq(colorPanels.guildId, guildId))
    .limit(1);
  const messageId = panel?.messageId ?? null;
  return {
    channelId: panel?.channelId ?? null,
    messageId,
    messageChannelId: messageId ? (panel?.messageChannelId ?? panel?.channelId ?? null) : null,
    paletteEdited: panel?.paletteEdited ?? false,
  };
}

/** The channel the admin picked; the panel moves there on the next post. */
export async function savePanelChannel(db: Db, guildId: string, channelId: string | null): Promise<void> {
  const values = { channelId, updatedAt: new Date() };
  await db
    .insert(colorPanels)
    .values({ guildId, ...values })
    .onConflictDoUpdate({ target: colorPanels.guildId, set: values });
}

/**
 * Records the posted panel message and the channel it lives in (both null: no panel). The
 * message shows the palette as it is now, so it is no longer behind an edit.
 */
export async function savePanelMessage(
  db: Db,
  guildId: string,
  message: { id: string; channelId: string } | null,
): Promise<void> {
  const set = {
    messageId: message?.id ?? null,
    messageChannelId: message?.channelId ?? null,
    paletteEdited: false,
  };
  await db
    .insert(colorPanels)
    .values({ guildId, ...set })
    .onConflictDoUpdate({ target: colorPanels.guildId, set: { ...set, updatedAt: sql`now()` } });
}
