import { type APIRole, PermissionFlagsBits } from 'discord-api-types/v10';
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { makeRole } from '../fixture.ts';
import { applyRoleOrder, createRole, deleteRole, plannedRoleOrder, roleUpdated } from '../mutations.ts';
import { canManageRole, guildPermissions, highestRole, sortedRoles } from '../permissions.ts';
import { discordError, type Issue, invalidFormBody, missingPermissions } from './discord-errors.ts';
import { botGuild } from './guilds.ts';
import { requireBot } from './http.ts';

export const MAX_GUILD_ROLES = 250;

export type RoleBody = Partial<
  Pick<APIRole, 'name' | 'permissions' | 'color' | 'hoist' | 'mentionable' | 'icon' | 'unicode_emoji'>
> & { colors?: Partial<APIRole['colors']> };
type GuildParams = { guildId: string };
type RoleParams = GuildParams & { roleId: string };

function invalidName(name: unknown): boolean {
  return typeof name === 'string' && name.length > 100;
}

export function applyRoleBody(role: APIRole, body: RoleBody): void {
  if (body.name !== undefined) role.name = body.name;
  if (body.permissions !== undefined) role.permissions = String(body.permissions);
  if (body.color !== undefined) {
    role.color = body.color;
    role.colors = { primary_color: body.color, secondary_color: null, tertiary_color: null };
  }
  if (body.colors?.primary_color !== undefined) {
    role.color = body.colors.primary_color;
    role.colors = {
      primary_color: body.colors.primary_color,
      secondary_color: body.colors.secondary_color ?? null,
      tertiary_color: body.colors.tertiary_color ?? null,
    };
  }
  if (body.hoist !== undefined) role.hoist = body.hoist;
  if (body.mentionable !== undefined) role.mentionable = body.mentionable;
  if (body.icon !== undefined) role.icon = body.icon;
  if (body.unicode_emoji !== undefined) role.unicode_emoji = body.unicode_emoji;
}

const nameIssues: Issue[] = [
  { path: ['name'], code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 100 or fewer in length.' },
];

type PositionMove = { id: string; position?: number | null };

/** Discord's field errors for a `PATCH /guilds/:id/roles` body: a list of `{id, position}`. */
function positionIssues(body: unknown): Issue[] {
  if (!Array.isArray(body)) return [{ path: [], code: 'BASE_TYPE_ARRAY', message: 'Must be an array.' }];
  const issues: Issue[] = [];
  body.forEach((item: unknown, index) => {
    if (typeof item !== 'object' || item === null) {
      issues.push({
        path: [index],
        code: 'DICT_TYPE_CONVERT',
        message: 'Only dictionaries may be used in a DictType',
      });
      return;
    }
    const { id, position } = item as { id?: unknown; position?: unknown };
    if (id === undefined || id === null) {
      issues.push({ path: [index, 'id'], code: 'BASE_TYPE_REQUIRED', message: 'This field is required' });
    } else if (typeof id !== 'string' || !/^\d+$/.test(id)) {
      issues.push({
        path: [index, 'id'],
        code: 'NUMBER_TYPE_COERCE',
        message: `Value "${String(id)}" is not snowflake.`,
      });
    }
    if (position !== undefined && position !== null && !Number.isInteger(position)) {
      issues.push({
        path: [index, 'position'],
        code: 'NUMBER_TYPE_COERCE',
        message: `Value "${String(position)}" is not int.`,
      });
    }
  });
  return issues;
}

/** Guild roles with Discord's hierarchy rules and the 250-role cap. */
export function registerRoleRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  registerRoleReadRoutes(api, ctx);
  registerRoleWriteRoutes(api, ctx);
  registerRolePositionRoute(api, ctx);
}

/** Whether the bot holds Manage Roles in `guild`. */
function botCanManageRoles(ctx: SandboxContext, guild: Parameters<typeof guildPermissions>[0]): boolean {
  return (guildPermissions(guild, ctx.state.application.id) & PermissionFlagsBits.ManageRoles) !== 0n;
}

/** A guild's roles, all or one. */
function registerRoleReadRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  api.get<{ Params: GuildParams }>('/guilds/:guildId/roles', async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    const guild = botGuild(ctx, req.params.guildId, reply);
    return guild ? sortedRoles(guild) : reply;
  });

  api.get<{ Params: RoleParams }>('/guilds/:guildId/roles/:roleId', async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    const guild = botGuild(ctx, req.params.guildId, reply);
    if (!guild) return reply;
    const role = guild.roles.find((r) => r.id === req.params.roleId);
    return role ?? discordError(reply, 404, 10011, 'Unknown Role');
  });
}

