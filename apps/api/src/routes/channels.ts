import { routes } from '@spacecadet/contract';
import type { FastifyInstance } from 'fastify';
import { defineRoute } from './define.ts';

/** The guild's text channels, read with the bot's token and cached briefly per guild. */
export function registerChannelRoutes(app: FastifyInstance): void {
  const { guildResources } = app.services;
  defineRoute(app, routes.listChannels, async ({ params }) => ({
    channels: await guildResources.textChannels(params.guildId),
  }));
}
