/** The raw config and the guild's channels, roles and members (pickers). */
import { z } from 'zod';
import { GuildParams } from '../common.ts';
import { ok, route } from '../route-definition.ts';
import {
  BotPermissions,
  Channel,
  ChannelListQuery,
  GuildConfig,
  GuildRole,
  MemberSearchQuery,
  MemberSummary,
  PutConfigBody,
  WriteReceipt,
} from './schemas.ts';

export const configRoutes = {
  getConfig: route({
    method: 'GET',
    path: '/api/guilds/:guildId/config',
    auth: 'guild',
    tag: 'config',
    summary: 'Raw JSON config',
    params: GuildParams,
    errors: [400, 401, 403, 429, 502, 503],
    responses: ok(GuildConfig),
  }),
  putConfig: route({
    method: 'PUT',
    path: '/api/guilds/:guildId/config',
    auth: 'guild',
    history: 'config.update',
    tag: 'config',
    summary: 'Replace the raw JSON config (a JSON object, at most 64 KiB)',
    params: GuildParams,
    body: PutConfigBody,
    errors: [400, 401, 403, 413, 415, 429, 502, 503],
    responses: ok(WriteReceipt),
  }),
  listChannels: route({
    method: 'GET',
    path: '/api/guilds/:guildId/channels',
    auth: 'guild',
    tag: 'config',
    summary:
      "Text channels of the guild (through the bot's token); with kind=any its voice and stage channels too",
    params: GuildParams,
    query: ChannelListQuery,
    needsBot: true,
    errors: [400, 401, 403, 409, 429, 502, 503],
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
    errors: [400, 401, 403, 409, 429, 502, 503],
    responses: ok(z.object({ roles: z.array(GuildRole) })),
  }),
  getBotPermissions: route({
    method: 'GET',
    path: '/api/guilds/:guildId/bot-permissions',
    auth: 'guild',
    tag: 'config',
    summary: "The bot's server-wide permissions (its roles'), to say what a feature is missing",
    params: GuildParams,
    needsBot: true,
    errors: [400, 401, 403, 409, 429, 502, 503],
    responses: ok(BotPermissions),
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
    errors: [400, 401, 403, 409, 429, 502, 503],
    responses: ok(z.object({ members: z.array(MemberSummary) })),
  }),
} as const;
