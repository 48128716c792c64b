/** The raw config, the reaction-roles lists and the guild's channels, roles and members (pickers). */
import { z } from 'zod';
import {
  Channel,
  GuildConfig,
  GuildRole,
  MemberSummary,
  ReactionRolesState,
  WriteReceipt,
} from '../entities.ts';
import { GuildParams, MemberSearchQuery, PutConfigBody, PutReactionRolesBody } from '../requests.ts';
import { ok, route } from './define.ts';

export const configRoutes = {
  getConfig: route({
    method: 'GET',
    path: '/api/guilds/:guildId/config',
    auth: 'guild',
    tag: 'config',
    summary: 'Raw JSON config',
    params: GuildParams,
    responses: ok(GuildConfig),
  }),
  putConfig: route({
    method: 'PUT',
    path: '/api/guilds/:guildId/config',
    auth: 'guild',
    tag: 'config',
    summary: 'Replace the raw JSON config (a JSON object, at most 64 KiB)',
    params: GuildParams,
    body: PutConfigBody,
    responses: ok(WriteReceipt),
  }),
  getReactionRoles: route({
    method: 'GET',
    path: '/api/guilds/:guildId/reaction-roles',
    auth: 'guild',
    tag: 'config',
    summary: 'Reaction-roles lists',
    params: GuildParams,
    responses: ok(ReactionRolesState),
  }),
  putReactionRoles: route({
    method: 'PUT',
    path: '/api/guilds/:guildId/reaction-roles',
    auth: 'guild',
    tag: 'config',
    summary: 'Replace both reaction-roles lists',
    params: GuildParams,
    body: PutReactionRolesBody,
    guildRefs: { 'color_roles[].role_id': 'role', 'personality_roles[].role_id': 'role' },
    responses: ok(WriteReceipt),
  }),
  listChannels: route({
    method: 'GET',
    path: '/api/guilds/:guildId/channels',
    auth: 'guild',
    tag: 'config',
    summary: "Text channels of the guild (through the bot's token)",
    params: GuildParams,
    needsBot: true,
    responses: ok(z.object({ channels: z.array(Channel) })),
  }),
  listRoles: route({
    method: 'GET',
    path: '/api/guilds/:guildId/roles',
    auth: 'guild',
    tag: 'config',
    summary: "Roles of the guild but @everyone, highest first (through the bot's token)",
    params: GuildParams,
    needsBot: true,
    responses: ok(z.object({ roles: z.array(GuildRole) })),
  }),
  searchMembers: route({
    method: 'GET',
    path: '/api/guilds/:guildId/members/search',
    auth: 'guild',
    tag: 'config',
    summary:
      "Members whose name starts with the query, or the member a typed id names (through the bot's token)",
    params: GuildParams,
    query: MemberSearchQuery,
    needsBot: true,
    responses: ok(z.object({ members: z.array(MemberSummary) })),
  }),
} as const;