/** Creating, editing and deleting a role, under the hierarchy and the cap. */
function registerRoleWriteRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  const botId = () => state.application.id;

  api.post<{ Params: GuildParams; Body: RoleBody | undefined }>(
    '/guilds/:guildId/roles',
    async (req, reply) => {
      if (!requireBot(ctx, req, reply)) return reply;
      const guild = botGuild(ctx, req.params.guildId, reply);
      if (!guild) return reply;
      if (!botCanManageRoles(ctx, guild)) return missingPermissions(reply);
      const body = req.body ?? {};
      if (invalidName(body.name)) return invalidFormBody(reply, nameIssues);
      if (guild.roles.length >= MAX_GUILD_ROLES) {
        return discordError(reply, 400, 30005, `Maximum number of guild roles reached (${MAX_GUILD_ROLES})`);
      }
      const granted = BigInt(body.permissions ?? '0');
      if ((granted & ~guildPermissions(guild, botId())) !== 0n) return missingPermissions(reply);
      const everyone = guild.roles.find((r) => r.id === guild.id);
      const role = makeRole(state.snowflake(), 'new role', 1, everyone?.permissions ?? '0');
      applyRoleBody(role, body);
      createRole(state, guild, role);
      return role;
    },
  );

  api.patch<{ Params: RoleParams; Body: RoleBody | undefined }>(
    '/guilds/:guildId/roles/:roleId',
    async (req, reply) => {
      if (!requireBot(ctx, req, reply)) return reply;
      const guild = botGuild(ctx, req.params.guildId, reply);
      if (!guild) return reply;
      const role = guild.roles.find((r) => r.id === req.params.roleId);
      if (!role) return discordError(reply, 404, 10011, 'Unknown Role');
      if (!canManageRole(guild, botId(), role)) return missingPermissions(reply);
      const body = req.body ?? {};
      if (invalidName(body.name)) return invalidFormBody(reply, nameIssues);
      applyRoleBody(role, body);
      roleUpdated(state, guild, role);
      return role;
    },
  );

  api.delete<{ Params: RoleParams }>('/guilds/:guildId/roles/:roleId', async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    const guild = botGuild(ctx, req.params.guildId, reply);
    if (!guild) return reply;
    const role = guild.roles.find((r) => r.id === req.params.roleId);
    if (!role) return discordError(reply, 404, 10011, 'Unknown Role');
    if (role.id === guild.id) return discordError(reply, 400, 50028, 'Invalid Role');
    if (role.managed || !canManageRole(guild, botId(), role)) return missingPermissions(reply);
    deleteRole(state, guild, role.id);
    return reply.code(204).send();
  });
}

/**
 * Reorders roles: the listed ones go to their positions, every role is renumbered 1..n. The
 * bot may only move roles below its highest role, and only to places below it.
 */
function registerRolePositionRoute(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  const botId = () => state.application.id;

  api.patch<{ Params: GuildParams; Body: unknown }>('/guilds/:guildId/roles', async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    const guild = botGuild(ctx, req.params.guildId, reply);
    if (!guild) return reply;
    const issues = positionIssues(req.body);
    if (issues.length > 0) return invalidFormBody(reply, issues);
    const body = req.body as PositionMove[];
    if (!botCanManageRoles(ctx, guild)) return missingPermissions(reply);
    const moves: Array<{ role: APIRole; position: number }> = [];
    for (const move of body) {
      const role = guild.roles.find((r) => r.id === move.id);
      if (!role) return discordError(reply, 404, 10011, 'Unknown Role');
      if (role.id === guild.id) return discordError(reply, 400, 50028, 'Invalid Role');
      if (typeof move.position !== 'number') continue;
      if (!canManageRole(guild, botId(), role)) return missingPermissions(reply);
      moves.push({ role, position: move.position });
    }
    const order = plannedRoleOrder(guild, moves);
    const top = highestRole(guild, botId());
    if (guild.owner_id !== botId()) {
      const topIndex = top ? order.indexOf(top) : -1;
      if (moves.some(({ role }) => order.indexOf(role) >= topIndex)) return missingPermissions(reply);
    }
    applyRoleOrder(state, guild, order);
    return sortedRoles(guild);
  });
}
