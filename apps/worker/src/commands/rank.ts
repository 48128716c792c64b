import { levelProgress } from '@spacecadet/core';
import { memberXp } from '@spacecadet/db/schema';
import { ApplicationCommandType, MessageFlags } from 'discord.js';
import { and, eq } from 'drizzle-orm';
import type { SlashCommand } from '../interactions/types.ts';

/** `/rank`: the member's own XP and level in this server. */
export const rankCommand: SlashCommand = {
  data: {
    name: 'rank',
    description: 'Shows your XP and level in this server',
    type: ApplicationCommandType.ChatInput,
    dm_permission: false,
  },
  async execute(interaction, deps) {
    const guildId = interaction.guildId;
    if (!guildId) {
      await interaction.reply({ content: 'Use /rank inside a server.', flags: MessageFlags.Ephemeral });
      return;
    }
    const [row] = await deps.db
      .select({ xp: memberXp.xp })
      .from(memberXp)
      .where(and(eq(memberXp.guildId, guildId), eq(memberXp.userId, interaction.user.id)))
      .limit(1);
    const xp = row?.xp ?? 0;
    const { level, xpIntoLevel, xpForNext } = levelProgress(xp);
    const content =
      xp === 0
        ? 'You have no XP here yet. Chat in the server to earn some!'
        : `You are level **${level}** with **${xp}** XP (${xpIntoLevel} / ${xpForNext} toward level ${level + 1}).`;
    await interaction.reply({ content, flags: MessageFlags.Ephemeral });
  },
};
