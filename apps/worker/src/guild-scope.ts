import {
  type ChannelUse,
  channelPermissionBits,
  missingChannelPermissions,
  missingPermissionText,
} from '@spacecadet/contract';
import type { Client, RESTPatchAPIChannelMessageJSONBody } from 'discord.js';
import { DiscordCodes, discordApi, isDiscordError } from './discord-rest.ts';
import { isKnownGuildChannel } from './guild-channels.ts';
import { JobFailure } from './jobs/types.ts';

/**
 * The worker's own check that a stored channel id belongs to the guild it acts for. The API
 * refuses foreign ids in requests, but the bot is in many servers and Discord's channel routes
 * are not scoped by guild: a stored id (written before that check, or by hand) could otherwise
 * make one server's job post or delete in another. A channel this process saw in the guild's
 * gateway events (guild-channels.ts) needs no request; any other is asked of Discord by REST,
 * since any worker process may run any guild's job, whichever shards it holds.
 */
export type ChannelScope = 'own' | 'foreign' | 'missing';

export async function channelScope(
  client: Client,
  guildId: string,
  channelId: string,
): Promise<ChannelScope> {
  if (isKnownGuildChannel(client, guildId, channelId)) return 'own';
  try {
    const channel = await discordApi(client).channels.get(channelId);
    return 'guild_id' in channel && channel.guild_id === guildId ? 'own' : 'foreign';
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownChannel)) return 'missing';
    // The bot cannot see it: not a channel of a guild the bot serves, so not this guild's.
    if (isDiscordError(error, DiscordCodes.MissingAccess)) return 'foreign';
    throw error;
  }
}

export const FOREIGN_CHANNEL_MESSAGE = 'That channel is not in this server. Pick a channel again.';

/** Fails the job (no retry) unless the channel is the guild's own; `missing` names what to fix. */
export async function requireGuildChannel(
  client: Client,
  guildId: string,
  channelId: string,
  missing: string,
): Promise<void> {
  const scope = await channelScope(client, guildId, channelId);
  if (scope === 'foreign') throw new JobFailure('invalid_input', FOREIGN_CHANNEL_MESSAGE);
  if (scope === 'missing') throw new JobFailure('invalid_input', missing);
}

/**
 * Deletes a message the bot posted (a panel, a question); one already deleted, or in a deleted
 * channel, counts as done. A stored channel of another guild is never touched.
 */
export async function deleteGuildMessage(
  client: Client,
  guildId: string,
  channelId: string,
  messageId: string,
): Promise<void> {
  if ((await channelScope(client, guildId, channelId)) !== 'own') return;
  try {
    await discordApi(client).channels.deleteMessage(channelId, messageId);
  } catch (error) {
    if (!isDiscordError(error, DiscordCodes.UnknownMessage, DiscordCodes.UnknownChannel)) throw error;
  }
}

/** True if the message was edited; false if it no longer exists (deleted by someone). */
export async function editGuildMessage(
  client: Client,
  channelId: string,
  messageId: string,
  body: RESTPatchAPIChannelMessageJSONBody,
): Promise<boolean> {
  try {
    await discordApi(client).channels.editMessage(channelId, messageId, body);
    return true;
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownMessage)) return false;
    throw error;
  }
}

/**
 * The job failure for a post Discord refused with 50013 / 50001: "Missing permission Embed
 * Links in #roles", computed as Discord does from the guild's roles, the bot's roles and the
 * channel's overwrites (read by REST, like the scope check). When the permissions look
 * complete (changed meanwhile) or cannot be read, `fallback` is the message.
 */
export async function channelPermissionFailure(
  client: Client,
  guildId: string,
  channelId: string,
  use: ChannelUse,
  fallback: string,
): Promise<JobFailure> {
  const botId = client.user?.id;
  try {
    if (!botId) throw new Error('not logged in');
    const api = discordApi(client);
    const [channels, roles, me] = await Promise.all([
      api.guilds.getChannels(guildId),
      api.guilds.getRoles(guildId),
      api.guilds.getMember(guildId, botId),
    ]);
    const channel = channels.find((c) => c.id === channelId);
    const overwrites =
      channel && 'permission_overwrites' in channel ? (channel.permission_overwrites ?? []) : [];
    const bits = channelPermissionBits({
      guildId,
      userId: botId,
      roles,
      memberRoleIds: me.roles,
      overwrites,
    });
    const missing = missingChannelPermissions(bits, use);
    if (missing.length > 0) {
      const name = channel && 'name' in channel && channel.name ? `#${channel.name}` : `<#${channelId}>`;
      return new JobFailure(
        'forbidden',
        `${missingPermissionText(missing, name)}. Allow ${missing.length === 1 ? 'it' : 'them'} for the bot in that channel's permissions on Discord, then run this again.`,
      );
    }
  } catch {
    // The explanation is best effort: the refusal itself is what the job reports.
  }
  return new JobFailure('forbidden', fallback);
}
