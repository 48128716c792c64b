import { routes } from '@spacecadet/contract';
import type { FastifyInstance } from 'fastify';
import { defineRoute } from './define.ts';

/**
 * The guild's text channels (and, asked for, its voice channels), read with the bot's token and cached briefly per guild, and the
 * bot's own permissions there.
 */
export function registerChannelRoutes(app: FastifyInstance): void {
  const { guildResources } = app.services;
  defineRoute(app, routes.listChannels, async ({ params, query }) => ({
    channels: await guildResources.pickerChannels(params.guildId, query.kind),
  }));
  defineRoute(app, routes.getBotPermissions, async ({ params }) => ({
    permissions: await guildResources.botPermissions(params.guildId),
  }));
}
