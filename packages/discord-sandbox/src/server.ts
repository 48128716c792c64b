import type { AddressInfo } from 'node:net';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerCdn } from './cdn.ts';
import { registerChatView } from './chat-view.ts';
import type { SandboxContext } from './context.ts';
import { registerControlRoutes } from './control.ts';
import { registerChannelControlRoutes } from './control-channels.ts';
import { registerReactionControlRoutes } from './control-reactions.ts';
import { defaultFixture } from './default-fixture.ts';
import type { SandboxFixture } from './fixture.ts';
import { SandboxGateway } from './gateway.ts';
import { registerAuthorize } from './oauth-authorize.ts';
import { registerToken } from './oauth-token.ts';
import { registerMultipart } from './rest/attachments.ts';
import { registerBulkDeleteRoute } from './rest/bulk-delete.ts';
import { registerChannelRoutes } from './rest/channels.ts';
import { discordError } from './rest/discord-errors.ts';
import { registerDmRoutes } from './rest/dms.ts';
import { registerGuildRoutes } from './rest/guilds.ts';
import { installRestHooks } from './rest/http.ts';
import { registerInteractionRoutes } from './rest/interactions.ts';
import { registerMessageRoutes } from './rest/messages.ts';
import { registerOnboardingRoutes } from './rest/onboarding.ts';
import { registerReactionRoutes } from './rest/reactions.ts';
import { registerRoleRoutes } from './rest/roles.ts';
import { registerUserRoutes } from './rest/users.ts';
import { registerRoleConnectionRoutes } from './role-connections.ts';
import { registerSimulationRoutes } from './simulation.ts';
import { SandboxState, type SandboxStateDump } from './state.ts';

export interface SandboxOptions {
  /** 0 picks a free port. Default 0. */
  port?: number;
  host?: string;
  fixture?: SandboxFixture;
  /** How long `POST /_sandbox/interactions` waits for the bot, and how long a callback is accepted. */
  interactionTimeoutMs?: number;
  /** The address people and other containers use (e.g. `http://127.0.0.1:4100`); default from host and port. */
  publicUrl?: string;
  /**
   * Discord's global limit on the bot token, in requests a second (Discord's is 50), interaction
   * answers exempt; see `global-limit.ts`. Default null: not enforced, so tests measure
   * our code rather than waits. `PUT /_sandbox/global-rate-limit` changes it at run time.
   */
  globalRateLimit?: number | null;
  /**
   * Enforce Discord's per-route buckets on the bot token (429, scope `user`, past a bucket);
   * default false: reported in the headers only. `PUT /_sandbox/route-rate-limits` switches it.
   */
  routeRateLimits?: boolean;
  /**
   * Enforce Discord's message bucket, 5 messages per 5 s in a channel, even when the other
   * route buckets are not (default true, as on Discord: clients that follow the headers wait).
   * `PUT /_sandbox/route-rate-limits {channel_messages}` switches it.
   */
  channelMessageLimit?: boolean;
  /**
   * `session_start_limit.max_concurrency` (IDENTIFY buckets per 5 s); default the fixture's
   * `application.max_concurrency`, else 1 as for most bots.
   */
  maxConcurrency?: number;
  /**
   * Least time between two IDENTIFYs of one bucket, default Discord's 5000 ms; 0 turns the check
   * off. Tests that start many clients shorten it; `PUT /_sandbox/gateway-limits` changes it.
   */
  identifyIntervalMs?: number;
}

export interface Sandbox {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** `${url}/api`: what DISCORD_API_BASE is set to. */
  apiBase: string;
  /** Equal to `url`: what DISCORD_OAUTH_BASE is set to. */
  oauthBase: string;
  /** Equal to `url`: serves Discord CDN paths (`/avatars/...`, `/icons/...`) as generated images. */
  cdnBase: string;
  port: number;
  reset(): void;
  state(): SandboxStateDump;
  /**
   * The live state, for in-process load generators (`pnpm bench xp` posts through mutations.ts
   * faster than HTTP allows). Tests and scripts use the control API instead.
   */
  world: SandboxState;
  close(): Promise<void>;
}

