import { routes, type SessionUser } from '@spacecadet/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, notAuthenticated, sessionExpired } from '../errors.ts';
import { cookieValue, setCookieHeader } from '../services/cookies.ts';
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

/**
 * The browser's refresh cookie. HttpOnly (no script reads it), Path=/api/auth (sent to the
 * refresh and logout routes only), Secure when the API is served over https. SameSite=Lax: the
 * dashboard calls the API from the same site (127.0.0.1 on two ports in the demo, two subdomains
 * of one domain in a deployment), so the cookie goes along with its fetches, while another site's
 * page cannot make the browser send it (its cross-site POSTs go without it). Strict would work
 * too; Lax keeps a dashboard opened from a link in Discord able to refresh at once in every
 * browser. A dashboard on a different site from the API would need SameSite=None.
 */
const REFRESH_COOKIE = 'spacecadet_refresh';
const REFRESH_PATH = '/api/auth';
/** Refresh tokens are `newSessionToken()`s: 32 random bytes, base64url. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

function refreshCookie(request: FastifyRequest): string | null {
  const value = cookieValue(request, REFRESH_COOKIE);
  return value !== null && TOKEN_SHAPE.test(value) ? value : null;
}

/** Sign-in (PKCE code exchange), refresh, the current session, logout and the user's admin guilds. */
export function registerAuthRoutes(app: FastifyInstance): void {
  const { config, discord, sessions, guildAccess } = app.services;
  const redirectUri = `${config.dashboardUrl}/auth/callback`;
  const refreshCookieOptions = { path: REFRESH_PATH, sameSite: 'Lax' } as const;
  const setRefreshCookie = (reply: FastifyReply, refresh: { token: string; expiresAt: Date }) => {
    const maxAgeSec = Math.max(1, Math.floor((refresh.expiresAt.getTime() - Date.now()) / 1000));
    reply.header(
      'set-cookie',
      setCookieHeader(config, REFRESH_COOKIE, refresh.token, { ...refreshCookieOptions, maxAgeSec }),
    );
  };
  const clearRefreshCookie = (reply: FastifyReply) => {
    reply.header(
      'set-cookie',
      setCookieHeader(config, REFRESH_COOKIE, '', { ...refreshCookieOptions, maxAgeSec: 0 }),
    );
  };
  const answer = (user: SessionUser, token: string) => ({
    user,
    tokens: { access_token: token, token_type: 'Bearer' as const, expires_in: config.sessionTtlSec },
  });

  defineRoute(
    app,
    routes.exchangeCode,
    async ({ body, reply }) => {
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
      const { token, refresh } = await sessions.create(sessionUser, tokens);
      setRefreshCookie(reply, refresh);
      return answer(sessionUser, token);
    },
    { rateLimit: { max: config.rateLimit.exchangeMax, timeWindow: config.rateLimit.windowMs } },
  );

  defineRoute(
    app,
    routes.refreshSession,
    async ({ request, reply }) => {
      // Only the dashboard trades the cookie (a same-site page of another origin cannot).
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== config.dashboardUrl) {
        throw new ApiError('forbidden', 'Only the dashboard may refresh a session');
      }
      const token = refreshCookie(request);
      if (token === null) throw notAuthenticated();
      const result = await sessions.refresh(token);
      if (result.status !== 'ok') {
        clearRefreshCookie(reply);
        throw result.status === 'expired' ? sessionExpired() : notAuthenticated();
      }
      if (result.refresh !== null) setRefreshCookie(reply, result.refresh);
      return answer(result.session.user, result.token);
    },
    { rateLimit: { max: config.rateLimit.refreshMax, timeWindow: config.rateLimit.windowMs } },
  );

  defineRoute(app, routes.getSession, async ({ session }) => ({
    user: session.user,
    is_owner: config.ownerUserId !== null && session.user.id === config.ownerUserId,
    expires_at: session.expiresAt.toISOString(),
  }));

  defineRoute(app, routes.logout, async ({ session, request, reply }) => {
    await sessions.logout(session.id, refreshCookie(request));
    clearRefreshCookie(reply);
  });

  defineRoute(app, routes.logoutEverywhere, async ({ session, reply }) => {
    await sessions.revokeUser(session.user.id);
    clearRefreshCookie(reply);
  });

  defineRoute(app, routes.listAdminGuilds, async ({ session }) => guildAccess.adminGuilds(session));
}
