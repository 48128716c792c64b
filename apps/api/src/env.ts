import {
  DEV_SESSION_SECRET,
  discordApiBaseField,
  discordProxyEnvFields,
  EnvError,
  isLocalDiscord,
  isProductionEnv,
  LOG_LEVELS,
  type LogLevel,
  type MetricsListenConfig,
  metricsEnvFields,
  metricsListenConfig,
  NO_DISCORD_PROXY_WARNING,
  optionalString,
  portNumber,
  positiveInt,
  productionRefusals,
  type RedisClusterNode,
  redisClusterNodesField,
  SANDBOX_DISCORD_CREDENTIALS,
  shardCountField,
  snowflake,
  withRefusals,
} from '@spacecadet/contract';
import { z } from 'zod';

/**
 * The API's one env reader. Everything the process needs is validated here, so a bad value stops
 * the start with a message naming the variable instead of failing on the first request.
 */

export type { LogLevel };

/** The sandbox's fixed credentials (its `SANDBOX_IDS`), used only when Discord is local. */
const SANDBOX_CREDENTIALS = SANDBOX_DISCORD_CREDENTIALS;

const httpUrl = (fallback: string) =>
  optionalString.pipe(
    z
      .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
      .default(fallback)
      .transform((url) => url.replace(/\/+$/, '')),
  );

/**
 * Fastify's `trustProxy`: false (the default: the socket's address is the client's), true (trust
 * every hop), a hop count, or the proxies' addresses/CIDRs.
 */
export type TrustProxy = boolean | number | string[];

function parseTrustProxy(value: string | undefined): TrustProxy {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((part) => part.trim());
}

const EnvSchema = z.object({
  NODE_ENV: optionalString.pipe(z.enum(['development', 'production', 'test']).default('development')),
  DATABASE_URL: optionalString.pipe(
    z
      .url({ protocol: /^postgres(ql)?$/, message: 'must be a postgres:// URL' })
      .default('postgres://postgres@127.0.0.1:5432/spacecadet'),
  ),
  // Unset: every read goes to DATABASE_URL.
  DATABASE_READ_URL: optionalString.pipe(
    z.url({ protocol: /^postgres(ql)?$/, message: 'must be a postgres:// URL' }).optional(),
  ),
  REDIS_URL: optionalString.pipe(
    z.url({ protocol: /^rediss?$/, message: 'must be a redis:// URL' }).default('redis://127.0.0.1:6379'),
  ),
  REDIS_CLUSTER_NODES: redisClusterNodesField,
  REDIS_PREFIX: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
      .default('spacecadet'),
  ),
  /** The workers' SHARD_COUNT: a guild's jobs go to its shard's queue. */
  SHARD_COUNT: shardCountField,
  API_HOST: optionalString.pipe(z.string().default('127.0.0.1')),
  API_PORT: optionalString.pipe(portNumber.default(4000)),
  PUBLIC_API_URL: httpUrl('http://127.0.0.1:4000'),
  DASHBOARD_URL: httpUrl('http://127.0.0.1:5173'),
  DISCORD_API_BASE: discordApiBaseField,
  DISCORD_OAUTH_BASE: httpUrl('https://discord.com'),
  DISCORD_CLIENT_ID: optionalString.pipe(snowflake('must be a Discord id').optional()),
  DISCORD_CLIENT_SECRET: optionalString,
  DISCORD_BOT_TOKEN: optionalString,
  ...discordProxyEnvFields,
  SESSION_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  OWNER_USER_ID: optionalString.pipe(snowflake('must be a Discord id').optional()),
  // Unset: each invite asks for what the server's features need (core's botPermissionsFor).
  BOT_PERMISSIONS: optionalString.pipe(
    z
      .string()
      .regex(/^\d{1,20}$/, 'must be a permissions integer')
      .optional(),
  ),
  LOG_LEVEL: optionalString.pipe(z.enum(LOG_LEVELS).default('info')),
  RATE_LIMIT_MAX: positiveInt(300),
  RATE_LIMIT_WINDOW_MS: positiveInt(60_000),
  TRUST_PROXY: optionalString.pipe(
    z
      .string()
      .regex(
        /^(true|false|\d+|[0-9A-Fa-f.:/]+(\s*,\s*[0-9A-Fa-f.:/]+)*)$/,
        'must be true, false, a hop count, or a comma-separated list of proxy addresses/CIDRs',
      )
      .optional()
      .transform(parseTrustProxy),
  ),
  ...metricsEnvFields,
});

