/** Temporary roles: give a member a role until a moment, list the running ones, end one early. */
import { GuildParams } from '../common.ts';
import { noContent, ok, route } from '../route-definition.ts';
import { CreateTempRoleBody, TempRole, TempRoleList, TempRoleParams } from './schemas.ts';

export const tempRoleRoutes = {
  listTempRoles: route({
    method: 'GET',
    path: '/api/guilds/:guildId/temp-roles',
    auth: 'guild',
    tag: 'temp-roles',
    summary: "The server's running temporary roles, soonest to expire first",
    params: GuildParams,
    errors: [400, 401, 403, 429, 502, 503],
    responses: ok(TempRoleList),
  }),
  createTempRole: route({
    method: 'POST',
    path: '/api/guilds/:guildId/temp-roles',
    auth: 'guild',
    history: 'temp_roles.grant',
    tag: 'temp-roles',
    summary:
      'Give a member a role for duration_s seconds (a role the bot can give; the worker gives it and takes it back at expires_at)',
    params: GuildParams,
    body: CreateTempRoleBody,
    guildRefs: { user_id: 'member', role_id: 'role' },
    needsBot: true,
    errors: [400, 401, 403, 409, 413, 415, 429, 502, 503],
    responses: { 201: TempRole },
  }),
  deleteTempRole: route({
    method: 'DELETE',
    path: '/api/guilds/:guildId/temp-roles/:tempRoleId',
    auth: 'guild',
    history: 'temp_roles.end',
    tag: 'temp-roles',
    summary: 'End a temporary role early: the worker takes the role back now',
    params: TempRoleParams,
    needsBot: true,
    errors: [400, 401, 403, 404, 409, 413, 415, 429, 502, 503],
    responses: noContent,
  }),
} as const;
