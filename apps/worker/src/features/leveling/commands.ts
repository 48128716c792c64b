import {
  buildLeaderboardMessage,
  buildRankMessage,
  LEVELING_DISABLED_MESSAGE,
  LEVELING_TOP_COUNT,
} from '@spacecadet/core';
import { loadLeaderboard, loadMemberRank } from '@spacecadet/db/queries/leveling';
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  type ChatInputCommandInteraction,
  MessageFlags,
} from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import type { SlashCommand } from '../../interactions/types.ts';
import { levelingSetups } from './setup.ts';

export const BOTS_HAVE_NO_XP = 'Bots do not earn XP.';

/** The guild, when leveling is on there; otherwise answered with why not (false). */
async function levelingGuild(
  interaction: ChatInputCommandInteraction,
  deps: WorkerDeps,
): Promise<string | null> {
  const guildId = interaction.guildId;
  if (!guildId) {
    await interaction.reply({ content: 'Use this command in a server.', flags: MessageFlags.Ephemeral });
    return null;
  }
  const { settings } = await levelingSetups.get(deps, guildId);
  if (!settings.enabled) {
    await interaction.reply({ content: LEVELING_DISABLED_MESSAGE, flags: MessageFlags.Ephemeral });
    return null;
  }
  return guildId;
}

/** `/rank [member]`: a member's level, progress to the next level, total XP and rank. */
export const rankCommand: SlashCommand = {
  data: {
    name: 'rank',
    description: 'Shows your level and rank (or another member’s)',
    type: ApplicationCommandType.ChatInput,
    dm_permission: false,
    options: [
      {
        type: ApplicationCommandOptionType.User,
        name: 'member',
        description: 'Whose rank to show (you if left out)',
        required: false,
      },
    ],
  },
  async execute(interaction, deps) {
    const guildId = await levelingGuild(interaction, deps);
    if (!guildId) return;
    const user = interaction.options.getUser('member') ?? interaction.user;
    if (user.bot) {
      await interaction.reply({ content: BOTS_HAVE_NO_XP, flags: MessageFlags.Ephemeral });
      return;
    }
    const entry = await loadMemberRank(deps.db, guildId, user.id);
    const answer = buildRankMessage({ userId: user.id, self: user.id === interaction.user.id, entry });
    await interaction.reply({ content: answer.content, allowedMentions: answer.allowed_mentions });
  },
};

/** `/leaderboard`: the server's top members by XP. */
export const leaderboardCommand: SlashCommand = {
  data: {
    name: 'leaderboard',
    description: 'Shows the members with the most XP in this server',
    type: ApplicationCommandType.ChatInput,
    dm_permission: false,
  },
  async execute(interaction, deps) {
    const guildId = await levelingGuild(interaction, deps);
    if (!guildId) return;
    const board = await loadLeaderboard(deps.db, guildId, { limit: LEVELING_TOP_COUNT, offset: 0 });
    const answer = buildLeaderboardMessage(board);
    await interaction.reply({ content: answer.content, allowedMentions: answer.allowed_mentions });
  },
};
