import { PermissionFlagsBits } from 'discord-api-types/v10';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxContext } from '../context.ts';
import type { SandboxGuild } from '../fixture.ts';
import { isPending } from '../member-screening.ts';
import { memberUpdated, removeMember } from '../mutations.ts';
import { apiGuild, apiMember, userOf } from '../payloads.ts';
import { canManageRole, guildPermissions } from '../permissions.ts';
import { discordError, invalidFormBody, missingPermissions } from './discord-errors.ts';
import { dmChannelPayload } from './dms.ts';
import { requireBot } from './http.ts';

type GuildParams = { guildId: string };
type MemberParams = GuildParams & { userId: string };
type MemberRoleParams = MemberParams & { roleId: string };

/** Looks up a guild the bot is in; sends Discord's 404/403 otherwise. */
export function botGuild(ctx: SandboxContext, guildId: string, reply: FastifyReply): SandboxGuild | null {
  const guild = ctx.state.guilds.get(guildId);
  if (!guild) {
    discordError(reply, 404, 10004, 'Unknown Guild');
    return null;
  }
  if (!ctx.state.botIsIn(guild)) {
    discordError(reply, 403, 50001, 'Missing Access');
    return null;
  }
  return guild;
}

/** The bot's guild routes: the guild and its channels and emojis, its members, members' roles. */
export function registerGuildRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  registerGuildReadRoutes(api, ctx);
  registerMemberReadRoutes(api, ctx);
  registerMemberWriteRoutes(api, ctx);
}

/** A guild, its channels and emojis, and a channel by id (a DM or a guild's). */
function registerGuildReadRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  api.get<{ Params: GuildParams; Querystring: { with_counts?: string } }>(
    '/guilds/:guildId',
    async (req, reply) => {
      if (!requireBot(ctx, req, reply)) return reply;
      const guild = botGuild(ctx, req.params.guildId, reply);
      if (!guild) return reply;
      const body = apiGuild(guild);
      if (req.query.with_counts === 'true') {
        body.approximate_member_count = guild.members.length;
        body.approximate_presence_count = 0;
      }
      return body;
    },
  );

  api.get<{ Params: GuildParams }>('/guilds/:guildId/channels', async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    const guild = botGuild(ctx, req.params.guildId, reply);
    return guild ? guild.channels : reply;
  });

  // Any member may list a guild's emojis; who uploaded one (`user`) is not imitated.
  api.get<{ Params: GuildParams }>('/guilds/:guildId/emojis', async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    const guild = botGuild(ctx, req.params.guildId, reply);
    return guild ? (guild.emojis ?? []) : reply;
  });

  api.get<{ Params: GuildParams & { emojiId: string } }>(
    '/guilds/:guildId/emojis/:emojiId',
    async (req, reply) => {
      if (!requireBot(ctx, req, reply)) return reply;
      const guild = botGuild(ctx, req.params.guildId, reply);
      if (!guild) return reply;
      return (
        (guild.emojis ?? []).find((e) => e.id === req.params.emojiId) ??
        discordError(reply, 404, 10014, 'Unknown Emoji')
      );
    },
  );

  api.get<{ Params: { channelId: string } }>('/channels/:channelId', async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    const dm = state.dmChannels.get(req.params.channelId);
    if (dm) return dmChannelPayload(state, dm);
    const found = state.guildOfChannel(req.params.channelId);
    if (!found) return discordError(reply, 404, 10003, 'Unknown Channel');
    if (!state.botIsIn(found.guild)) return discordError(reply, 403, 50001, 'Missing Access');
    return found.channel;
  });
}

/** Listing, searching and getting members. */
function registerMemberReadRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  api.get<{ Params: GuildParams; Querystring: { limit?: string; after?: string } }>(
    '/guilds/:guildId/members',
    async (req, reply) => {
      if (!requireBot(ctx, req, reply)) return reply;
      const guild = botGuild(ctx, req.params.guildId, reply);
      if (!guild) return reply;
      const limit = Math.min(1000, Math.max(1, Number(req.query.limit ?? 1) || 1));
      const after = BigInt(req.query.after ?? '0');
      return guild.members
        .filter((m) => BigInt(m.user_id) > after)
        .sort((a, b) => (BigInt(a.user_id) < BigInt(b.user_id) ? -1 : 1))
        .slice(0, limit)
        .map((m) => apiMember(state, m));
    },
  );

  // As on Discord: members whose username, global name or nickname starts with the query
  // (case-insensitive); limit 1 to 1000, default 1.
  api.get<{ Params: GuildParams; Querystring: { query?: string; limit?: string } }>(
    '/guilds/:guildId/members/search',
    async (req, reply) => {
      if (!requireBot(ctx, req, reply)) return reply;
      const guild = botGuild(ctx, req.params.guildId, reply);
      if (!guild) return reply;
      if (req.query.query === undefined) {
        return invalidFormBody(reply, [
          { path: ['query'], code: 'BASE_TYPE_REQUIRED', message: 'This field is required' },
        ]);
      }
      const query = req.query.query.toLowerCase();
      const limit = Math.min(1000, Math.max(1, Number(req.query.limit ?? 1) || 1));
      return guild.members
        .filter((m) => {
          const user = userOf(state, m.user_id);
          return [user.username, user.global_name, m.nick].some(
            (name) => typeof name === 'string' && name.toLowerCase().startsWith(query),
          );
        })
        .slice(0, limit)
        .map((m) => apiMember(state, m));
    },
  );

  api.get<{ Params: MemberParams }>('/guilds/:guildId/members/:userId', async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    const guild = botGuild(ctx, req.params.guildId, reply);
    if (!guild) return reply;
    const member = guild.members.find((m) => m.user_id === req.params.userId);
    // As on Discord: an id that names no user at all is Unknown User, a non-member Unknown Member.
    if (!member && !state.users.has(req.params.userId))
      return discordError(reply, 404, 10013, 'Unknown User');
    if (!member) return discordError(reply, 404, 10007, 'Unknown Member');
    return apiMember(state, member);
  });
}

