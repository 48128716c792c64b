import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from './context.ts';
import { registerApplicationControlRoutes } from './control-application.ts';
import { controlError } from './control-error.ts';
import { registerGuildControlRoutes, registerMemberControlRoutes } from './control-guilds.ts';
import { registerFaultControlRoutes, registerLimitControlRoutes } from './control-limits.ts';
import { registerMessageControlRoutes } from './control-messages.ts';
import { registerUserControlRoutes } from './control-users.ts';
import { registerVoiceControlRoutes } from './control-voice.ts';

/**
 * `/_sandbox/*`: world control for tests, scripts and the chat view (no auth, JSON). The world
 * itself (reset, dump, request log, clock) is here; each resource's controls are in their own
 * `control-*.ts` module.
 */
export function registerControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  app.post('/_sandbox/reset', async () => {
    state.reset();
    return { ok: true };
  });

  app.get('/_sandbox/state', async () => state.dump(ctx.connectedSessions()));

  app.get('/_sandbox/requests', async () => state.requests);

  registerApplicationControlRoutes(app, ctx);
  registerFaultControlRoutes(app, ctx);
  registerLimitControlRoutes(app, ctx);
  registerUserControlRoutes(app, ctx);
  registerMemberControlRoutes(app, ctx);
  registerGuildControlRoutes(app, ctx);
  registerMessageControlRoutes(app, ctx);
  registerVoiceControlRoutes(app, ctx);

  app.post<{ Body: { advance_ms?: number } | undefined }>('/_sandbox/clock', async (req, reply) => {
    const advance = Number(req.body?.advance_ms);
    if (!Number.isFinite(advance) || advance < 0) {
      return controlError(reply, 400, 'invalid_request', '"advance_ms" must be a non-negative number');
    }
    state.clockOffsetMs += advance;
    return { now: new Date(state.now()).toISOString(), offset_ms: state.clockOffsetMs };
  });
}
