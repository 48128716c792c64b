/** The welcome and goodbye settings of a server (one object, read and changed as a whole). */
import { GuildParams } from '../common.ts';
import { ok, route } from '../route-definition.ts';
import { PutWelcomeBody, WelcomeSettings } from './schemas.ts';

export const welcomeRoutes = {
  getWelcome: route({
    method: 'GET',
    path: '/api/guilds/:guildId/welcome',
    auth: 'guild',
    tag: 'welcome',
    summary: 'The welcome, goodbye, auto-role and sticky-role settings',
    params: GuildParams,
    errors: [400, 401, 403, 429, 502, 503],
    responses: ok(WelcomeSettings),
  }),
  putWelcome: route({
    method: 'PUT',
    path: '/api/guilds/:guildId/welcome',
    auth: 'guild',
    history: 'welcome.update',
    tag: 'welcome',
    summary: 'Change the welcome settings (channel and role ids must belong to the server)',
    params: GuildParams,
    body: PutWelcomeBody,
    guildRefs: {
      channel_id: 'channel',
      goodbye_channel_id: 'channel',
      'auto_roles[]': 'role',
      'bot_auto_roles[]': 'role',
      'sticky_exclude_role_ids[]': 'role',
    },
    channelUses: { channel_id: 'welcome_messages', goodbye_channel_id: 'welcome_messages' },
    errors: [400, 401, 403, 409, 413, 415, 429, 502, 503],
    responses: ok(WelcomeSettings),
  }),
} as const;
