/** Color roles: the palette, its panel channel and the jobs that build them. */
import { z } from 'zod';
import { ChannelBody, GuildParams, Snowflake } from '../common.ts';
import { accepted, ok, route } from '../routes/define.ts';
import { ColorRolesState, ExpandGroupBody } from './schemas.ts';

export const colorRoleRoutes = {
  getColorRoles: route({
    method: 'GET',
    path: '/api/guilds/:guildId/color-roles',
    auth: 'guild',
    tag: 'color-roles',
    summary: 'Palette groups, panel channel and mode',
    params: GuildParams,
    errors: [400, 401, 403, 429, 501, 502, 503],
    responses: ok(ColorRolesState),
  }),
  setColorRolesChannel: route({
    method: 'PUT',
    path: '/api/guilds/:guildId/color-roles/channel',
    auth: 'guild',
    tag: 'color-roles',
    summary: 'Set the panel channel',
    params: GuildParams,
    body: ChannelBody,
    guildRefs: { channel_id: 'channel' },
    channelUses: { channel_id: 'color_panel' },
    errors: [400, 401, 403, 409, 413, 415, 429, 502, 503],
    responses: ok(z.object({ channel_id: Snowflake })),
  }),
  generateColorRoles: route({
    method: 'POST',
    path: '/api/guilds/:guildId/color-roles/generate-roles',
    auth: 'guild',
    tag: 'color-roles',
    summary: 'Seed the palette if empty and create missing roles (job)',
    params: GuildParams,
    needsBot: true,
    errors: [400, 401, 403, 409, 413, 415, 429, 501, 502, 503],
    responses: accepted,
  }),
  postColorPanel: route({
    method: 'POST',
    path: '/api/guilds/:guildId/color-roles/post-panel',
    auth: 'guild',
    tag: 'color-roles',
    summary: 'Post or update the color panel in the panel channel (job)',
    params: GuildParams,
    needsBot: true,
    errors: [400, 401, 403, 409, 413, 415, 429, 501, 502, 503],
    responses: accepted,
  }),
  resetColorRoles: route({
    method: 'POST',
    path: '/api/guilds/:guildId/color-roles/reset',
    auth: 'guild',
    tag: 'color-roles',
    summary: 'Delete the created roles and the palette (job)',
    params: GuildParams,
    needsBot: true,
    errors: [400, 401, 403, 409, 413, 415, 429, 501, 502, 503],
    responses: accepted,
  }),
  expandColorGroup: route({
    method: 'PUT',
    path: '/api/color-groups/expand',
    auth: 'group',
    tag: 'color-roles',
    summary: 'Set a color group expanded flag',
    body: ExpandGroupBody,
    errors: [400, 401, 403, 404, 413, 415, 429, 502, 503],
    responses: ok(ExpandGroupBody),
  }),
} as const;
