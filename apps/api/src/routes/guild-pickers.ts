import { routes } from '@spacecadet/contract';
import type { FastifyInstance } from 'fastify';
import { defineRoute } from './define.ts';

/**
 * What the dashboard's role and member pickers list: the guild's roles and a member search,
 * read with the bot's token and cached briefly per guild (and per query for the search).
 */
export function registerGuildPickerRoutes(app: FastifyInstance): void {
  const { guildResources } = app.services;
  defineRoute(app, routes.listRoles, async ({ params }) => ({
    roles: await guildResources.roles(params.guildId),
  }));
  defineRoute(app, routes.searchMembers, async ({ params, query }) => ({
    members: await guildResources.searchMembers(params.guildId, query.query, query.limit),
  }));
}
