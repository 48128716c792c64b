import { decodeInstallState, encodeInstallState, routes } from '@spacecadet/contract';
import type { FastifyInstance } from 'fastify';
import type { ApiConfig } from '../env.ts';
import { isBotInGuild } from '../services/bot-presence.ts';
import { defineRoute } from './define.ts';

/** Discord's bot authorize page for our application (spec: scopes bot, guilds, applications.commands), optionally with the guild preselected. */
export function inviteUrl(config: ApiConfig, guildId: string | undefined): string {
  const params = new URLSearchParams({
    client_id: config.discord.clientId,
    permissions: config.botPermissions,
    scope: 'bot guilds applications.commands',
    response_type: 'code',
    redirect_uri: `${config.publicApiUrl}/install/callback`,
    state: encodeInstallState(guildId),
  });
  if (guildId !== undefined) {
    params.set('guild_id', guildId);
    params.set('disable_guild_select', 'true');
  }
  return `${config.discord.oauthBase}/oauth2/authorize?${params.toString()}`;
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
