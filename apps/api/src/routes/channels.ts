import { type Channel, MESSAGES, routes } from '@spacecadet/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../errors.ts';
import { type DiscordChannel, DiscordError } from '../services/discord.ts';
import { defineRoute } from './define.ts';

/** GUILD_TEXT and GUILD_ANNOUNCEMENT: the channels a panel or announcement can go to. */
const TEXT_CHANNEL_TYPES = new Set([0, 5]);
const CachedChannels = z.array(z.object({ id: z.string(), name: z.string() }));

export function textChannels(channels: DiscordChannel[]): Channel[] {
  return channels
    .filter((channel) => TEXT_CHANNEL_TYPES.has(channel.type))
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0) || a.id.localeCompare(b.id))
    .map((channel) => ({ id: channel.id, name: channel.name ?? channel.id }));
}

/** The guild's text channels, read with the bot's token and cached briefly per guild. */
export function registerChannelRoutes(app: FastifyInstance): void {
  const { discord, redis, config } = app.services;

  defineRoute(app, routes.listChannels, async ({ params }) => {
    const key = `guild-channels:${params.guildId}`;
    const cached = await redis.get(key).catch(() => null);
    if (cached !== null) {
      const parsed = CachedChannels.safeParse(JSON.parse(cached));
      if (parsed.success) return { channels: parsed.data };
    }
    let channels: Channel[];
    try {
      channels = textChannels(await discord.getGuildChannels(params.guildId));
    } catch (error) {
      // Discord no longer lets the bot see the guild: it was removed after bot_guilds was written.
      if (error instanceof DiscordError && (error.status === 403 || error.status === 404)) {
        const absent = new ApiError('bot_not_in_guild', MESSAGES.botNotInGuild);
        absent.cause = error;
        throw absent;
      }
      const failed = new ApiError(
        'discord_request_failed',
        'Could not load channels from Discord. Try again.',
      );
      failed.cause = error;
      throw failed;
    }
    await redis.set(key, JSON.stringify(channels), 'EX', config.cacheTtlSec.channels).catch(() => undefined);
    return { channels };
  });
}