export interface RateLimitConfig {
  /** Requests per window on every route: per session when signed in, else per client address. */
  max: number;
  /** Requests per window per client address on the code exchange route. */
  exchangeMax: number;
  /** Requests per window per client address on the refresh route (each new tab spends one). */
  refreshMax: number;
  windowMs: number;
}

/**
 * How long a client may take, so slow or stalled ones cannot hold connections open. Bodies are at
 * most 256 KiB of JSON: even a slow mobile link sends that well within `requestMs`.
 */
export interface HttpTimeouts {
  /** From the first byte of a request to the end of its headers; then 408 and the connection closes. */
  headersMs: number;
  /** From the first byte of a request to the end of its body; then 408 and the connection closes. */
  requestMs: number;
  /**
   * How long an idle keep-alive connection is kept between requests: longer than the 60 s idle
   * timeout of common proxies and load balancers, so none reuses a connection the API is closing.
   */
  keepAliveMs: number;
  /**
   * A connection with no traffic either way for this long is closed: a client that stops reading
   * its answer. Above the slowest handler (a few Discord calls of `discord.timeoutMs` each).
   */
  idleMs: number;
}

export interface ApiConfig {
  nodeEnv: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicApiUrl: string;
  dashboardUrl: string;
  databaseUrl: string;
  /**
   * DATABASE_READ_URL: a streaming replica of DATABASE_URL that takes the heavy reads (the
   * leaderboards, History, the exports); null: they go to the primary like everything else.
   */
  databaseReadUrl: string | null;
  redisUrl: string;
  /** Namespaces every Redis key: `${prefix}:...` for ours, `${prefix}:bull` for the queue. */
  redisPrefix: string;
  /** REDIS_CLUSTER_NODES: a Redis Cluster's seed nodes (REDIS_URL then gives only credentials and TLS); null: REDIS_URL's Redis. */
  redisClusterNodes: RedisClusterNode[] | null;
  /** SHARD_COUNT (1 when unset): how many job queues there are, one per shard. */
  shardCount: number;
  discord: {
    apiBase: string;
    oauthBase: string;
    clientId: string;
    clientSecret: string;
    botToken: string;
    /** DISCORD_PROXY_URL: where bot-token requests go (the shared rate limiters, tried in turn); null: straight to apiBase. */
    proxyBases: readonly string[] | null;
    /** Per-request timeout towards Discord. */
    timeoutMs: number;
  };
  sessionSecret: string;
  /** Lifetime of an API session token, in seconds. */
  sessionTtlSec: number;
  /**
   * A browser's sign-in (its refresh cookie): how long it lasts from signing in with Discord, and
   * how long a rotated refresh token stays accepted (two tabs refreshing at the same moment).
   */
  signIn: { ttlSec: number; refreshGraceSec: number };
  ownerUserId: string | null;
  /** The operator's BOT_PERMISSIONS: every invite asks for exactly these. Null: per server's features. */
  botPermissions: string | null;
  rateLimit: RateLimitConfig;
  /** Which forwarded addresses to believe, for the rate limiter and the logs. */
  trustProxy: TrustProxy;
  /**
   * `/metrics` (Prometheus) on its own listener, never on the public port; null port: off. With a
   * token, scrapes must send `Authorization: Bearer <token>`.
   */
  metrics: MetricsListenConfig;
  cacheTtlSec: { guilds: number; channels: number };
  /** How long a request waits on Redis before the API answers 503. */
  redisTimeoutMs: number;
  http: HttpTimeouts;
  logLevel: LogLevel;
  /** Things worth a log line at start (e.g. the dev session secret), not errors. */
  warnings: string[];
}

