/** A server's data: what deleting it removes, the deletion (owner only), and servers pending purge. */
import { GuildParams, JobAccepted } from '../common.ts';
import { ok, route } from '../route-definition.ts';
import { DeleteGuildDataBody, GuildDataSummary, GuildDepartureList } from './schemas.ts';

export const guildDataRoutes = {
  getGuildData: route({
    method: 'GET',
    path: '/api/guilds/:guildId/data',
    auth: 'guild',
    tag: 'guild-data',
    summary: "What deleting the server's data would remove, and whether you may (owner only)",
    params: GuildParams,
    errors: [400, 401, 403, 429, 502, 503],
    responses: ok(GuildDataSummary),
  }),
  deleteGuildData: route({
    method: 'DELETE',
    path: '/api/guilds/:guildId/data',
    auth: 'guild',
    tag: 'guild-data',
    summary: 'Delete everything stored for the server (owner only; 202 with a job)',
    params: GuildParams,
    body: DeleteGuildDataBody,
    errors: [400, 401, 403, 413, 415, 429, 502, 503],
    responses: { 202: JobAccepted },
  }),
  listGuildDepartures: route({
    method: 'GET',
    path: '/api/guild-departures',
    auth: 'session',
    tag: 'guild-data',
    summary: 'Servers you own whose data is kept until its purge (the bot was removed)',
    errors: [401, 429, 502, 503],
    responses: ok(GuildDepartureList),
  }),
} as const;
