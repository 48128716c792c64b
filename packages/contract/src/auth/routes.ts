/** Sign-in (OAuth with PKCE), the session, and the bot install. */
import { z } from 'zod';
import { GuildParams } from '../common.ts';
import { noContent, none, ok, route } from '../routes/define.ts';
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
    responses: ok(z.object({ url: z.url() })),
  }),
  exchangeCode: route({
    method: 'POST',
    path: '/api/auth/discord/exchange',
    auth: 'public',
    tag: 'auth',
    summary: 'Exchange an OAuth code (PKCE) for a Space Cadet session',
    body: ExchangeBody,
    // Discord refused the code (expired, used, or not for this redirect): auth_failed.
    errors: [401],
    responses: ok(z.object({ user: SessionUser, tokens: SessionTokens })),
  }),
  getSession: route({
    method: 'GET',
    path: '/api/auth/session',
    auth: 'session',
    tag: 'auth',
    summary: 'The signed-in user of this session',
    responses: ok(z.object({ user: SessionUser, is_owner: z.boolean(), expires_at: z.string() })),
  }),
  logout: route({
    method: 'POST',
    path: '/api/auth/logout',
    auth: 'session',
    tag: 'auth',
    summary: 'Revoke the session',
    responses: noContent,
  }),
  listAdminGuilds: route({
    method: 'GET',
    path: '/api/discord/me/guilds',
    auth: 'session',
    tag: 'auth',
    summary: 'Guilds the user owns or manages (ADMINISTRATOR or MANAGE_GUILD)',
    responses: ok(z.array(Guild)),
  }),
  botInGuild: route({
    method: 'GET',
    path: '/api/bot/in-guild/:guildId',
    auth: 'public',
    tag: 'auth',
    summary: 'Whether the bot is in the guild',
    params: GuildParams,
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
    responses: { 302: none },
  }),
} as const;
