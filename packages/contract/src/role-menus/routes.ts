/** Role menus of the admin's own: list, create, replace, delete, and post one. */
import { GuildParams } from '../common.ts';
import { accepted, noContent, ok, route } from '../route-definition.ts';
import { RoleMenu, RoleMenuBody, RoleMenuList, RoleMenuParams } from './schemas.ts';

const menuRefs = {
  channel_id: 'channel',
  required_role_id: 'role',
  'options[].role_id': 'role',
} as const;

export const roleMenuRoutes = {
  listRoleMenus: route({
    method: 'GET',
    path: '/api/guilds/:guildId/role-menus',
    auth: 'guild',
    tag: 'role-menus',
    summary: "The server's role menus, oldest first, and where each is posted",
    params: GuildParams,
    errors: [400, 401, 403, 429, 502, 503],
    responses: ok(RoleMenuList),
  }),
  createRoleMenu: route({
    method: 'POST',
    path: '/api/guilds/:guildId/role-menus',
    auth: 'guild',
    history: 'role_menus.create',
    tag: 'role-menus',
    summary: 'Create a role menu (at most 25 a server; roles the bot can give, emojis of this server)',
    params: GuildParams,
    body: RoleMenuBody,
    guildRefs: menuRefs,
    channelUses: { channel_id: 'reaction_panel' },
    errors: [400, 401, 403, 409, 413, 415, 429, 502, 503],
    responses: { 201: RoleMenu },
  }),
  updateRoleMenu: route({
    method: 'PUT',
    path: '/api/guilds/:guildId/role-menus/:menuId',
    auth: 'guild',
    history: 'role_menus.update',
    tag: 'role-menus',
    summary: 'Replace a role menu; its posted message is updated in place (Post moves it to a new channel)',
    params: RoleMenuParams,
    body: RoleMenuBody,
    guildRefs: menuRefs,
    channelUses: { channel_id: 'reaction_panel' },
    errors: [400, 401, 403, 404, 409, 413, 415, 429, 502, 503],
    responses: ok(RoleMenu),
  }),
  deleteRoleMenu: route({
    method: 'DELETE',
    path: '/api/guilds/:guildId/role-menus/:menuId',
    auth: 'guild',
    history: 'role_menus.delete',
    tag: 'role-menus',
    summary: 'Delete a role menu; its posted messages are deleted (members keep their roles)',
    params: RoleMenuParams,
    errors: [400, 401, 403, 404, 413, 415, 429, 502, 503],
    responses: noContent,
  }),
  postRoleMenu: route({
    method: 'POST',
    path: '/api/guilds/:guildId/role-menus/:menuId/post',
    auth: 'guild',
    history: 'role_menus.post',
    tag: 'role-menus',
    summary:
      'Post the menu, or edit it in place, re-post a deleted message, or move it after a channel change (job; idempotent)',
    params: RoleMenuParams,
    needsBot: true,
    errors: [400, 401, 403, 404, 409, 413, 415, 429, 502, 503],
    responses: accepted,
  }),
} as const;
