import { loadPanelLocation } from '@spacecadet/db/queries/color-roles';
import { ApplicationCommandType, channelMention, MessageFlags, messageLink } from 'discord.js';
import type { SlashCommand } from '../../interactions/types.ts';

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
    const panel = guildId ? await loadPanelLocation(deps.db, guildId) : null;
    const content =
      guildId && panel?.messageChannelId && panel.messageId
        ? [
            `Pick a color on the panel in ${channelMention(panel.messageChannelId)}: ${messageLink(panel.messageChannelId, panel.messageId, guildId)}`,
            'Click a color button to get it; picking another one replaces it, and "Remove color" takes it away. If the panel shows families, click one and choose a shade.',
          ].join('\n')
        : NO_COLOR_PANEL_MESSAGE;
    await interaction.reply({ content, flags: MessageFlags.Ephemeral });
  },
};
