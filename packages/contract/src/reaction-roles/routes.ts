/** Reaction roles: the editor's two lists, the channel of each list's panel, and posting them. */
import { GuildParams } from '../common.ts';
import { WriteReceipt } from '../config/schemas.ts';
import { accepted, ok, route } from '../route-definition.ts';
import {
  PutReactionRolesBody,
  ReactionListChannel,
  ReactionListChannelBody,
  ReactionRolesState,
} from './schemas.ts';

export const reactionRoleRoutes = {
  getReactionRoles: route({
    method: 'GET',
    path: '/api/guilds/:guildId/reaction-roles',
    auth: 'guild',
    tag: 'reaction-roles',
    summary: 'Reaction-roles lists, their channels and where their panels are posted',
    params: GuildParams,
    errors: [400, 401, 403, 429, 502, 503],
    responses: ok(ReactionRolesState),
  }),
  putReactionRoles: route({
    method: 'PUT',
    path: '/api/guilds/:guildId/reaction-roles',
    auth: 'guild',
    history: 'reaction_roles.update',
    tag: 'reaction-roles',
    summary:
      'Replace both reaction-roles lists (roles the bot can give, emojis of this server); posted panels are updated',
    params: GuildParams,
    body: PutReactionRolesBody,
    guildRefs: { 'color_roles[].role_id': 'role', 'personality_roles[].role_id': 'role' },
    errors: [400, 401, 403, 409, 413, 415, 429, 502, 503],
    responses: ok(WriteReceipt),
  }),
  setReactionListChannel: route({
    method: 'PUT',
    path: '/api/guilds/:guildId/reaction-roles/channel',
    auth: 'guild',
    history: 'reaction_roles.channel',
    tag: 'reaction-roles',
    summary: "Set the channel of one list's panel",
    params: GuildParams,
    body: ReactionListChannelBody,
    guildRefs: { channel_id: 'channel' },
    channelUses: { channel_id: 'reaction_panel' },
    errors: [400, 401, 403, 409, 413, 415, 429, 502, 503],
    responses: ok(ReactionListChannel),
  }),
  postReactionPanels: route({
    method: 'POST',
    path: '/api/guilds/:guildId/reaction-roles/post-panel',
    auth: 'guild',
    history: 'reaction_roles.post',
    tag: 'reaction-roles',
    summary:
      'Post or update the panel of each list with rows and a channel: edit in place, re-post, move, fix reactions (job)',
    params: GuildParams,
    needsBot: true,
    errors: [400, 401, 403, 409, 413, 415, 429, 502, 503],
    responses: accepted,
  }),
} as const;
