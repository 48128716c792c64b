import { botInviteUrl, decodeInstallState, routes } from '@spacecadet/contract';
import type { FastifyInstance } from 'fastify';
import type { ApiConfig } from '../env.ts';
import { isBotInGuild } from '../services/bot-presence.ts';
import { defineRoute } from './define.ts';

/** The bot invite for our application, optionally with the guild preselected. */
export function inviteUrl(config: ApiConfig, guildId: string | undefined): string {
  return botInviteUrl({
    oauthBase: config.discord.oauthBase,
    clientId: config.discord.clientId,
    permissions: config.botPermissions,
    apiUrl: config.publicApiUrl,
    guildId,
  });
}

/** The bot install flow and the bot presence check; all public. */
export function registerInstallRoutes(app: FastifyInstance): void {
  const { config, db } = app.services;

  defineRoute(app, routes.getInviteUrl, async ({ query }) => ({ url: inviteUrl(config, query.guildId) }));

  defineRoute(app, routes.install, async ({ query }) => inviteUrl(config, query.guildId));

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