function buildApp(ctx: SandboxContext): { app: FastifyInstance; gateway: SandboxGateway } {
  const app = Fastify({ logger: false, bodyLimit: 8 * 1024 * 1024 });
  const gateway = new SandboxGateway(app, ctx);
  app.register(formbody);
  registerMultipart(app);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error('invalid json'), { statusCode: 400, discordCode: 50109 }), undefined);
    }
  });
  app.setErrorHandler((error: Error & { statusCode?: number; discordCode?: number }, req, reply) => {
    const status = error.statusCode ?? 500;
    if (!req.url.startsWith('/api')) {
      return reply
        .code(status)
        .send({ error: status >= 500 ? 'internal' : 'bad_request', message: error.message });
    }
    if (error.discordCode === 50109)
      return discordError(reply, 400, 50109, 'The request body contains invalid JSON.');
    if (status === 413) return discordError(reply, 413, 40005, 'Request entity too large');
    if (status >= 500) return discordError(reply, 500, 0, '500: Internal Server Error');
    return discordError(reply, status, 0, `${status}: ${error.message}`);
  });

  registerAuthorize(app, ctx);
  for (const prefix of ['/api/v10', '/api/v9', '/api']) {
    app.register(
      async (api) => {
        installRestHooks(api, ctx);
        registerToken(api, ctx);
        registerUserRoutes(api, ctx);
        registerRoleConnectionRoutes(api, ctx);
        registerDmRoutes(api, ctx);
        registerGuildRoutes(api, ctx);
        registerRoleRoutes(api, ctx);
        registerOnboardingRoutes(api, ctx);
        registerMessageRoutes(api, ctx);
        registerChannelRoutes(api, ctx);
        registerReactionRoutes(api, ctx);
        registerBulkDeleteRoute(api, ctx);
        registerInteractionRoutes(api, ctx);
      },
      { prefix },
    );
  }
  registerControlRoutes(app, ctx);
  registerChannelControlRoutes(app, ctx);
  registerReactionControlRoutes(app, ctx);
  registerSimulationRoutes(app, ctx, gateway);
  registerChatView(app);
  registerCdn(app, ctx);
  return { app, gateway };
}

/** Starts a fake Discord on localhost. Each call is an independent world. */
export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const host = opts.host ?? '127.0.0.1';
  const state = new SandboxState(opts.fixture ?? defaultFixture(), {
    globalRateLimit: opts.globalRateLimit ?? null,
    routeRateLimits: opts.routeRateLimits ?? false,
    channelMessageLimit: opts.channelMessageLimit ?? true,
    ...(opts.maxConcurrency !== undefined ? { maxConcurrency: opts.maxConcurrency } : {}),
    ...(opts.identifyIntervalMs !== undefined ? { identifyIntervalMs: opts.identifyIntervalMs } : {}),
  });
  let url = '';
  let gateway: SandboxGateway | null = null;
  const ctx: SandboxContext = {
    state,
    url: () => url,
    gatewayUrl: (host) => (host ? `ws://${host}/gateway` : `${url.replace(/^http/, 'ws')}/gateway`),
    connectedSessions: () => gateway?.connectedSessions() ?? 0,
    interactionTimeoutMs: opts.interactionTimeoutMs ?? 3000,
  };
  const built = buildApp(ctx);
  const { app } = built;
  gateway = built.gateway;
  await app.listen({ port: opts.port ?? 0, host });
  const { port } = app.server.address() as AddressInfo;
  const publicHost =
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  url = opts.publicUrl?.replace(/\/+$/, '') ?? `http://${publicHost}:${port}`;
  return {
    url,
    apiBase: `${url}/api`,
    oauthBase: url,
    cdnBase: url,
    port,
    reset: () => state.reset(),
    state: () => state.dump(ctx.connectedSessions()),
    world: state,
    close: async () => {
      await built.gateway.close();
      await app.close();
    },
  };
}
