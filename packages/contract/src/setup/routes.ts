/** The server overview's setup checklist and its dismissal (one per server, seen by every admin). */
import { GuildParams } from '../common.ts';
import { ok, route } from '../route-definition.ts';
import { SetupChecklist } from './schemas.ts';

export const setupRoutes = {
  getSetupChecklist: route({
    method: 'GET',
    path: '/api/guilds/:guildId/setup',
    auth: 'guild',
    tag: 'setup',
    summary: 'The setup checklist: bot present, role order, permissions per feature, channels, features on',
    params: GuildParams,
    errors: [400, 401, 403, 429, 502, 503],
    responses: ok(SetupChecklist),
  }),
  dismissSetupChecklist: route({
    method: 'PUT',
    path: '/api/guilds/:guildId/setup/dismissal',
    auth: 'guild',
    history: 'config.setup_dismiss',
    tag: 'setup',
    summary: 'Hide the setup checklist from the overview for every admin of the server',
    params: GuildParams,
    errors: [400, 401, 403, 413, 415, 429, 502, 503],
    responses: ok(SetupChecklist),
  }),
  restoreSetupChecklist: route({
    method: 'DELETE',
    path: '/api/guilds/:guildId/setup/dismissal',
    auth: 'guild',
    history: 'config.setup_restore',
    tag: 'setup',
    summary: 'Show the setup checklist on the overview again',
    params: GuildParams,
    errors: [400, 401, 403, 413, 415, 429, 502, 503],
    responses: ok(SetupChecklist),
  }),
} as const;
