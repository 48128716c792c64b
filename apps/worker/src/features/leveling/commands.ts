import { LeaderboardPeriod, type LevelCurve } from '@spacecadet/contract';
import {
  buildLeaderboardMessage,
  buildRankMessage,
  cardAccent,
  LEVELING_DISABLED_MESSAGE,
  LEVELING_TOP_COUNT,
  rankCardAltText,
  rankCardModel,
} from '@spacecadet/core';
import { loadMemberRank, loadPeriodLeaderboard, memberCardAccent } from '@spacecadet/db/queries/leveling';
import { renderRankCard } from '@spacecadet/rank-card';
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  type ChatInputCommandInteraction,
  GuildMember,
  MessageFlags,
  type User,
} from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import type { SlashCommand } from '../../interactions/types.ts';
import { errorFields } from '../../logger.ts';
import { loadAvatar, RANK_CARD_FILENAME } from './rank-card.ts';
import { rankCardBackground } from './rank-card-background.ts';
import { levelingSetups } from './setup.ts';

/** How long the card waits for the avatar before drawing the default one (the answer is due in 3 s). */
export const AVATAR_TIMEOUT_MS = 1000;

export const BOTS_HAVE_NO_XP = 'Bots do not earn XP.';

/** The guild, when leveling is on there; otherwise answered with why not (false). */
export async function levelingGuild(
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
    const curve = await guildCurve(deps, guildId);
    const answer = buildRankMessage({ userId: user.id, self: user.id === interaction.user.id, entry, curve });
    // A member with XP gets the card too; the text stays, for screen readers and notifications.
    const card = entry ? await rankCard(interaction, deps, guildId, user, { ...entry, curve }) : null;
    await interaction.reply({
      content: answer.content,
      allowedMentions: answer.allowed_mentions,
      ...(card ? { files: [{ attachment: card.png, name: RANK_CARD_FILENAME, description: card.alt }] } : {}),
    });
  },
};

/** The member's rank card, or null when drawing it failed (the text answer still goes out). */
async function rankCard(
  interaction: ChatInputCommandInteraction,
  deps: WorkerDeps,
  guildId: string,
  user: User,
  entry: { xp: number; rank: number; curve: LevelCurve },
): Promise<{ png: Buffer; alt: string } | null> {
  try {
    const picked = interaction.options.getMember('member');
    const member =
      picked instanceof GuildMember
        ? picked
        : user.id === interaction.user.id && interaction.member instanceof GuildMember
          ? interaction.member
          : (interaction.guild?.members.cache.get(user.id) ?? null);
    const model = rankCardModel({
      username: member?.displayName ?? user.globalName ?? user.username,
      rank: entry.rank,
      totalXp: entry.xp,
      curve: entry.curve,
    });
    // The accent: the member's own, else the server's, else the bot's highest colored role's.
    const botRoles = interaction.guild?.members.me?.roles.cache.map((role) => ({
      color: role.colors.primaryColor,
      position: role.position,
    }));
    const [avatar, background, own, { settings }] = await Promise.all([
      loadAvatar(
        deps.config.discordCdnBase,
        { userId: user.id, guildId, userAvatar: user.avatar, memberAvatar: member?.avatar ?? null },
        AVATAR_TIMEOUT_MS,
      ),
      rankCardBackground(deps, guildId),
      memberCardAccent(deps.db, guildId, user.id),
      levelingSetups.get(deps, guildId),
    ]);
    const accent = cardAccent({ member: own, server: settings.rankCardAccent, botRoles: botRoles ?? [] });
    const png = await renderRankCard(model, { accent, avatar, background });
    return { png, alt: rankCardAltText(model) };
  } catch (error) {
    deps.logger.warn(
      { ...errorFields(error), guildId, userId: user.id },
      'rank card failed; answering in text',
    );
    return null;
  }
}

/** The server's level curve, from its cached leveling setup. */
async function guildCurve(deps: WorkerDeps, guildId: string): Promise<LevelCurve> {
  return (await levelingSetups.get(deps, guildId)).settings.levelCurve;
}

/** The `/leaderboard period:` choices, as Discord lists them. */
const PERIOD_CHOICES: { name: string; value: LeaderboardPeriod }[] = [
  { name: 'All time', value: 'all' },
  { name: 'This season', value: 'season' },
  { name: 'This week', value: 'week' },
  { name: 'This month', value: 'month' },
];

/** `/leaderboard [period]`: the server's top members by the period's XP (all time by default). */
export const leaderboardCommand: SlashCommand = {
  data: {
    name: 'leaderboard',
    description: 'Shows the members with the most XP in this server',
    type: ApplicationCommandType.ChatInput,
    dm_permission: false,
    options: [
      {
        type: ApplicationCommandOptionType.String,
        name: 'period',
        description: 'All time (the default), this season, this week or this month',
        required: false,
        choices: PERIOD_CHOICES,
      },
    ],
  },
  async execute(interaction, deps) {
    const guildId = await levelingGuild(interaction, deps);
    if (!guildId) return;
    const parsed = LeaderboardPeriod.safeParse(interaction.options.getString('period') ?? 'all');
    const period = parsed.success ? parsed.data : 'all';
    const board = await loadPeriodLeaderboard(deps.db, guildId, period, {
      limit: LEVELING_TOP_COUNT,
      offset: 0,
    });
    const answer = buildLeaderboardMessage({ ...board, period, curve: await guildCurve(deps, guildId) });
    await interaction.reply({ content: answer.content, allowedMentions: answer.allowed_mentions });
  },
};