export type { MetricsListenConfig };

/** Reads and validates the API's environment; throws EnvError naming each bad variable. */
export function loadApiConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  // NODE_ENV=production: the refusals every process shares (contract's production-env.ts).
  const refusals = isProductionEnv(env)
    ? productionRefusals(env, { botToken: true, clientSecret: true, clientId: 'required' })
    : [];
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new EnvError(withRefusals(refusals, issues));
  }
  const e = parsed.data;
  const problems: string[] = [...refusals];
  const warnings: string[] = [];

  // Against a local sandbox the sandbox's fixed credentials are the sensible defaults.
  const sandbox = isLocalDiscord(e.DISCORD_API_BASE);
  const credential = (name: string, value: string | undefined, sandboxValue: string): string => {
    if (value !== undefined) return value;
    if (sandbox) return sandboxValue;
    if (!problems.some((p) => p.startsWith(`${name}:`))) {
      problems.push(`${name}: required when DISCORD_API_BASE is not a local sandbox`);
    }
    return '';
  };
  const clientId = credential('DISCORD_CLIENT_ID', e.DISCORD_CLIENT_ID, SANDBOX_CREDENTIALS.clientId);
  const clientSecret = credential(
    'DISCORD_CLIENT_SECRET',
    e.DISCORD_CLIENT_SECRET,
    SANDBOX_CREDENTIALS.clientSecret,
  );
  const botToken = credential('DISCORD_BOT_TOKEN', e.DISCORD_BOT_TOKEN, SANDBOX_CREDENTIALS.botToken);

  let sessionSecret = e.SESSION_SECRET;
  if (sessionSecret === undefined) {
    // In production the refusals above already name it.
    if (e.NODE_ENV !== 'production')
      warnings.push(
        'SESSION_SECRET is not set: using a fixed development secret. Never do this in production.',
      );
    sessionSecret = DEV_SESSION_SECRET;
  }
  if (problems.length > 0) throw new EnvError(problems);
  if (e.DISCORD_PROXY_URL === undefined) warnings.push(NO_DISCORD_PROXY_WARNING);

  return {
    nodeEnv: e.NODE_ENV,
    host: e.API_HOST,
    port: e.API_PORT,
    publicApiUrl: e.PUBLIC_API_URL,
    dashboardUrl: e.DASHBOARD_URL,
    databaseUrl: e.DATABASE_URL,
    databaseReadUrl: e.DATABASE_READ_URL ?? null,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    redisClusterNodes: e.REDIS_CLUSTER_NODES,
    shardCount: e.SHARD_COUNT ?? 1,
    discord: {
      apiBase: e.DISCORD_API_BASE,
      oauthBase: e.DISCORD_OAUTH_BASE,
      clientId,
      clientSecret,
      botToken,
      proxyBases: e.DISCORD_PROXY_URL ?? null,
      timeoutMs: 10_000,
    },
    sessionSecret,
    sessionTtlSec: 3600,
    signIn: { ttlSec: 30 * 86_400, refreshGraceSec: 60 },
    ownerUserId: e.OWNER_USER_ID ?? null,
    botPermissions: e.BOT_PERMISSIONS ?? null,
    rateLimit: { max: e.RATE_LIMIT_MAX, exchangeMax: 10, refreshMax: 30, windowMs: e.RATE_LIMIT_WINDOW_MS },
    trustProxy: e.TRUST_PROXY,
    metrics: metricsListenConfig(e),
    cacheTtlSec: { guilds: 60, channels: 30 },
    redisTimeoutMs: 2_000,
    http: { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 72_000, idleMs: 60_000 },
    logLevel: e.LOG_LEVEL,
    warnings,
  };
}
