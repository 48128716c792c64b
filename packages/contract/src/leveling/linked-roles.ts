/**
 * Levels in Discord's Linked Roles: a member links their Discord account on `/linked-roles` (the
 * application's verification URL) with the `role_connections.write` scope, picks the server whose
 * level and XP their role connection shows, and may unlink. The routes act on the signed-in
 * user's own link only.
 */
import { z } from 'zod';
import { Snowflake } from '../common.ts';
import { MESSAGES } from '../errors.ts';
import { Text } from '../inputs.ts';
import { noContent, ok, route } from '../route-definition.ts';

/** The scopes the linking OAuth asks for (the code grant without PKCE: Discord refuses PKCE for this scope). */
export const LINKED_ROLES_SCOPES = ['identify', 'role_connections.write'] as const;
/** The dashboard page that is the application's verification URL, and the linking OAuth's redirect. */
export const LINKED_ROLES_PATH = '/linked-roles';

/** A server the member may show: they have XP there and the bot is in it. */
export const LinkedRolesServer = z
  .object({
    guild_id: Snowflake,
    name: z.string(),
    level: z.number().int().min(0),
    xp: z.number().int().min(0),
  })
  .meta({ id: 'LinkedRolesServer' });
export type LinkedRolesServer = z.infer<typeof LinkedRolesServer>;

export const LinkedRolesState = z
  .object({
    linked: z.boolean(),
    /** The server the connection shows; null until the member picks one. */
    guild_id: Snowflake.nullable(),
    /** What Discord was last sent; null before the first push. */
    pushed: z
      .object({
        level: z.number().int().min(0),
        xp: z.number().int().min(0),
        at: z.iso.datetime({ offset: true }),
      })
      .nullable(),
    /** Whether a newer value waits to be pushed (within seconds). */
    push_pending: z.boolean(),
    servers: z.array(LinkedRolesServer),
  })
  .meta({ id: 'LinkedRolesState' });
export type LinkedRolesState = z.infer<typeof LinkedRolesState>;

export const LinkRoleConnectionBody = z
  .object({ code: Text.min(1, MESSAGES.noCodeProvided).max(512) })
  .meta({ id: 'LinkRoleConnectionBody' });
export type LinkRoleConnectionBody = z.infer<typeof LinkRoleConnectionBody>;

export const PickLinkedServerBody = z.object({ guild_id: Snowflake }).meta({ id: 'PickLinkedServerBody' });
export type PickLinkedServerBody = z.infer<typeof PickLinkedServerBody>;

export const linkedRoleRoutes = {
  getLinkedRoles: route({
    method: 'GET',
    path: '/api/me/linked-roles',
    auth: 'session',
    tag: 'leveling',
    summary:
      "The signed-in user's Linked Roles link: the server it shows, what Discord holds, the servers to pick from",
    errors: [401, 429, 503],
    responses: ok(LinkedRolesState),
  }),
  linkRoleConnection: route({
    method: 'POST',
    path: '/api/me/linked-roles',
    auth: 'session',
    tag: 'leveling',
    summary:
      'Links the signed-in user with a code of the linking OAuth (identify role_connections.write, redirect /linked-roles); their tokens are kept encrypted',
    body: LinkRoleConnectionBody,
    // 400: Discord refused the code; 403: the code is another Discord account's, or lacks the scope.
    errors: [400, 401, 403, 413, 415, 429, 502, 503],
    responses: ok(LinkedRolesState),
  }),
  pickLinkedServer: route({
    method: 'PUT',
    path: '/api/me/linked-roles',
    auth: 'session',
    tag: 'leveling',
    summary:
      "Picks the server whose level and XP the user's role connection shows; pushed to Discord at once",
    body: PickLinkedServerBody,
    // 400: not a server the user has XP in with the bot present; 404: not linked.
    errors: [400, 401, 404, 413, 415, 429, 503],
    responses: ok(LinkedRolesState),
  }),
  unlinkRoleConnection: route({
    method: 'DELETE',
    path: '/api/me/linked-roles',
    auth: 'session',
    tag: 'leveling',
    summary: "Unlinks: clears the user's role connection on Discord and deletes the stored tokens",
    errors: [400, 401, 413, 415, 429, 503],
    responses: noContent,
  }),
} as const;
