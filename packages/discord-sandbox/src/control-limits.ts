/**
 * `/_sandbox/*` controls of outages and limits: injected faults, Discord's global and per-route
 * rate limits, the invalid-request count and the gateway's session start limits.
 */
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from './context.ts';
import { controlError } from './control-error.ts';
import { InvalidRequestCount } from './global-limit.ts';
import { restPath } from './rest/http.ts';

interface FaultBody {
  method?: string;
  path?: string;
  status?: number;
  count?: number;
  retry_after?: number;
}

/** `/_sandbox/faults`: inject (POST), list (GET) and clear (DELETE) failing REST answers. */
export function registerFaultControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

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

  app.get('/_sandbox/faults', async () => state.faults);
  app.delete('/_sandbox/faults', async () => {
    state.faults = [];
    return { ok: true };
  });
}

/** Discord's rate limits and session start limits, read and set. */
export function registerLimitControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

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

  /**
   * Discord's per-route buckets on the bot token: `{ enforce: true }` refuses requests over any
   * of them with 429; `{ channel_messages: false }` stops enforcing the message bucket (5 per 5 s
   * a channel), which is enforced by default.
   */
  const routeLimits = () => ({
    enforce: state.routeLimits.enforce,
    channel_messages: state.routeLimits.channelMessages,
  });
  app.get('/_sandbox/route-rate-limits', async () => routeLimits());
  app.put<{ Body: { enforce?: unknown; channel_messages?: unknown } | undefined }>(
    '/_sandbox/route-rate-limits',
    async (req, reply) => {
      const { enforce, channel_messages } = req.body ?? {};
      if (enforce === undefined && channel_messages === undefined) {
        return controlError(reply, 400, 'invalid_request', 'Give "enforce", "channel_messages" or both');
      }
      for (const [name, value] of [
        ['enforce', enforce],
        ['channel_messages', channel_messages],
      ] as const) {
        if (value !== undefined && typeof value !== 'boolean') {
          return controlError(reply, 400, 'invalid_request', `"${name}" must be true or false`);
        }
      }
      if (typeof enforce === 'boolean') state.routeLimits.set(enforce);
      if (typeof channel_messages === 'boolean') state.routeLimits.setChannelMessages(channel_messages);
      return routeLimits();
    },
  );

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
    state.sessionLimits.set(
      {
        ...(maxConcurrency !== undefined ? { maxConcurrency: maxConcurrency as number } : {}),
        ...(identifyIntervalMs !== undefined ? { identifyIntervalMs: identifyIntervalMs as number } : {}),
        ...(remaining !== undefined ? { remaining: remaining as number } : {}),
      },
      state.now(),
    );
    return state.sessionLimits.dump(state.now());
  });
}
