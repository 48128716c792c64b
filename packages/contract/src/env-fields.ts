import { z } from 'zod';

/**
 * Env fields read the same way by the API and the worker (each keeps its own env reader; the
 * variables they share are parsed here once).
 */

/**
 * A bad environment, thrown by every process's env reader (API, worker, dashboard server,
 * sandbox, `pnpm db:migrate`, the scripts): one line per problem, each naming its variable.
 * `subject` says whose environment it was, e.g. `worker environment`.
 */
export class EnvError extends Error {
  override name = 'EnvError';

  constructor(
    readonly problems: string[],
    subject = 'environment',
  ) {
    super(`Invalid ${subject}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Unset and blank are the same: `FOO=` in a .env file means the default. Trimmed. */
export const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

export const positiveInt = (fallback: number) =>
  optionalString.pipe(
    z
      .string()
      .regex(/^\d+$/, 'must be a positive integer')
      .transform(Number)
      .refine((n) => n > 0, 'must be a positive integer')
      .optional()
      .transform((n) => n ?? fallback),
  );

/**
 * SHARD_COUNT: how many gateway shards the bot runs. The worker connects them; the API and the
 * worker both pick a guild's job queue with it (`shardOfGuild`), so every process of a
 * deployment must be given the same. Unset: the worker runs unsharded (shard 0 of 1).
 */
export const shardCountField = optionalString.pipe(
  z
    .string()
    .regex(/^\d+$/, 'must be a positive integer')
    .transform(Number)
    .refine((n) => n > 0, 'must be at least 1')
    .optional(),
);

export const portNumber = z
  .string()
  .regex(/^\d{1,5}$/, 'must be a port number')
  .transform(Number)
  .refine((value) => value <= 65535, 'must be a port number');

/** `/metrics` (Prometheus) on its own listener, never the public port; a null port: off. */
export interface MetricsListenConfig {
  port: number | null;
  host: string;
  /** When set, scrapes must send `Authorization: Bearer <token>`. */
  token: string | null;
}

/** METRICS_PORT, METRICS_HOST and METRICS_TOKEN, spread into an env schema. */
export const metricsEnvFields = {
  METRICS_PORT: optionalString.pipe(portNumber.optional()),
  METRICS_HOST: optionalString.pipe(z.string().default('127.0.0.1')),
  METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
};

export function metricsListenConfig(values: {
  METRICS_PORT?: number | undefined;
  METRICS_HOST: string;
  METRICS_TOKEN?: string | undefined;
}): MetricsListenConfig {
  return {
    port: values.METRICS_PORT ?? null,
    host: values.METRICS_HOST,
    token: values.METRICS_TOKEN ?? null,
  };
}

/** Hosts that are this machine, as `new URL(...).hostname` spells them. */
const LOCAL_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Whether a Discord base URL (DISCORD_API_BASE, DISCORD_OAUTH_BASE) is on this machine, i.e. the
 * sandbox: then its fixed credentials are the defaults, and the dashboard takes its CDN paths
 * from it. A URL that does not parse is not local.
 */
export function isLocalDiscord(baseUrl: string): boolean {
  return URL.canParse(baseUrl) && LOCAL_HOSTS.has(new URL(baseUrl).hostname);
}

/** Discord's REST API: what DISCORD_API_BASE is unless set. */
export const DISCORD_API_BASE_DEFAULT = 'https://discord.com/api';

/**
 * A base URL of Discord's REST API (DISCORD_API_BASE, DISCORD_PROXY_URL): http(s), its path ending
 * in `/api`, to which discord.js and the API add the version and the route (`/v10/users/@me`).
 * Without that path every call is answered 404 and the worker dies with a bare
 * "DiscordAPIError[0]: 404: Not Found" at `/users/@me`, so the URL is refused at start instead,
 * saying what it should look like (`example`). Trailing slashes are dropped.
 */
function discordRestUrl(example: string) {
  return z
    .url({ protocol: /^https?$/, message: `must be an http(s) URL such as ${example}` })
    .transform((url) => url.replace(/\/+$/, ''))
    .refine(
      (url) => new URL(url).pathname.endsWith('/api'),
      `must end with /api, the path Discord's REST API is under, e.g. ${example} (the version, /v10, is added to it)`,
    );
}

/** DISCORD_API_BASE: Discord's REST API (`https://discord.com/api`), or the sandbox's. */
export const discordApiBaseField = optionalString.pipe(
  discordRestUrl(`${DISCORD_API_BASE_DEFAULT} (the sandbox: http://127.0.0.1:4100/api)`).default(
    DISCORD_API_BASE_DEFAULT,
  ),
);

const proxyUrl = discordRestUrl('http://127.0.0.1:4200/api');

/**
 * DISCORD_PROXY_URL: the shared Discord rate limiter (`@spacecadet/discord-proxy`), e.g.
 * `http://127.0.0.1:4200/api`, or every proxy of a set, comma-separated
 * (`http://discord-proxy:4200/api,http://discord-proxy-2:4200/api`): one of them is active and
 * the others pass requests on to it, and a sender tries them in turn when one does not take a
 * connection. Unset: each process keeps its own limits, which only holds for one process
 * (Discord counts per bot token, not per process).
 */
export const discordProxyEnvFields = {
  DISCORD_PROXY_URL: optionalString.transform((value, ctx): string[] | undefined => {
    if (value === undefined) return undefined;
    const parts = value.split(',').map((part) => part.trim());
    const urls: string[] = [];
    for (const part of parts) {
      const parsed = proxyUrl.safeParse(part);
      if (!parsed.success) {
        const message = parsed.error.issues[0]?.message ?? 'is not a proxy URL';
        ctx.addIssue({ code: 'custom', message: parts.length > 1 ? `${message} (got "${part}")` : message });
        return z.NEVER;
      }
      urls.push(parsed.data);
    }
    if (new Set(urls).size !== urls.length) {
      ctx.addIssue({ code: 'custom', message: 'lists the same proxy twice' });
      return z.NEVER;
    }
    return urls;
  }),
};

/**
 * Errors that come before a byte of a request left (no connection was made: refused, no such
 * host, no route, connect timeout): nothing reached that proxy, so a sender given several
 * (DISCORD_PROXY_URL) may send the request to the next one without sending it twice. Any other
 * failure (a reset, a socket closed before the answer) may come after the proxy passed it on to
 * Discord. Looks through `cause` (fetch wraps them in "fetch failed").
 */
const NEVER_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export function proxyRequestNeverSent(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NEVER_SENT_CODES.has(code)) return true;
    current = current.cause;
  }
  return false;
}

