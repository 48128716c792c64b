import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxContext } from './context.ts';
import { makeUser } from './fixture.ts';
import { InvalidRequestCount } from './global-limit.ts';
import {
  addMember,
  deleteMessage,
  deleteMessages,
  deleteRole,
  guildUpdated,
  memberUpdated,
  removeMember,
  roleUpdated,
} from './mutations.ts';
import { answerOnboarding } from './onboarding.ts';
import { apiGuild, apiMember } from './payloads.ts';
import { restPath } from './rest/http.ts';
import { applyRoleBody, type RoleBody } from './rest/roles.ts';

/** Discord's rule for a (new-style) username. */
const USERNAME = /^[a-z0-9_.]{2,32}$/;
const USERNAME_RULE = '"username" must be 2 to 32 characters of a-z, 0-9, _ and .';

export const controlError = (reply: FastifyReply, status: number, error: string, message: string) =>
  reply.code(status).send({ error, message });

interface FaultBody {
  method?: string;
  path?: string;
  status?: number;
  count?: number;
  retry_after?: number;
}

/** `/_sandbox/*`: world control for tests, scripts and the chat view (no auth, JSON). */
export function registerControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  app.post('/_sandbox/reset', async () => {
    state.reset();
    return { ok: true };
  });

  app.get('/_sandbox/state', async () => state.dump(ctx.connectedSessions()));

  app.post<{ Body: FaultBody | undefined }>('/_sandbox/faults', async (req, reply) => {
    const body = req.body ?? {};
    if (typeof body.path !== 'string' || !body.path.startsWith('/')) {
      return controlError(reply, 400, 'invalid_fault', '"path" must be a REST path such as /guilds/1/roles');
    }
    const status = Number(body.status);
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      return controlError(reply, 400, 'invalid_fault', '"status" must be a 4xx or 5xx status');
    }
    const count = body.count === undefined ? 1 : Number(body.count);
    if (!Number.isInteger(count) || count < 1) {
      return controlError(reply, 400, 'invalid_fault', '"count" must be a positive integer');
    }
    const fault = {
      method: body.method ? body.method.toUpperCase() : null,
      path: restPath(body.path),
      status,
      remaining: count,
      retry_after: body.retry_after ?? 1,
    };
    state.faults.push(fault);
    return { ok: true, fault };
  });

  app.get('/_sandbox/requests', async () => state.requests);

  /** Discord's global limit on the bot token: `{ per_second: 50 }` turns it on, `null` off. */
  app.get('/_sandbox/global-rate-limit', async () => ({ per_second: state.globalLimit.perSecond }));
  app.put<{ Body: { per_second?: unknown } | undefined }>(
    '/_sandbox/global-rate-limit',
    async (req, reply) => {
      const perSecond = req.body?.per_second;
      if (perSecond !== null && !(Number.isInteger(perSecond) && (perSecond as number) >= 1)) {
        return controlError(
          reply,
          400,
          'invalid_request',
          '"per_second" must be a whole number of at least 1, or null to turn the limit off',
        );
      }
      state.globalLimit.set(perSecond as number | null);
      return { per_second: state.globalLimit.perSecond };
    },
  );

  /** Discord's per-route buckets on the bot token: `{ enforce: true }` refuses requests over them with 429. */
  app.get('/_sandbox/route-rate-limits', async () => ({ enforce: state.routeLimits.enforce }));
  app.put<{ Body: { enforce?: unknown } | undefined }>('/_sandbox/route-rate-limits', async (req, reply) => {
    const enforce = req.body?.enforce;
    if (typeof enforce !== 'boolean') {
      return controlError(reply, 400, 'invalid_request', '"enforce" must be true or false');
    }
    state.routeLimits.set(enforce);
    return { enforce: state.routeLimits.enforce };
  });

  /** Discord's invalid-request count: 401/403/429 answers to bot-token requests in the last 10 minutes. */
  app.get('/_sandbox/invalid-requests', async () => ({
    count: state.invalidRequests.count(state.now()),
    window_seconds: InvalidRequestCount.WINDOW_MS / 1000,
  }));

  // Discord's session start limits (session-limits.ts): the settings, `remaining`, and every
  // IDENTIFY the gateway judged (time, shard, bucket, refused or not).
  app.get('/_sandbox/gateway-limits', async () => state.sessionLimits.dump(state.now()));
  app.put<{ Body: Record<string, unknown> | undefined }>('/_sandbox/gateway-limits', async (req, reply) => {
    const body = req.body ?? {};
    const wholeAtLeast = (name: string, min: number): number | undefined | string => {
      const value = body[name];
      if (value === undefined) return undefined;
      return Number.isInteger(value) && (value as number) >= min
        ? (value as number)
        : `"${name}" must be a whole number of at least ${min}`;
    };
    const maxConcurrency = wholeAtLeast('max_concurrency', 1);
    const identifyIntervalMs = wholeAtLeast('identify_interval_ms', 0);
    const remaining = wholeAtLeast('remaining', 0);
    for (const value of [maxConcurrency, identifyIntervalMs, remaining]) {
      if (typeof value === 'string') return controlError(reply, 400, 'invalid_request', value);
    }
    state.sessionLimits.set({
      ...(maxConcurrency !== undefined ? { maxConcurrency: maxConcurrency as number } : {}),
      ...(identifyIntervalMs !== undefined ? { identifyIntervalMs: identifyIntervalMs as number } : {}),
      ...(remaining !== undefined ? { remaining: remaining as number } : {}),
    });
    return state.sessionLimits.dump(state.now());
  });

  app.get('/_sandbox/faults', async () => state.faults);
  app.delete('/_sandbox/faults', async () => {
    state.faults = [];
    return { ok: true };
  });

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

  // A new Discord account (a person, or another app's bot), not in any guild until
  // `PUT /_sandbox/guilds/:g/members/:u` adds them: tests that need many members make them here.
  app.post<{ Body: { username?: unknown; global_name?: unknown; bot?: unknown } | undefined }>(
    '/_sandbox/users',
    async (req, reply) => {
      const { username, global_name: globalName, bot = false } = req.body ?? {};
      if (typeof username !== 'string' || !USERNAME.test(username)) {
        return controlError(reply, 400, 'invalid_request', USERNAME_RULE);
      }
      if (
        globalName !== undefined &&
        globalName !== null &&
        (typeof globalName !== 'string' || globalName.length > 32)
      ) {
        return controlError(
          reply,
          400,
          'invalid_request',
          '"global_name" must be text of at most 32 characters',
        );
      }
      if (typeof bot !== 'boolean')
        return controlError(reply, 400, 'invalid_request', '"bot" must be true or false');
      const taken = [...state.users.values()].some((user) => !user.bot && user.username === username);
      // Discord's usernames are unique among people (bots keep their own namespace).
      if (taken && !bot) return controlError(reply, 409, 'username_taken', 'That username is taken');
      const user = makeUser(state.snowflake(), username, globalName ?? null, null, bot);
      state.users.set(user.id, user);
      return { id: user.id, username: user.username, global_name: user.global_name, bot };
    },
  );

  // A user's privacy setting for DMs from the bot: `{ accept: false }` makes the bot's DMs to
  // them fail with Discord's 403 50007, `{ accept: true }` lets them through again.
  app.put<{ Params: { userId: string }; Body: { accept?: unknown } | undefined }>(
    '/_sandbox/users/:userId/dms',
    async (req, reply) => {
      if (!state.users.has(req.params.userId))
        return controlError(reply, 404, 'unknown_user', 'No such user');
      const accept = req.body?.accept;
      if (typeof accept !== 'boolean') {
        return controlError(reply, 400, 'invalid_request', '"accept" must be true or false');
      }
      if (accept) state.dmRefusals.delete(req.params.userId);
      else state.dmRefusals.add(req.params.userId);
      return { user_id: req.params.userId, accept };
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

  // What a server admin does by hand in Discord: edit the server, edit or delete a role or a
  // message, give a member a role. No hierarchy checks: the admin is the owner.
  app.patch<{ Params: { guildId: string }; Body: { owner_id?: string; name?: string } | undefined }>(
    '/_sandbox/guilds/:guildId',
    async (req, reply) => {
      const guild = state.guilds.get(req.params.guildId);
      if (!guild) return controlError(reply, 404, 'unknown_guild', 'No such guild');
      const { owner_id, name } = req.body ?? {};
      if (owner_id !== undefined && !guild.members.some((m) => m.user_id === owner_id)) {
        return controlError(reply, 400, 'not_a_member', 'The new owner must be a member of the guild');
      }
      if (name !== undefined && (typeof name !== 'string' || name.length < 2 || name.length > 100)) {
        return controlError(reply, 400, 'invalid_name', 'name must be 2-100 characters');
      }
      if (owner_id !== undefined) guild.owner_id = owner_id;
      if (name !== undefined) guild.name = name;
      guildUpdated(state, guild);
      return apiGuild(guild);
    },
  );

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
      applyRoleBody(role, body);
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

  app.delete<{ Params: { channelId: string; messageId: string } }>(
    '/_sandbox/channels/:channelId/messages/:messageId',
    async (req, reply) => {
      const found = state.guildOfChannel(req.params.channelId);
      if (!found || !deleteMessage(state, found.guild, found.channel.id, req.params.messageId)) {
        return controlError(reply, 404, 'unknown_message', 'No such message in that channel');
      }
      return { ok: true };
    },
  );

  // A moderator (or a moderation bot) purging messages: one MESSAGE_DELETE_BULK.
  app.post<{ Params: { channelId: string }; Body: { messages?: unknown } | undefined }>(
    '/_sandbox/channels/:channelId/messages/bulk-delete',
    async (req, reply) => {
      const found = state.guildOfChannel(req.params.channelId);
      if (!found) return controlError(reply, 404, 'unknown_channel', 'No such channel');
      const ids = req.body?.messages;
      if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === 'string')) {
        return controlError(
          reply,
          400,
          'invalid_request',
          '"messages" must be a non-empty array of message ids',
        );
      }
      return { deleted: deleteMessages(state, found.guild, found.channel.id, ids) };
    },
  );

  app.post<{ Body: { access_token?: string; user_id?: string } | undefined }>(
    '/_sandbox/tokens/expire',
    async (req, reply) => {
      const { access_token, user_id } = req.body ?? {};
      if (!access_token && !user_id) {
        return controlError(reply, 400, 'invalid_request', 'Give "access_token" or "user_id"');
      }
      let expired = 0;
      for (const grant of state.accessTokens.values()) {
        if (grant.access_token === access_token || grant.user_id === user_id) {
          grant.expires_at = 0;
          expired += 1;
        }
      }
      return { expired };
    },
  );

  app.post<{ Body: { advance_ms?: number } | undefined }>('/_sandbox/clock', async (req, reply) => {
    const advance = Number(req.body?.advance_ms);
    if (!Number.isFinite(advance) || advance < 0) {
      return controlError(reply, 400, 'invalid_request', '"advance_ms" must be a non-negative number');
    }
    state.clockOffsetMs += advance;
    return { now: new Date(state.now()).toISOString(), offset_ms: state.clockOffsetMs };
  });
}
