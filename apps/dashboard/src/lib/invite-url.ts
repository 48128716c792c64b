import { botInviteUrl } from '@spacecadet/contract/install-state';
import { DEFAULT_BOT_PERMISSIONS } from '@spacecadet/core/bot-permissions';
import { getConfig } from '../config.ts';

/**
 * The built-in bot invite, used until GET /api/invite-url answers and when it fails. It is the
 * API's invite with the default permissions: the code comes back to the API's install callback,
 * which lands on `/?install=success&guild_id=`.
 */
export function defaultInviteUrl(guildId?: string): string {
  const config = getConfig();
  return botInviteUrl({
    oauthBase: config.discordOauthBase,
    clientId: config.discordClientId,
    permissions: DEFAULT_BOT_PERMISSIONS,
    apiUrl: config.apiUrl,
    guildId,
  });
}
