import { type BotFeature, botInviteUrl } from '@spacecadet/contract';
import { BASE_BOT_FEATURES, botPermissionsFor } from '@spacecadet/core';
import type { Db } from '@spacecadet/db';
import { loadPersonalityConfig } from '@spacecadet/db/queries/personality-roles';
import type { ApiConfig } from '../env.ts';

/** The bot's invite: the permissions it asks for and its URL (the install routes answer it). */

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