/**
 * A member still pending (Membership Screening or Onboarding not completed) is refused new roles
 * (taking one away is allowed),
 * as issue 37 has Discord do. Discord documents no error code for it, and the public record
 * (discord-api-docs #2652, #6175, #2479) rather shows a role once being accepted and letting
 * the member skip screening; the sandbox answers the general refusal, 403 50013 Missing
 * Permissions, so a bot that gives roles before `pending` turns false fails visibly instead of
 * bypassing the server's screening.
 */
function refusePendingMember(reply: FastifyReply): FastifyReply {
  return missingPermissions(reply);
}

/** Editing, kicking and giving or taking roles from members, and the bot leaving a guild. */
function registerMemberWriteRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  const botId = () => state.application.id;

  api.patch<{ Params: MemberParams; Body: { roles?: string[]; nick?: string | null } | undefined }>(
    '/guilds/:guildId/members/:userId',
    async (req, reply) => {
      if (!requireBot(ctx, req, reply)) return reply;
      const guild = botGuild(ctx, req.params.guildId, reply);
      if (!guild) return reply;
      const member = guild.members.find((m) => m.user_id === req.params.userId);
      if (!member) return discordError(reply, 404, 10007, 'Unknown Member');
      const body = req.body ?? {};
      if (body.roles) {
        const next = new Set(body.roles);
        const changed = [...next, ...member.roles].filter((id) => next.has(id) !== member.roles.includes(id));
        for (const roleId of changed) {
          const role = guild.roles.find((r) => r.id === roleId);
          if (!role) return discordError(reply, 404, 10011, 'Unknown Role');
          if (role.managed || !canManageRole(guild, botId(), role)) return missingPermissions(reply);
        }
        const adds = changed.some((id) => next.has(id));
        if (adds && isPending(member)) return refusePendingMember(reply);
        member.roles = [...next];
      }
      if (body.nick !== undefined) member.nick = body.nick;
      memberUpdated(state, guild, member);
      return apiMember(state, member);
    },
  );

  api.delete<{ Params: MemberParams }>('/guilds/:guildId/members/:userId', async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    const guild = botGuild(ctx, req.params.guildId, reply);
    if (!guild) return reply;
    if ((guildPermissions(guild, botId()) & PermissionFlagsBits.KickMembers) === 0n) {
      return missingPermissions(reply);
    }
    if (!removeMember(state, guild, req.params.userId))
      return discordError(reply, 404, 10007, 'Unknown Member');
    return reply.code(204).send();
  });

  api.delete<{ Params: GuildParams }>('/users/@me/guilds/:guildId', async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    const guild = botGuild(ctx, req.params.guildId, reply);
    if (!guild) return reply;
    removeMember(state, guild, botId());
    return reply.code(204).send();
  });

  for (const method of ['PUT', 'DELETE'] as const) {
    api.route<{ Params: MemberRoleParams }>({
      method,
      url: '/guilds/:guildId/members/:userId/roles/:roleId',
      handler: async (req, reply) => {
        if (!requireBot(ctx, req, reply)) return reply;
        const guild = botGuild(ctx, req.params.guildId, reply);
        if (!guild) return reply;
        const member = guild.members.find((m) => m.user_id === req.params.userId);
        if (!member) return discordError(reply, 404, 10007, 'Unknown Member');
        const role = guild.roles.find((r) => r.id === req.params.roleId);
        if (!role || role.id === guild.id) return discordError(reply, 404, 10011, 'Unknown Role');
        if (role.managed || !canManageRole(guild, botId(), role)) return missingPermissions(reply);
        if (method === 'PUT' && isPending(member)) return refusePendingMember(reply);
        const has = member.roles.includes(role.id);
        if (method === 'PUT' && !has) member.roles.push(role.id);
        if (method === 'DELETE' && has) member.roles = member.roles.filter((id) => id !== role.id);
        if ((method === 'PUT') !== has) memberUpdated(state, guild, member);
        return reply.code(204).send();
      },
    });
  }
}
