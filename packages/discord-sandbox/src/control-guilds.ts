/**
 * `/_sandbox/guilds/*`: what a server admin does by hand in Discord (edit the server, edit or
 * delete a role, give a member a role, turn on Membership Screening with `features`), members
 * joining, completing screening or onboarding and leaving, onboarding answers.
 */
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from './context.ts';
import { controlError } from './control-error.ts';
import { applyCompletion, parseCompletion, parseFeatures } from './member-screening.ts';
import {
  addMember,
  deleteRole,
  guildUpdated,
  memberUpdated,
  removeMember,
  roleUpdated,
} from './mutations.ts';
import { answerOnboarding } from './onboarding.ts';
import { apiGuild, apiMember } from './payloads.ts';
import { applyRoleBody, type RoleBody } from './rest/roles.ts';

/** Members join and leave, get and lose roles, answer onboarding prompts. */
export function registerMemberControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  app.put<{ Params: { guildId: string; userId: string } }>(
    '/_sandbox/guilds/:guildId/members/:userId',
    async (req, reply) => {
      const guild = state.guilds.get(req.params.guildId);
      if (!guild) return controlError(reply, 404, 'unknown_guild', 'No such guild');
      if (!state.users.has(req.params.userId))
        return controlError(reply, 404, 'unknown_user', 'No such user');
      return apiMember(state, addMember(state, guild, req.params.userId));
    },
  );

  app.delete<{ Params: { guildId: string; userId: string } }>(
    '/_sandbox/guilds/:guildId/members/:userId',
    async (req, reply) => {
      const guild = state.guilds.get(req.params.guildId);
      if (!guild) return controlError(reply, 404, 'unknown_guild', 'No such guild');
      if (!removeMember(state, guild, req.params.userId)) {
        return controlError(reply, 404, 'unknown_member', 'That user is not a member');
      }
      return { ok: true };
    },
  );

  // A pending member completes Membership Screening / Onboarding (or any change of their member
  // flags): GUILD_MEMBER_UPDATE with the new `pending` and `flags`, as Discord sends it.
  app.patch<{ Params: { guildId: string; userId: string }; Body: unknown }>(
    '/_sandbox/guilds/:guildId/members/:userId',
    async (req, reply) => {
      const guild = state.guilds.get(req.params.guildId);
      if (!guild) return controlError(reply, 404, 'unknown_guild', 'No such guild');
      const member = guild.members.find((m) => m.user_id === req.params.userId);
      if (!member) return controlError(reply, 404, 'unknown_member', 'That user is not a member');
      const change = parseCompletion(req.body, member);
      if (typeof change === 'string') return controlError(reply, 400, 'invalid_request', change);
      if (applyCompletion(member, change)) memberUpdated(state, guild, member);
      return apiMember(state, member);
    },
  );

  for (const method of ['PUT', 'DELETE'] as const) {
    app.route<{ Params: { guildId: string; userId: string; roleId: string } }>({
      method,
      url: '/_sandbox/guilds/:guildId/members/:userId/roles/:roleId',
      handler: async (req, reply) => {
        const guild = state.guilds.get(req.params.guildId);
        const member = guild?.members.find((m) => m.user_id === req.params.userId);
        if (!guild || !member)
          return controlError(reply, 404, 'unknown_member', 'No such member in that guild');
        if (!guild.roles.some((r) => r.id === req.params.roleId)) {
          return controlError(reply, 404, 'unknown_role', 'No such role in that guild');
        }
        const others = member.roles.filter((id) => id !== req.params.roleId);
        member.roles = method === 'PUT' ? [...others, req.params.roleId] : others;
        memberUpdated(state, guild, member);
        return apiMember(state, member);
      },
    });
  }

  // A member answers onboarding prompts, as Discord's join flow (or Channels & Roles) lets them.
  app.post<{ Params: { guildId: string }; Body: { user_id?: unknown; option_ids?: unknown } | undefined }>(
    '/_sandbox/guilds/:guildId/onboarding/answers',
    async (req, reply) => {
      const guild = state.guilds.get(req.params.guildId);
      if (!guild) return controlError(reply, 404, 'unknown_guild', 'No such guild');
      const { user_id, option_ids } = req.body ?? {};
      const member = guild.members.find((m) => m.user_id === user_id);
      if (!member) return controlError(reply, 404, 'unknown_member', 'No such member in that guild');
      if (!Array.isArray(option_ids) || !option_ids.every((id) => typeof id === 'string')) {
        return controlError(reply, 400, 'invalid_request', '"option_ids" must be an array of option ids');
      }
      const problem = answerOnboarding(state, guild, member, option_ids);
      if (problem) return controlError(reply, problem.status, problem.error, problem.message);
      return apiMember(state, member);
    },
  );
}

