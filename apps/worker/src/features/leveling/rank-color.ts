import { RankCardAccent } from '@spacecadet/contract';
import { setMemberCardAccent } from '@spacecadet/db/queries/leveling';
import { ApplicationCommandOptionType, ApplicationCommandType, MessageFlags } from 'discord.js';
import type { SlashCommand } from '../../interactions/types.ts';
import { BOTS_HAVE_NO_XP, levelingGuild } from './commands.ts';

/**
 * `/rank-color [hex]`: a member's own rank card accent (`#RRGGBB`), or back to the server's
 * when left out. A command of its own, since `/rank` takes a member and Discord does not mix
 * subcommands with options. Answered only to the member.
 */

export const RANK_COLOR_NO_XP = 'You have no XP yet: chat a little, then pick your card’s color.';

export const rankColorCommand: SlashCommand = {
  data: {
    name: 'rank-color',
    description: 'Picks the accent color of your rank card (the server’s if left out)',
    type: ApplicationCommandType.ChatInput,
    dm_permission: false,
    options: [
      {
        type: ApplicationCommandOptionType.String,
        name: 'hex',
        description: 'A color like #5865F2 (leave out to use the server’s)',
        required: false,
        max_length: 16,
      },
    ],
  },
  async execute(interaction, deps) {
    const guildId = await levelingGuild(interaction, deps);
    if (!guildId) return;
    const reply = (content: string) => interaction.reply({ content, flags: MessageFlags.Ephemeral });
    if (interaction.user.bot) {
      await reply(BOTS_HAVE_NO_XP);
      return;
    }
    const raw = interaction.options.getString('hex')?.trim() ?? null;
    let accent: string | null = null;
    if (raw) {
      const parsed = RankCardAccent.safeParse(raw.startsWith('#') ? raw : `#${raw}`);
      if (!parsed.success) {
        await reply(parsed.error.issues[0]?.message ?? 'The accent must be a color like #5865F2');
        return;
      }
      accent = parsed.data.toUpperCase();
    }
    const stored = await setMemberCardAccent(deps.db, guildId, interaction.user.id, accent);
    if (!stored) {
      await reply(RANK_COLOR_NO_XP);
      return;
    }
    await reply(
      accent ? `Your rank card’s accent is now ${accent}.` : 'Your rank card uses the server’s accent again.',
    );
  },
};
