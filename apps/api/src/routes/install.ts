import { type BotFeature, decodeInstallState, routes } from '@spacecadet/contract';
import type { FastifyInstance } from 'fastify';
import { isBotInGuild } from '../services/bot-presence.ts';
import { invitePermissions, inviteUrl } from '../services/invite.ts';
import { defineRoute } from './define.ts';

/** The bot install flow and the bot presence check; all public. */
export function registerInstallRoutes(app: FastifyInstance): void {
  const { config, db } = app.services;

  const url = async (query: { guildId?: string | undefined; features: BotFeature[] }) =>
    inviteUrl(config, query.guildId, await invitePermissions(config, db, query.guildId, query.features));

  defineRoute(app, routes.getInviteUrl, async ({ query }) => ({ url: await url(query) }));

  defineRoute(app, routes.install, async ({ query }) => url(query));

  defineRoute(app, routes.installCallback, async ({ query }) => {
    if (query.error !== undefined) return `${config.dashboardUrl}/?install=error`;
    const guildId = query.guild_id ?? decodeInstallState(query.state);
    const params = new URLSearchParams({ install: 'success' });
    if (guildId !== undefined) params.set('guild_id', guildId);
    return `${config.dashboardUrl}/?${params.toString()}`;
  });

  defineRoute(app, routes.botInGuild, async ({ params }) => ({
    inGuild: await isBotInGuild(db, params.guildId),
  }));
}