/**
 * What a server admin does by hand in Discord: edit the server, edit or delete a role. No
 * hierarchy checks: the admin is the owner.
 */
export function registerGuildControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  app.patch<{
    Params: { guildId: string };
    Body: { owner_id?: string; name?: string; features?: unknown } | undefined;
  }>('/_sandbox/guilds/:guildId', async (req, reply) => {
    const guild = state.guilds.get(req.params.guildId);
    if (!guild) return controlError(reply, 404, 'unknown_guild', 'No such guild');
    const { owner_id, name } = req.body ?? {};
    const features = req.body?.features === undefined ? undefined : parseFeatures(req.body.features);
    if (typeof features === 'string') return controlError(reply, 400, 'invalid_features', features);
    if (owner_id !== undefined && !guild.members.some((m) => m.user_id === owner_id)) {
      return controlError(reply, 400, 'not_a_member', 'The new owner must be a member of the guild');
    }
    if (name !== undefined && (typeof name !== 'string' || name.length < 2 || name.length > 100)) {
      return controlError(reply, 400, 'invalid_name', 'name must be 2-100 characters');
    }
    if (owner_id !== undefined) guild.owner_id = owner_id;
    if (name !== undefined) guild.name = name;
    if (features !== undefined) guild.features = features;
    guildUpdated(state, guild);
    return apiGuild(guild);
  });

  app.patch<{ Params: { guildId: string; roleId: string }; Body: RoleBody | undefined }>(
    '/_sandbox/guilds/:guildId/roles/:roleId',
    async (req, reply) => {
      const guild = state.guilds.get(req.params.guildId);
      const role = guild?.roles.find((r) => r.id === req.params.roleId);
      if (!guild || !role) return controlError(reply, 404, 'unknown_role', 'No such role in that guild');
      const body = req.body ?? {};
      if (body.permissions !== undefined && !/^\d+$/.test(String(body.permissions))) {
        return controlError(reply, 400, 'invalid_permissions', 'permissions must be a bitfield string');
      }
      const position = (body as { position?: unknown }).position;
      if (
        position !== undefined &&
        (typeof position !== 'number' || !Number.isInteger(position) || position < 1)
      ) {
        return controlError(reply, 400, 'invalid_position', 'position must be a whole number of at least 1');
      }
      applyRoleBody(role, body);
      // An admin dragging the role in Server Settings → Roles (what the bot itself may not do).
      if (typeof position === 'number') role.position = position;
      roleUpdated(state, guild, role);
      return role;
    },
  );

  app.delete<{ Params: { guildId: string; roleId: string } }>(
    '/_sandbox/guilds/:guildId/roles/:roleId',
    async (req, reply) => {
      const guild = state.guilds.get(req.params.guildId);
      if (!guild?.roles.some((r) => r.id === req.params.roleId && r.id !== guild.id)) {
        return controlError(reply, 404, 'unknown_role', 'No such role in that guild');
      }
      deleteRole(state, guild, req.params.roleId);
      return { ok: true };
    },
  );
}
