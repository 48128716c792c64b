import { type Channel, type GuildRole, MESSAGES, type MemberSummary } from '@spacecadet/contract';
import { z } from 'zod';
import { ApiError } from '../errors.ts';
import {
  DISCORD_PROXY_UNREACHABLE,
  type DiscordChannel,
  DiscordError,
  type DiscordMember,
  type DiscordRole,
} from './discord.ts';

/**
 * How the bot's Discord answers become what `GuildResources` (guild-resources.ts) answers and
 * caches: the pickers' channels, roles and members, the shapes their cache entries are read
 * back with, and the error a failed read answers (`discordFailure`).
 */

/** GUILD_TEXT and GUILD_ANNOUNCEMENT: the channels a panel or announcement can go to. */
const TEXT_CHANNEL_TYPES = new Set([0, 5]);
/** A cache entry's JSON; undefined (a miss) when it is not JSON. */
export function parseCachedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Discord's thread channel types (announcement, public, private thread). */
export const THREAD_TYPES = new Set([10, 11, 12]);
/** GUILD_VOICE and GUILD_STAGE_VOICE: where members earn voice XP. */
const VOICE_CHANNEL_TYPES = new Set([2, 13]);
/** The guild's text and voice channels as cached, each with its Discord type. */
export const CachedChannels = z.array(z.object({ id: z.string(), name: z.string(), type: z.number() }));
export type CachedChannel = z.infer<typeof CachedChannels>[number];
export const CachedRoles = z.array(
  z.object({
    id: z.string(),
    name: z.string(),
    color: z.number(),
    position: z.number(),
    managed: z.boolean(),
  }),
);
export const CachedEmojiIds = z.array(z.string());
export const CachedProfile = z.object({ id: z.string(), name: z.string(), icon: z.string().nullable() });
export const CachedMembers = z.array(
  z.object({ id: z.string(), username: z.string(), display_name: z.string(), avatar: z.string().nullable() }),
);

/** The text and voice channels, in Discord's order: what the cache keeps. */
export function listedChannels(channels: DiscordChannel[]): CachedChannel[] {
  return channels
    .filter((channel) => TEXT_CHANNEL_TYPES.has(channel.type) || VOICE_CHANNEL_TYPES.has(channel.type))
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0) || a.id.localeCompare(b.id))
    .map((channel) => ({ id: channel.id, name: channel.name ?? channel.id, type: channel.type }));
}

/** The channels a panel or announcement can go to. */
export function textChannels(channels: readonly CachedChannel[]): Channel[] {
  return channels
    .filter((channel) => TEXT_CHANNEL_TYPES.has(channel.type))
    .map((channel) => ({ id: channel.id, name: channel.name }));
}

/** The text channels and the voice ones (marked `voice`), for settings naming any channel. */
export function textAndVoiceChannels(channels: readonly CachedChannel[]): Channel[] {
  return channels.map((channel) =>
    VOICE_CHANNEL_TYPES.has(channel.type)
      ? { id: channel.id, name: channel.name, voice: true }
      : { id: channel.id, name: channel.name },
  );
}

/** Every role but @everyone (whose id is the guild's), highest first as Discord lists them. */
export function pickableRoles(guildId: string, roles: DiscordRole[]): GuildRole[] {
  return roles
    .filter((role) => role.id !== guildId)
    .sort((a, b) => b.position - a.position || a.id.localeCompare(b.id))
    .map((role) => ({
      id: role.id,
      name: role.name,
      color: role.color,
      position: role.position,
      managed: role.managed,
    }));
}

/** A member as the member picker shows it (the server nickname first). */
export function memberSummary(member: DiscordMember): MemberSummary {
  const { user } = member;
  return {
    id: user.id,
    username: user.username,
    display_name: member.nick || user.global_name || user.username,
    avatar: user.avatar,
  };
}

/** Discord no longer lets the bot see the guild, or could not be asked. */
export function discordFailure(error: unknown, what: string): ApiError {
  // The bot was removed after bot_guilds was written (or never was in the guild).
  // The Discord proxy (DISCORD_PROXY_URL) not answering is a dependency down, like Redis: 503.
  const failure =
    error instanceof DiscordError && (error.status === 403 || error.status === 404)
      ? new ApiError('bot_not_in_guild', MESSAGES.botNotInGuild)
      : error instanceof DiscordError && error.discordCode === DISCORD_PROXY_UNREACHABLE
        ? new ApiError(
            'service_unavailable',
            `Could not load ${what}: Discord cannot be reached. Try again shortly.`,
          )
        : new ApiError('discord_request_failed', `Could not load ${what} from Discord. Try again.`);
  failure.cause = error;
  return failure;
}
