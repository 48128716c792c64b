import { type BotFeature, botInviteUrl, decodeInstallState, routes } from '@spacecadet/contract';
import { BASE_BOT_FEATURES, botPermissionsFor } from '@spacecadet/core';
import type { Db } from '@spacecadet/db';
import { loadPersonalityConfig } from '@spacecadet/db/queries/personality-roles';
import type { FastifyInstance } from 'fastify';
import type { ApiConfig } from '../env.ts';
import { isBotInGuild } from '../services/bot-presence.ts';
import { defineRoute } from './define.ts';

/**
 * The permissions an invite asks for: the operator's BOT_PERMISSIONS when set, else what the
 * features need (core's `botPermissionsFor`): every server's, those the guild has switched on
 * (Discord Onboarding), and those the link asks for (`requested`, e.g. before a switch is on).
 */
export async function invitePermissions(
  config: ApiConfig,
  db: Db,
  guildId: string | undefined,
  requested: readonly BotFeature[] = [],
): Promise<string> {
  if (config.botPermissions !== null) return config.botPermissions;
  const features = new Set<BotFeature>([...BASE_BOT_FEATURES, ...requested]);
  if (guildId !== undefined && (await loadPersonalityConfig(db, guildId)).onboardingEnabled) {
    features.add('onboarding');
  }
  return botPermissionsFor(features);
}

/** The bot invite for our application, optionally with the guild preselected. */
export function inviteUrl(config: ApiConfig, guildId: string | undefined, permissions: string): string {
  return botInviteUrl({
    oauthBase: config.discord.oauthBase,
    clientId: config.discord.clientId,
    permissions,
    apiUrl: config.publicApiUrl,
    guildId,
  });
}

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
