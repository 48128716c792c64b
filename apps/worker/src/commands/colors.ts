import { colorPanels } from '@spacecadet/db/schema';
import { ApplicationCommandType, channelMention, MessageFlags, messageLink } from 'discord.js';
import { eq } from 'drizzle-orm';
import type { SlashCommand } from '../interactions/types.ts';

export const NO_COLOR_PANEL_MESSAGE =
  'There is no color panel in this server yet. An admin can post one from the dashboard (Color Roles → Post / Update Panel).';

/** `/colors`: tells a member where the color panel is and how it works. */
export const colorsCommand: SlashCommand = {
  data: {
    name: 'colors',
    description: 'Shows how to pick your name color',
    type: ApplicationCommandType.ChatInput,
    dm_permission: false,
  },
  async execute(interaction, deps) {
    const guildId = interaction.guildId;
    const [panel] = guildId
      ? await deps.db.select().from(colorPanels).where(eq(colorPanels.guildId, guildId)).limit(1)
      : [];
    // The message's own channel: the configured one may have changed since it was posted.
    const channelId = panel?.messageChannelId ?? panel?.channelId;
    const content =
      guildId && channelId && panel?.messageId
        ? [
            `Pick a color on the panel in ${channelMention(channelId)}: ${messageLink(channelId, panel.messageId, guildId)}`,
            'Click a color button to get it; picking another one replaces it. If the panel shows families, click one and choose a shade.',
          ].join('\n')
        : NO_COLOR_PANEL_MESSAGE;
    await interaction.reply({ content, flags: MessageFlags.Ephemeral });
  },
};
