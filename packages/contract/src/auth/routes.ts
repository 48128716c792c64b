/** Sign-in (OAuth with PKCE), the session, and the bot install. */
import { z } from 'zod';
import { GuildParams } from '../common.ts';
import { noContent, none, ok, route } from '../route-definition.ts';
import {
  ExchangeBody,
  Guild,
  InstallCallbackQuery,
  InstallQuery,
  InviteQuery,
  SessionTokens,
  SessionUser,
} from './schemas.ts';

export const authRoutes = {
  getInviteUrl: route({
    method: 'GET',
    path: '/api/invite-url',
    auth: 'public',
    tag: 'auth',
    summary: 'Bot invite URL, optionally preselecting a guild',
    query: InviteQuery,
    errors: [400, 429],
    responses: ok(z.object({ url: z.url() })),
  }),
  exchangeCode: route({
    method: 'POST',
    path: '/api/auth/discord/exchange',
    auth: 'public',
    tag: 'auth',
    summary:
      "Exchange an OAuth code (PKCE) for a Space Cadet session; also sets the browser's refresh cookie (HttpOnly, SameSite=Lax, Path=/api/auth)",
    body: ExchangeBody,
    // 401: Discord refused the code (expired, used, or not for this redirect): auth_failed.
    errors: [400, 401, 413, 415, 429, 502, 503],
    responses: ok(z.object({ user: SessionUser, tokens: SessionTokens })),
  }),
  getSession: route({
    method: 'GET',
    path: '/api/auth/session',
    auth: 'session',
    tag: 'auth',
    summary: 'The signed-in user of this session',
    errors: [401, 429, 503],
    responses: ok(z.object({ user: SessionUser, is_owner: z.boolean(), expires_at: z.string() })),
  }),
  refreshSession: route({
    method: 'POST',
    path: '/api/auth/refresh',
    auth: 'public',
    tag: 'auth',
    summary:
      "Trade the browser's refresh cookie for a new session (a new tab, a restarted browser, an expired bearer); rotates the cookie",
    // 401: no cookie, or one that was ended, expired or replayed; 403: sent from another origin.
    errors: [400, 401, 403, 413, 415, 429, 503],
    responses: ok(z.object({ user: SessionUser, tokens: SessionTokens })),
  }),
  logout: route({
    method: 'POST',
    path: '/api/auth/logout',
    auth: 'session',
    tag: 'auth',
    summary: "Sign this browser out: revoke its sign-in (every tab's session) and clear its refresh cookie",
    errors: [400, 401, 413, 415, 429, 503],
    responses: noContent,
  }),
  logoutEverywhere: route({
    method: 'POST',
    path: '/api/auth/logout-everywhere',
    auth: 'session',
    tag: 'auth',
    summary:
      "Sign out everywhere: revoke every session and sign-in of the user, and clear this browser's cookie",
    errors: [400, 401, 413, 415, 429, 503],
    responses: noContent,
  }),
  listAdminGuilds: route({
    method: 'GET',
    path: '/api/discord/me/guilds',
    auth: 'session',
    tag: 'auth',
    summary: 'Guilds the user owns or manages (ADMINISTRATOR or MANAGE_GUILD)',
    errors: [401, 429, 502, 503],
    responses: ok(z.array(Guild)),
  }),
  botInGuild: route({
    method: 'GET',
    path: '/api/bot/in-guild/:guildId',
    auth: 'public',
    tag: 'auth',
    summary: 'Whether the bot is in the guild',
    params: GuildParams,
    errors: [400, 429, 503],
    responses: ok(z.object({ inGuild: z.boolean() })),
  }),
  install: route({
    method: 'GET',
    path: '/install',
    auth: 'public',
    tag: 'auth',
    summary: 'Redirect to the bot install (authorize) page',
    query: InstallQuery,
    redirect: true,
    errors: [400, 429],
    responses: { 302: none },
  }),
  installCallback: route({
    method: 'GET',
    path: '/install/callback',
    auth: 'public',
    tag: 'auth',
    summary: 'Bot install return: lands on the dashboard with install=success&guild_id=',
    query: InstallCallbackQuery,
    redirect: true,
    errors: [400, 429],
    responses: { 302: none },
  }),
} as const;