/**
 * A header on a Discord proxy's answer saying the request was not sent to Discord (that proxy
 * does not know which proxy of its set is active: it lost Redis, or a takeover is under way), so
 * a sender given several proxies sends it to the next one.
 */
export const PROXY_NOT_SENT_HEADER = 'x-spacecadet-proxy-not-sent';

/**
 * DISCORD_PROXY_ADVERTISE_URL: where the other proxies of a set reach this one when it is the
 * active one (its `/api`), e.g. `http://discord-proxy-2:4200/api` in compose.
 */
export const discordProxyAdvertiseUrlField = optionalString.pipe(proxyUrl.optional());

/** The start-up warning of a process that has no DISCORD_PROXY_URL. */
export const NO_DISCORD_PROXY_WARNING =
  "DISCORD_PROXY_URL is not set: this process keeps its own Discord rate limits. With more than one process (API, worker shards) set it to the shared @spacecadet/discord-proxy, or together they exceed the bot token's limits.";

/** One Redis Cluster seed node, as REDIS_CLUSTER_NODES lists them. */
export interface RedisClusterNode {
  host: string;
  port: number;
}

/**
 * REDIS_CLUSTER_NODES: `host:port,host:port,…`, a few nodes of a Redis Cluster (the client finds
 * the rest from them). Unset: REDIS_URL's single Redis. Set: every process uses a cluster client
 * seeded with these, taking REDIS_URL's user, password and TLS (`rediss://`) for each node; its
 * host, port and database number are not used (a cluster has only database 0).
 */
export const redisClusterNodesField = optionalString.pipe(
  z
    .string()
    .transform((value, context): RedisClusterNode[] => {
      const nodes: RedisClusterNode[] = [];
      for (const entry of value.split(',').map((part) => part.trim())) {
        const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$/.exec(entry);
        const port = Number(match?.[2]);
        if (!match?.[1] || !(port > 0 && port <= 65535)) {
          context.addIssue({
            code: 'custom',
            message: `"${entry}" is not host:port (a list: host:port,host:port)`,
          });
          return z.NEVER;
        }
        nodes.push({ host: match[1].replace(/^\[|\]$/g, ''), port });
      }
      return nodes;
    })
    .optional()
    .transform((nodes) => nodes ?? null),
);
