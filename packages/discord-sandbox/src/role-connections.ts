/**
 * Discord's Linked Roles: the application's role-connection metadata (set with the bot token)
 * and each user's role connection (set with the user's Bearer token holding
 * `role_connections.write`). Discord refuses values for keys the metadata does not declare, and
 * limits each user's updates (the sandbox: 5 per 5 s per user, `X-RateLimit-Scope: user`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from './context.ts';
import { discordError, type Issue, invalidFormBody, unauthorized } from './rest/discord-errors.ts';
import { bearerGrant, requireBot } from './rest/http.ts';
import {
  ROLE_CONNECTIONS_SCOPE,
  type RoleConnectionMetadata,
  USER_UPDATE_LIMIT,
  type UserRoleConnection,
} from './role-connection-store.ts';

/** Discord's metadata types 1..8 (integer/datetime less-or-equal, greater-or-equal, equal, not equal; boolean). */
const METADATA_TYPES = new Set([1, 2, 3, 4, 5, 6, 7, 8]);
const METADATA_MAX = 5;

function metadataIssues(body: unknown): Issue[] {
  if (!Array.isArray(body)) return [{ path: [], code: 'ARRAY_TYPE_CONVERT', message: 'Must be an array.' }];
  const issues: Issue[] = [];
  if (body.length > METADATA_MAX) {
    issues.push({
      path: [],
      code: 'BASE_TYPE_MAX_LENGTH',
      message: `Must be ${METADATA_MAX} or fewer in length.`,
    });
  }
  const keys = new Set<string>();
  body.forEach((item: Partial<RoleConnectionMetadata> | null, i) => {
    if (!item || !METADATA_TYPES.has(Number(item.type))) {
      issues.push({ path: [i, 'type'], code: 'BASE_TYPE_CHOICES', message: 'Value must be one of 1..8.' });
    }
    if (typeof item?.key !== 'string' || !/^[a-z0-9_]{1,50}$/.test(item.key)) {
      issues.push({
        path: [i, 'key'],
        code: 'BASE_TYPE_INVALID',
        message: 'Must be a-z, 0-9 or _, 1 to 50 long.',
      });
    } else if (keys.has(item.key)) {
      issues.push({ path: [i, 'key'], code: 'BASE_TYPE_DUPLICATE', message: 'Keys must be unique.' });
    } else keys.add(item.key);
    for (const [field, max] of [
      ['name', 100],
      ['description', 200],
    ] as const) {
      const v = item?.[field];
      if (typeof v !== 'string' || v.length < 1 || v.length > max) {
        issues.push({
          path: [i, field],
          code: 'BASE_TYPE_BAD_LENGTH',
          message: `Must be between 1 and ${max} in length.`,
        });
      }
    }
  });
  return issues;
}

type ConnectionBody = { platform_name?: unknown; platform_username?: unknown; metadata?: unknown };

function connectionIssues(body: ConnectionBody, known: RoleConnectionMetadata[]): Issue[] {
  const issues: Issue[] = [];
  for (const [field, max] of [
    ['platform_name', 50],
    ['platform_username', 100],
  ] as const) {
    const v = body[field];
    if (v !== undefined && v !== null && (typeof v !== 'string' || v.length > max)) {
      issues.push({
        path: [field],
        code: 'BASE_TYPE_MAX_LENGTH',
        message: `Must be ${max} or fewer in length.`,
      });
    }
  }
  const metadata = body.metadata ?? {};
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    return [
      ...issues,
      { path: ['metadata'], code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used.' },
    ];
  }
  for (const [key, value] of Object.entries(metadata)) {
    const record = known.find((m) => m.key === key);
    if (!record) {
      issues.push({
        path: ['metadata', key],
        code: 'APPLICATION_ROLE_CONNECTION_METADATA_KEY_UNKNOWN',
        message: `Unknown metadata key "${key}".`,
      });
      continue;
    }
    const integer = record.type <= 4;
    const text = String(value);
    if (integer && !/^-?\d+$/.test(text)) {
      issues.push({
        path: ['metadata', key],
        code: 'NUMBER_TYPE_COERCE',
        message: `Value "${text}" is not int.`,
      });
    }
  }
  return issues;
}

