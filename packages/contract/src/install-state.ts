/**
 * The bot invite: the API's `/api/invite-url` and `/install`, and the dashboard's built-in
 * fallback link, build it here (the permissions integer comes from core's `botPermissionsFor`). The OAuth `state` of a bot install is base64url of JSON
 * `{guild_id}`; the API's install callback and the landing page read it. No zod here, so the
 * landing page can import it without loading the schemas.
 */
import { isSnowflake } from './ids.ts';

/**
 * The features whose Discord permissions the invite asks for (core's `FEATURE_PERMISSIONS`
 * says which). `onboarding` is personality roles' "Also ask in Discord Onboarding".
 */
export const BOT_FEATURES = [
  'color-roles',
  'personality-roles',
  'leveling',
  'reaction-roles',
  'onboarding',
  'welcome',
] as const;
export type BotFeature = (typeof BOT_FEATURES)[number];

/** Spec: the default invite's scopes. */
const BOT_INVITE_SCOPES = 'bot guilds applications.commands';
/** Discord's bot authorize page; the code comes back to the API's install callback. */
export function botInviteUrl(options: {
  oauthBase: string;
  clientId: string;
  permissions: string;
  apiUrl: string;
  guildId?: string | undefined;
}): string {
  const { guildId } = options;
  const query = new URLSearchParams({
    client_id: options.clientId,
    permissions: options.permissions,
    scope: BOT_INVITE_SCOPES,
    response_type: 'code',
    redirect_uri: `${options.apiUrl}/install/callback`,
    state: encodeInstallState(guildId),
  });
  if (guildId !== undefined) {
    query.set('guild_id', guildId);
    query.set('disable_guild_select', 'true');
  }
  return `${options.oauthBase}/oauth2/authorize?${query.toString()}`;
}

export function encodeInstallState(guildId: string | undefined): string {
  const json = JSON.stringify(guildId === undefined ? {} : { guild_id: guildId });
  return btoa(json).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The guild id carried in an install `state`, or undefined for a missing or foreign state. */
export function decodeInstallState(state: string | null | undefined): string | undefined {
  if (!state) return undefined;
  try {
    const base64 = state.replace(/-/g, '+').replace(/_/g, '/');
    const parsed: unknown = JSON.parse(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const guildId = (parsed as Record<string, unknown>).guild_id;
    return typeof guildId === 'string' && isSnowflake(guildId) ? guildId : undefined;
  } catch {
    return undefined;
  }
}
