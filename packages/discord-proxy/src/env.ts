import { hostname } from 'node:os';
import {
  discordApiBaseField,
  discordProxyAdvertiseUrlField,
  EnvError,
  LOG_LEVELS,
  type LogLevel,
  type MetricsListenConfig,
  metricsEnvFields,
  metricsListenConfig,
  optionalString,
  portNumber,
  positiveInt,
  type RedisClusterNode,
  redisClusterNodesField,
} from '@spacecadet/contract';
import { z } from 'zod';
import { DEFAULT_LEASE_TTL_MS } from './lease.ts';
import { DEFAULT_INVALID_REQUEST_BUDGET } from './proxy.ts';

/** The proxy's one env reader: everything comes from the environment. */
const EnvSchema = z.object({
  DISCORD_API_BASE: discordApiBaseField,
  DISCORD_PROXY_HOST: optionalString.pipe(z.string().default('127.0.0.1')),
  DISCORD_PROXY_PORT: optionalString.pipe(portNumber.default(4200)),
  /** Discord bans the IP at 10,000 invalid answers in 10 minutes; the proxy stops here. */
  DISCORD_INVALID_REQUEST_BUDGET: positiveInt(DEFAULT_INVALID_REQUEST_BUDGET).refine(
    (n) => n <= 10_000,
    'must be at most 10000 (Discord bans the IP at 10,000 invalid requests in 10 minutes)',
  ),
  /** The bot's global limit, requests a second (50 unless Discord raised it for the bot). */
  DISCORD_GLOBAL_REQUESTS_PER_SECOND: positiveInt(50),
  LOG_LEVEL: optionalString.pipe(z.enum(LOG_LEVELS).default('info')),
  /** Set: several proxies share the token, one active at a time (the lease in this Redis). */
  REDIS_URL: optionalString.pipe(z.url({ protocol: /^rediss?$/ }).optional()),
  REDIS_PREFIX: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
      .default('spacecadet'),
  ),
  /** With REDIS_URL: the lease lives in this Redis Cluster (REDIS_URL then gives credentials and TLS). */
  REDIS_CLUSTER_NODES: redisClusterNodesField,
  DISCORD_PROXY_ADVERTISE_URL: discordProxyAdvertiseUrlField,
  /** A dead active proxy is replaced within this plus a third of it; at most 3 s keeps that under 5 s. */
  DISCORD_PROXY_LEASE_TTL_MS: positiveInt(DEFAULT_LEASE_TTL_MS).refine(
    (n) => n >= 300 && n <= 3_000,
    'must be between 300 and 3000 (a dead active proxy is replaced within 4/3 of it)',
  ),
  ...metricsEnvFields,
});

export interface ProxyConfig {
  upstream: string;
  host: string;
  port: number;
  invalidRequestBudget: number;
  globalRequestsPerSecond: number;
  logLevel: LogLevel;
  metrics: MetricsListenConfig;
  /** Null: a single proxy, always active. */
  lease: {
    redisUrl: string;
    redisClusterNodes: RedisClusterNode[] | null;
    redisPrefix: string;
    advertiseUrl: string;
    ttlMs: number;
  } | null;
}

export function loadProxyConfig(env: NodeJS.ProcessEnv = process.env): ProxyConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new EnvError(problems, 'Discord proxy environment');
  }
  const values = parsed.data;
  return {
    upstream: values.DISCORD_API_BASE,
    host: values.DISCORD_PROXY_HOST,
    port: values.DISCORD_PROXY_PORT,
    invalidRequestBudget: values.DISCORD_INVALID_REQUEST_BUDGET,
    globalRequestsPerSecond: values.DISCORD_GLOBAL_REQUESTS_PER_SECOND,
    logLevel: values.LOG_LEVEL,
    metrics: metricsListenConfig(values),
    lease:
      values.REDIS_URL === undefined
        ? null
        : {
            redisUrl: values.REDIS_URL,
            redisClusterNodes: values.REDIS_CLUSTER_NODES,
            redisPrefix: values.REDIS_PREFIX,
            // Behind a wildcard listener the host name is what the others can reach.
            advertiseUrl:
              values.DISCORD_PROXY_ADVERTISE_URL ??
              `http://${['0.0.0.0', '::'].includes(values.DISCORD_PROXY_HOST) ? hostname() : values.DISCORD_PROXY_HOST}:${values.DISCORD_PROXY_PORT}/api`,
            ttlMs: values.DISCORD_PROXY_LEASE_TTL_MS,
          },
  };
}
