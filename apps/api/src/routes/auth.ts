import { routes, type SessionUser } from '@spacecadet/contract';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { DiscordError, type DiscordTokenResponse, type DiscordUser } from '../services/discord.ts';
import { defineRoute } from './define.ts';

function discordUnavailable(cause: unknown): ApiError {
  const error = new ApiError('discord_request_failed', 'Discord did not answer. Try signing in again.');
  error.cause = cause;
  return error;
}

function toSessionUser(user: DiscordUser): SessionUser {
  return { id: user.id, username: user.username, discriminator: user.discriminator, avatar: user.avatar };
}

/** Sign-in (PKCE code exchange), the current session, logout and the user's admin guilds. */
export function registerAuthRoutes(app: FastifyInstance): void {
  const { config, discord, sessions, guildAccess } = app.services;
  const redirectUri = `${config.dashboardUrl}/auth/callback`;

  defineRoute(
    app,
    routes.exchangeCode,
    async ({ body }) => {
      let tokens: DiscordTokenResponse;
      try {
        tokens = await discord.exchangeCode(body.code, body.code_verifier, redirectUri);
      } catch (error) {
        // Discord refusing the code (reused, expired, wrong verifier) is the user's problem to
        // retry; Discord not answering is ours.
        if (error instanceof DiscordError && error.status >= 400 && error.status < 500) {
          const failed = new ApiError('auth_failed', error.description);
          failed.cause = error;
          throw failed;
        }
        throw discordUnavailable(error);
      }
      let user: DiscordUser;
      try {
        user = await discord.getCurrentUser(tokens.access_token);
      } catch (error) {
        throw discordUnavailable(error);
      }
      const sessionUser = toSessionUser(user);
      const { token } = await sessions.create(sessionUser, tokens);
      return {
        user: sessionUser,
        tokens: { access_token: token, token_type: 'Bearer' as const, expires_in: config.sessionTtlSec },
      };
    },
    { rateLimit: { max: config.rateLimit.exchangeMax, timeWindow: config.rateLimit.windowMs } },
  );

  defineRoute(app, routes.getSession, async ({ session }) => ({
    user: session.user,
    is_owner: config.ownerUserId !== null && session.user.id === config.ownerUserId,
    expires_at: session.expiresAt.toISOString(),
  }));

  defineRoute(app, routes.logout, async ({ session }) => {
    await sessions.logout(session.id);
  });

  defineRoute(app, routes.listAdminGuilds, async ({ session }) => guildAccess.adminGuilds(session));
}
