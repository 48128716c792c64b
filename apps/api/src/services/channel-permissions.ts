import {
  type ChannelUseSpec,
  channelPermissionBits,
  collectGuildRefs,
  MESSAGES,
  missingChannelPermissions,
  missingPermissionText,
} from '@spacecadet/contract';
import { ApiError } from '../errors.ts';
import type { DiscordChannel, DiscordClient, DiscordMember, DiscordRole } from './discord.ts';
import { discordFailure } from './guild-resource-answers.ts';

/**
 * Whether the bot can use the channels a request body saves (`GuildResources.assertBotCanUse`,
 * run by the route hooks and an undo's checks): its permissions there, computed as Discord does.
 */

/** The 400's sentence: what is missing where, and how an admin fixes it. */
function channelProblem(missing: Parameters<typeof missingPermissionText>[0], channel: string): string {
  return `${missingPermissionText(missing, channel)}. Allow ${missing.length === 1 ? 'it' : 'them'} for the bot in that channel's permissions on Discord, then save again.`;
}

/**
 * 400 naming what the bot lacks in a channel the body saves (View Channel, Send Messages,
 * Embed Links, Read Message History, as `uses` says), computed as Discord does from the
 * guild's roles, the bot's roles and the channel's overwrites, read fresh from Discord: an
 * admin who just fixed the permissions and saves again is not answered from a cache.
 */
export async function assertBotCanUseChannels(
  discord: DiscordClient,
  guildId: string,
  body: unknown,
  uses: ChannelUseSpec,
): Promise<void> {
  const refs = collectGuildRefs(
    body,
    Object.fromEntries(Object.keys(uses).map((field) => [field, 'channel' as const])),
  );
  if (refs.length === 0) return;
  let channels: DiscordChannel[];
  let roles: DiscordRole[];
  let member: DiscordMember | null;
  try {
    [channels, roles, member] = await Promise.all([
      discord.getGuildChannels(guildId),
      discord.getGuildRoles(guildId),
      discord.getGuildMember(guildId, discord.botUserId),
    ]);
  } catch (error) {
    throw discordFailure(error, 'permissions');
  }
  if (!member) throw new ApiError('bot_not_in_guild', MESSAGES.botNotInGuild);
  for (const ref of refs) {
    const use = uses[ref.field];
    const channel = channels.find((c) => c.id === ref.id);
    // A channel that is not the guild's was refused by assertOwned already.
    if (!use || !channel) continue;
    const bits = channelPermissionBits({
      guildId,
      userId: discord.botUserId,
      roles,
      memberRoleIds: member.roles,
      overwrites: channel.permission_overwrites,
    });
    const missing = missingChannelPermissions(bits, use);
    if (missing.length > 0) {
      const message = channelProblem(missing, `#${channel.name ?? ref.id}`);
      throw new ApiError('invalid_input', message, [{ path: ref.field, message }]);
    }
  }
}