function rateLimited(reply: FastifyReply, now: number, resetAt: number): FastifyReply {
  const retryAfter = Math.max(0.001, (resetAt - now) / 1000);
  reply.header('Retry-After', String(Math.max(1, Math.ceil(retryAfter))));
  reply.header('X-RateLimit-Limit', String(USER_UPDATE_LIMIT.limit));
  reply.header('X-RateLimit-Remaining', '0');
  reply.header('X-RateLimit-Reset-After', retryAfter.toFixed(3));
  reply.header('X-RateLimit-Reset', (resetAt / 1000).toFixed(3));
  reply.header('X-RateLimit-Scope', 'user');
  return reply.code(429).send({
    message: 'You are being rate limited.',
    retry_after: Number(retryAfter.toFixed(3)),
    global: false,
  });
}

/** The user behind a Bearer token with `role_connections.write` for this application, or null (401 sent). */
function connectionUser(
  ctx: SandboxContext,
  req: FastifyRequest<{ Params: { appId: string } }>,
  reply: FastifyReply,
) {
  const grant = bearerGrant(ctx, req);
  if (!grant?.scopes.includes(ROLE_CONNECTIONS_SCOPE) || req.params.appId !== ctx.state.application.id) {
    unauthorized(reply);
    return null;
  }
  return grant?.user_id ?? null;
}

const emptyConnection = (): UserRoleConnection => ({
  platform_name: null,
  platform_username: null,
  metadata: {},
});

/** The metadata routes (bot token) and the user's role connection routes (Bearer token). */
export function registerRoleConnectionRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  const store = () => ctx.state.roleConnections;
  const metadataPath = '/applications/:appId/role-connections/metadata';
  api.get<{ Params: { appId: string } }>(metadataPath, async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    if (req.params.appId !== ctx.state.application.id)
      return discordError(reply, 403, 50001, 'Missing Access');
    return store().metadata;
  });
  api.put<{ Params: { appId: string }; Body: unknown }>(metadataPath, async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    if (req.params.appId !== ctx.state.application.id)
      return discordError(reply, 403, 50001, 'Missing Access');
    const issues = metadataIssues(req.body);
    if (issues.length > 0) return invalidFormBody(reply, issues);
    store().metadata = (req.body as RoleConnectionMetadata[]).map((m) => ({
      type: Number(m.type),
      key: m.key,
      name: m.name,
      description: m.description,
    }));
    return store().metadata;
  });

  const connectionPath = '/users/@me/applications/:appId/role-connection';
  api.get<{ Params: { appId: string } }>(connectionPath, async (req, reply) => {
    const userId = connectionUser(ctx, req, reply);
    if (!userId) return reply;
    return store().byUser.get(userId) ?? emptyConnection();
  });
  api.put<{ Params: { appId: string }; Body: ConnectionBody | undefined }>(
    connectionPath,
    async (req, reply) => {
      const userId = connectionUser(ctx, req, reply);
      if (!userId) return reply;
      const now = ctx.state.now();
      const limitedUntil = store().take(userId, now);
      if (limitedUntil !== null) return rateLimited(reply, now, limitedUntil);
      const body = req.body ?? {};
      const issues = connectionIssues(body, store().metadata);
      if (issues.length > 0) return invalidFormBody(reply, issues);
      const metadata = Object.fromEntries(
        Object.entries((body.metadata ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
      );
      // An empty body clears the connection, as Discord does.
      if (
        body.platform_name == null &&
        body.platform_username == null &&
        Object.keys(metadata).length === 0
      ) {
        store().byUser.delete(userId);
        return emptyConnection();
      }
      const connection: UserRoleConnection = {
        platform_name: (body.platform_name as string | null | undefined) ?? null,
        platform_username: (body.platform_username as string | null | undefined) ?? null,
        metadata,
      };
      store().byUser.set(userId, connection);
      return connection;
    },
  );
  api.delete<{ Params: { appId: string } }>(connectionPath, async (req, reply) => {
    const userId = connectionUser(ctx, req, reply);
    if (!userId) return reply;
    store().byUser.delete(userId);
    return reply.code(204).send();
  });
}
