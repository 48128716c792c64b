import { type RouteAuth, Snowflake } from '@spacecadet/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, notAuthenticated, sessionExpired } from '../errors.ts';
import { assertBotInGuild } from '../services/bot-presence.ts';
import type { AppServices } from '../services/container.ts';
import type { SessionContext } from '../services/sessions.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The session token of `Authorization: Bearer <token>`, or null. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  return BEARER.exec(header)?.[1] ?? null;
}

/** The raw `:guildId` path segment, when the route has one and it looks like an id. */
function guildIdParam(request: FastifyRequest): string | null {
  const params = request.params;
  if (typeof params !== 'object' || params === null || !('guildId' in params)) return null;
  const parsed = Snowflake.safeParse(params.guildId);
  return parsed.success ? parsed.data : null;
}

export async function authenticate(services: AppServices, request: FastifyRequest): Promise<SessionContext> {
  const token = bearerToken(request);
  if (token === null) throw notAuthenticated();
  const found = await services.sessions.lookup(token);
  if (found.status === 'unknown') throw notAuthenticated();
  if (found.status === 'expired') throw sessionExpired();
  return found.session;
}

/** 403 unless the session's user owns or manages the guild (per Discord, cached briefly). */
export async function authorizeGuild(
  services: AppServices,
  session: SessionContext,
  guildId: string,
): Promise<void> {
  if (!(await services.guildAccess.canManage(session, guildId))) throw forbidden();
}

/**
 * 403 unless the session's user manages at least one guild. A `group` route names a row, not a
 * guild, so this is all that can be decided before the row is read; the route then looks the row
 * up only among the user's guilds, so a row of someone else's guild and a missing row both answer
 * 404 and reveal nothing.
 */
export async function managedGuildIds(services: AppServices, session: SessionContext): Promise<string[]> {
  const ids = (await services.guildAccess.adminGuilds(session)).map((guild) => guild.id);
  if (ids.length === 0) throw forbidden();
  return ids;
}

/**
 * The guard every route passes, driven by the route table's `auth` kind. It runs in
 * preValidation: after the rate limit (onRequest, per address unless the replica already holds
 * the session), so a flood of made-up tokens is throttled before it reaches Postgres or Discord,
 * and before validation, so a caller without
 * access learns nothing from validation errors. The bot check and the check that body ids name the
 * guild's own channels, roles and members run last, after validation, before the handler.
 */
export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest('session', null);

  const guard = async (request: FastifyRequest, auth: RouteAuth): Promise<void> => {
    // The rate limiter's key already found a session this replica holds (plugins/security.ts).
    const session = request.session ?? (await authenticate(app.services, request));
    request.session = session;
    if (auth === 'group') await managedGuildIds(app.services, session);
    if (auth !== 'guild') return;
    // A malformed id is left to validation (400); it can name no guild the user manages.
    const guildId = guildIdParam(request);
    if (guildId !== null) await authorizeGuild(app.services, session, guildId);
  };

  // A callback hook: the common case (session and guild list both in this replica's memory) is
  // decided at once, the same checks as `guard` without its promises; anything else runs `guard`.
  app.addHook('preValidation', (request, _reply, done) => {
    const auth = request.routeOptions.config.auth;
    if (auth === undefined || auth === 'public') return done();
    if (auth === 'guild' && request.session) {
      const guildId = guildIdParam(request);
      const allowed =
        guildId === null ? true : app.services.guildAccess.canManageKnown(request.session, guildId);
      if (allowed === true) return done();
      if (allowed === false) return done(forbidden());
    }
    guard(request, auth).then(() => done(), done);
  });

  // Only on the routes that need them (decided once per route, not once per request).
  const guildChecks = async (request: FastifyRequest) => {
    const { needsBot, guildRefs, channelUses } = request.routeOptions.config;
    const guildId = guildIdParam(request);
    if (guildId === null) return;
    if (needsBot === true) await assertBotInGuild(app.services.db, guildId);
    // Every channel, role and member id in the body must be the guild's own (400 otherwise).
    if (guildRefs !== undefined)
      await app.services.guildResources.assertOwned(guildId, request.body, guildRefs);
    // ...and a channel the bot will post in must let it (400 naming the missing permission).
    if (channelUses !== undefined)
      await app.services.guildResources.assertBotCanUse(guildId, request.body, channelUses);
  };
  app.addHook('onRoute', (route) => {
    const config = route.config as { needsBot?: boolean; guildRefs?: unknown } | undefined;
    if (config?.needsBot !== true && config?.guildRefs === undefined) return;
    const own = route.preHandler === undefined ? [] : [route.preHandler].flat();
    route.preHandler = [...own, guildChecks];
  });
}
