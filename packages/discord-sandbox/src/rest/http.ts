import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { exemptFromGlobalLimit } from '../global-limit.ts';
import type { AccessGrant } from '../state.ts';
import { discordError, notFound, unauthorized } from './discord-errors.ts';

export const RATE_LIMIT = 50;
const WINDOW_MS = 1000;

/** Creating messages: Discord's bucket allows 5 per 5 s in each channel (its major parameter). */
export const CHANNEL_MESSAGE_LIMIT = { limit: 5, windowMs: 5000 };

/** `POST /channels/:channelId/messages` (a guild channel or a DM), whatever the prefix. */
export function isCreateMessage(method: string, route: string): boolean {
  return method === 'POST' && route.endsWith('/channels/:channelId/messages');
}

/**
 * A route's bucket size and window as Discord reports them: adding a reaction is limited to
 * one per 250 ms a channel (every emoji shares the bucket, the route template having `:emoji`);
 * creating a message to 5 per 5 s a channel (discord.js reports "Limit: 5" and waits of about
 * 4.5 s on it, e.g. alexemanuelol/rustplusplus#475); other routes get 50 a second.
 */
function routeLimit(method: string, route: string): { limit: number; windowMs: number } {
  if (method === 'PUT' && route.endsWith('/reactions/:emoji/@me')) return { limit: 1, windowMs: 250 };
  if (isCreateMessage(method, route)) return CHANNEL_MESSAGE_LIMIT;
  return { limit: RATE_LIMIT, windowMs: WINDOW_MS };
}

/** The REST path after `/api/v10` (or `/api`), without the query string. */
export function restPath(url: string): string {
  const path = url.split('?')[0] ?? url;
  return path.replace(/^\/api(\/v\d+)?/, '') || '/';
}

const BOT_AUTH = /^Bot /;

function header(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function isBot(ctx: SandboxContext, req: FastifyRequest): boolean {
  return header(req, 'authorization') === `Bot ${ctx.state.application.bot_token}`;
}

/** Sends 401 and returns false unless the request carries the bot token. */
export function requireBot(ctx: SandboxContext, req: FastifyRequest, reply: FastifyReply): boolean {
  if (isBot(ctx, req)) return true;
  unauthorized(reply);
  return false;
}

/** The live grant behind a `Bearer` user token, or null (missing, unknown or expired). */
export function bearerGrant(ctx: SandboxContext, req: FastifyRequest): AccessGrant | null {
  const auth = header(req, 'authorization') ?? '';
  const match = /^Bearer (.+)$/.exec(auth);
  if (!match?.[1]) return null;
  const grant = ctx.state.accessTokens.get(match[1]);
  if (!grant || grant.expires_at <= ctx.state.now()) return null;
  return grant;
}

/**
 * Discord's answer to a request over the global limit: no bucket headers (no route bucket was
 * used), `Retry-After` in whole seconds as Discord sends it, the exact wait in the body.
 */
function globalLimited(reply: FastifyReply, waitMs: number): FastifyReply {
  reply.header('Retry-After', String(Math.max(1, Math.ceil(waitMs / 1000))));
  reply.header('X-RateLimit-Global', 'true');
  reply.header('X-RateLimit-Scope', 'global');
  return reply
    .code(429)
    .send({ message: 'You are being rate limited.', retry_after: Math.ceil(waitMs) / 1000, global: true });
}

/**
 * Discord's answer to a request over its route's bucket: the bucket's headers with nothing
 * remaining, `X-RateLimit-Scope: user` (the bot's own bucket), `Retry-After` in seconds.
 */
function routeLimited(reply: FastifyReply, now: number, resetAt: number): FastifyReply {
  const retryAfter = Math.max(0.001, (resetAt - now) / 1000);
  reply.header('Retry-After', String(Math.max(1, Math.ceil(retryAfter))));
  reply.header('X-RateLimit-Scope', 'user');
  return reply.code(429).send({
    message: 'You are being rate limited.',
    retry_after: Number(retryAfter.toFixed(3)),
    global: false,
  });
}

/**
 * Rate-limit headers on every REST answer, Discord's global limit when it is on (see
 * `src/global-limit.ts`), and injected faults. The per-route buckets are reported always and
 * enforced for the bot token only when switched on (`RouteRateLimits`): off, remaining never
 * drops below 1, so benchmarks measure our code, not waits; route 429s then come from
 * `POST /_sandbox/faults`. The per-channel message bucket (5 per 5 s) is enforced unless
 * turned off.
 */
export function installRestHooks(api: FastifyInstance, ctx: SandboxContext): void {
  api.addHook('onRequest', async (req, reply) => {
    const path = restPath(req.url);
    const bot = isBot(ctx, req);
    const exempt = exemptFromGlobalLimit(path);
    if (bot && !exempt) {
      const waitMs = ctx.state.globalLimit.take(ctx.state.now());
      if (waitMs > 0) return globalLimited(reply, waitMs);
    }
    const route = req.routeOptions.url ?? path;
    const major = /\/(guilds|channels|webhooks|interactions)\/(\d+)/.exec(path)?.[2] ?? '';
    const bucket = createHash('sha1').update(`${req.method} ${route}`).digest('hex').slice(0, 16);
    const key = `${bucket}:${major}`;
    const now = Date.now();
    const { limit, windowMs } = routeLimit(req.method, route);
    const win = ctx.state.routeLimits.take(
      key,
      limit,
      windowMs,
      now,
      bot && !exempt,
      isCreateMessage(req.method, route),
    );
    const resetAfter = (win.resetAt - now) / 1000;
    reply.header('X-RateLimit-Bucket', bucket);
    reply.header('X-RateLimit-Limit', String(limit));
    reply.header('X-RateLimit-Remaining', String(win.remaining));
    reply.header('X-RateLimit-Reset', (win.resetAt / 1000).toFixed(3));
    reply.header('X-RateLimit-Reset-After', resetAfter.toFixed(3));
    if (win.limited) return routeLimited(reply, now, win.resetAt);

    const fault = ctx.state.faults.find(
      (f) => f.remaining > 0 && (f.method === null || f.method === req.method) && path.startsWith(f.path),
    );
    if (!fault) return;
    fault.remaining -= 1;
    if (fault.status === 429) {
      reply.header('Retry-After', String(fault.retry_after));
      reply.header('X-RateLimit-Remaining', '0');
      reply.header('X-RateLimit-Reset-After', fault.retry_after.toFixed(3));
      reply.header('X-RateLimit-Reset', ((now + fault.retry_after * 1000) / 1000).toFixed(3));
      reply.header('X-RateLimit-Scope', 'user');
      return reply
        .code(429)
        .send({ message: 'You are being rate limited.', retry_after: fault.retry_after, global: false });
    }
    return discordError(reply, fault.status, 0, `${fault.status}: Injected fault`);
  });

  api.addHook('onResponse', async (req, reply) => {
    ctx.state.recordRequest(req.method, restPath(req.url), reply.statusCode);
    const status = reply.statusCode;
    // Discord counts these per IP whoever the token; the sandbox counts the bot token's.
    if (
      BOT_AUTH.test(header(req, 'authorization') ?? '') &&
      (status === 401 || status === 403 || status === 429)
    ) {
      ctx.state.invalidRequests.record(ctx.state.now());
    }
  });

  api.setNotFoundHandler((_req, reply) => notFound(reply));
}
