import type { APIApplicationCommand, RESTAPIPartialCurrentUserGuild } from 'discord-api-types/v10';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { applicationObject } from '../application-object.ts';
import type { SandboxContext } from '../context.ts';
import { guildPermissions } from '../permissions.ts';
import { discordError, unauthorized } from './discord-errors.ts';
import { bearerGrant, isBot, requireBot } from './http.ts';

type CommandBody = Partial<APIApplicationCommand> & { name?: string };

/** The caller: the bot for a bot token, else the user behind a live Bearer token. */
function caller(ctx: SandboxContext, req: Parameters<typeof isBot>[1], scope: string): string | null {
  if (isBot(ctx, req)) return ctx.state.application.id;
  const grant = bearerGrant(ctx, req);
  return grant?.scopes.includes(scope) ? grant.user_id : null;
}

/** The caller's own user: the bot's for a bot token (as READY gives it), else the member's. */
function currentUser(ctx: SandboxContext, req: Parameters<typeof isBot>[1], reply: FastifyReply) {
  const { state } = ctx;
  if (isBot(ctx, req)) {
    return {
      ...state.botUser,
      locale: 'en-US',
      verified: true,
      mfa_enabled: false,
      premium_type: 0,
      flags: 0,
    };
  }
  const id = caller(ctx, req, 'identify');
  const user = id ? state.users.get(id) : undefined;
  if (!user) return unauthorized(reply);
  return { ...user, locale: 'en-US', mfa_enabled: false, premium_type: 0, public_flags: 0, flags: 0 };
}

/** Users, the current application, gateway discovery and application commands. */
export function registerUserRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  registerCurrentUserRoutes(api, ctx);
  registerApplicationRoutes(api, ctx);
  registerCommandRoutes(api, ctx);
}

/** The caller's user, guilds and OAuth grant; a user by id. */
function registerCurrentUserRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  api.get('/users/@me', async (req, reply) => currentUser(ctx, req, reply));

  api.get<{ Querystring: { limit?: string; after?: string; before?: string; with_counts?: string } }>(
    '/users/@me/guilds',
    async (req, reply) => {
      const id = caller(ctx, req, 'guilds');
      if (!id) return unauthorized(reply);
      const limit = Math.min(200, Math.max(1, Number(req.query.limit ?? 200) || 200));
      const after = BigInt(req.query.after ?? '0');
      const before = req.query.before ? BigInt(req.query.before) : null;
      const withCounts = req.query.with_counts === 'true';
      const guilds = [...state.guilds.values()]
        .filter((g) => g.members.some((m) => m.user_id === id))
        .filter((g) => BigInt(g.id) > after && (before === null || BigInt(g.id) < before))
        .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))
        .slice(0, limit);
      return guilds.map((g) => {
        const entry: RESTAPIPartialCurrentUserGuild & {
          approximate_member_count?: number;
          approximate_presence_count?: number;
        } = {
          id: g.id,
          name: g.name,
          icon: g.icon,
          banner: null,
          owner: g.owner_id === id,
          permissions: guildPermissions(g, id).toString(),
          features: [],
        };
        if (withCounts) {
          entry.approximate_member_count = g.members.length;
          entry.approximate_presence_count = 0;
        }
        return entry;
      });
    },
  );

  api.get('/oauth2/@me', async (req, reply) => {
    const grant = bearerGrant(ctx, req);
    if (!grant) return unauthorized(reply);
    return {
      application: { id: state.application.id, name: state.application.name, icon: null, bot_public: true },
      scopes: grant.scopes,
      expires: new Date(grant.expires_at).toISOString(),
      user: grant.scopes.includes('identify') ? state.users.get(grant.user_id) : undefined,
    };
  });

  api.get<{ Params: { userId: string } }>('/users/:userId', async (req, reply) => {
    // discord.js sends `@me` percent-encoded (/users/%40me), which this route receives decoded.
    if (req.params.userId === '@me') return currentUser(ctx, req, reply);
    if (!requireBot(ctx, req, reply)) return reply;
    const user = state.users.get(req.params.userId);
    if (!user) return discordError(reply, 404, 10013, 'Unknown User');
    return user;
  });
}

/** The current application, and gateway discovery. */
function registerApplicationRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  api.get('/applications/@me', async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    return applicationObject(state);
  });

  api.get('/gateway', async (req) => ({ url: ctx.gatewayUrl(req.headers.host) }));
  api.get('/gateway/bot', async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    return {
      url: ctx.gatewayUrl(req.headers.host),
      shards: 1,
      session_start_limit: state.sessionLimits.snapshot(state.now()),
    };
  });
}

/** Global and guild application commands: list, overwrite all, create or replace one. */
function registerCommandRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  const commandsFor = (guildId: string | undefined): APIApplicationCommand[] =>
    guildId ? (state.guildCommands.get(guildId) ?? []) : state.globalCommands;

  const toCommand = (body: CommandBody, guildId: string | undefined): APIApplicationCommand =>
    ({
      type: 1,
      description: '',
      default_member_permissions: null,
      ...body,
      id: body.id ?? state.snowflake(),
      application_id: state.application.id,
      name: body.name ?? '',
      version: state.snowflake(),
      ...(guildId ? { guild_id: guildId } : {}),
    }) as APIApplicationCommand;

  for (const path of ['/applications/:appId/commands', '/applications/:appId/guilds/:guildId/commands']) {
    api.get<{ Params: { appId: string; guildId?: string } }>(path, async (req, reply) => {
      if (!requireBot(ctx, req, reply)) return reply;
      if (req.params.guildId && !state.guilds.has(req.params.guildId)) {
        return discordError(reply, 404, 10004, 'Unknown Guild');
      }
      return commandsFor(req.params.guildId);
    });
    api.put<{ Params: { appId: string; guildId?: string }; Body: CommandBody[] | undefined }>(
      path,
      async (req, reply) => {
        if (!requireBot(ctx, req, reply)) return reply;
        const { guildId } = req.params;
        if (guildId && !state.guilds.has(guildId)) return discordError(reply, 404, 10004, 'Unknown Guild');
        const commands = (req.body ?? []).map((c) => toCommand(c, guildId));
        if (guildId) state.guildCommands.set(guildId, commands);
        else state.globalCommands = commands;
        return commands;
      },
    );
    api.post<{ Params: { appId: string; guildId?: string }; Body: CommandBody | undefined }>(
      path,
      async (req, reply) => {
        if (!requireBot(ctx, req, reply)) return reply;
        const { guildId } = req.params;
        const command = toCommand(req.body ?? {}, guildId);
        const list = commandsFor(guildId).filter((c) => c.name !== command.name);
        list.push(command);
        if (guildId) state.guildCommands.set(guildId, list);
        else state.globalCommands = list;
        return reply.code(201).send(command);
      },
    );
  }
}
