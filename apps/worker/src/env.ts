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
  optionalString,
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
 * The worker's one env reader. Everything the process needs is validated here at start, so a
 * bad value stops it with a message naming the variable instead of failing later mid-job.
 */

export type { LogLevel };

/** Bot token the sandbox accepts; only used when Discord is a local sandbox. */
const SANDBOX_BOT_TOKEN = SANDBOX_DISCORD_CREDENTIALS.botToken;

/** Discord's least time between two IDENTIFYs of one rate-limit bucket (`max_concurrency` per 5 s). */
export const DISCORD_IDENTIFY_INTERVAL_MS = 5000;

/** The smallest takeover time (JOB_LOCK_DURATION_MS) the worker accepts (renewals every quarter of it). */
export const MIN_TAKEOVER_MS = 1_000;

const EnvSchema = z.object({
  DATABASE_URL: optionalString.pipe(
    z.url({ protocol: /^postgres(ql)?$/ }).default('postgres://postgres@127.0.0.1:5432/spacecadet'),
  ),
  REDIS_URL: optionalString.pipe(z.url({ protocol: /^rediss?$/ }).default('redis://127.0.0.1:6379')),
  REDIS_CLUSTER_NODES: redisClusterNodesField,
  REDIS_PREFIX: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
      .default('spacecadet'),
  ),
  DISCORD_API_BASE: discordApiBaseField,
  /** Where avatars are fetched for rank cards; unset: Discord's CDN for Discord's API, else the sandbox's root. */
  DISCORD_CDN_BASE: optionalString.pipe(
    z
      .url({ protocol: /^https?$/ })
      .transform((url) => url.replace(/\/+$/, ''))
      .optional(),
  ),
  ...discordProxyEnvFields,
  DISCORD_BOT_TOKEN: optionalString,
  DISCORD_CLIENT_ID: optionalString.pipe(snowflake('must be a Discord id').optional()),
  /** A list of shard numbers, or `auto`: claim the first free shards (SHARDS_PER_PROCESS of them). */
  SHARD_IDS: optionalString.pipe(
    z
      .string()
      .regex(/^(auto|\d+(\s*,\s*\d+)*)$/, 'must be auto or a comma-separated list of shard numbers, e.g. 0,1')
      .transform((list): number[] | 'auto' =>
        list === 'auto' ? 'auto' : [...new Set(list.split(',').map((id) => Number(id.trim())))],
      )
      .optional(),
  ),
  /** With SHARD_IDS=auto: how many shards one process claims. */
  SHARDS_PER_PROCESS: positiveInt(1),
  /**
   * Least time between two gateway IDENTIFYs of one rate-limit bucket, across processes:
   * Discord's 5000. Lower only against a local sandbox told the same (tests).
   */
  IDENTIFY_INTERVAL_MS: positiveInt(DISCORD_IDENTIFY_INTERVAL_MS),
  SHARD_COUNT: shardCountField,
  LOG_LEVEL: optionalString.pipe(z.enum(LOG_LEVELS).default('info')),
  /** Jobs one worker process runs at the same time. */
  WORKER_CONCURRENCY: positiveInt(4),
  /**
   * How soon another process takes over the job of a process that died (e.g. killed): the
   * job's lock and the stalled checks are derived from it (jobs/takeover.ts).
   */
  ...metricsEnvFields,
  JOB_LOCK_DURATION_MS: positiveInt(30_000).refine(
    (ms) => ms >= MIN_TAKEOVER_MS,
    `must be at least ${MIN_TAKEOVER_MS}`,
  ),
  /**
   * How long the repair of a deleted role or message waits for the rest of a burst of deletes,
   * or `off`: deletes queue no repair (the 5-minute personality refresh still runs).
   */
  REPAIR_DELAY_MS: optionalString.pipe(
    z
      .union([z.literal('off'), z.string().regex(/^\d{1,6}$/, 'must be a number of milliseconds or off')])
      .default('1000')
      .transform((value) => (value === 'off' ? null : Number(value))),
  ),
  /**
   * How long a server's data is kept after the bot is removed from it (a re-add within it
   * restores everything), before the daily purge deletes it.
   */
  DATA_RETENTION_DAYS: positiveInt(30),
  /** Opens the Linked Roles tokens the API sealed (the same key as the API's); dev default outside production. */
  SESSION_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  /** Refreshes Linked Roles tokens at Discord's token endpoint; unset (not a sandbox): no pushes to linked members. */
  DISCORD_CLIENT_SECRET: optionalString,
});

export interface WorkerConfig {
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  /** REDIS_CLUSTER_NODES: a Redis Cluster's seed nodes (REDIS_URL then gives only credentials and TLS); null: REDIS_URL's Redis. */
  redisClusterNodes: RedisClusterNode[] | null;
  discordApiBase: string;
  /** Discord's CDN (avatars), or the sandbox's root when Discord is a local sandbox. */
  discordCdnBase: string;
  discordBotToken: string;
  /**
   * DISCORD_PROXY_URL: the shared rate limiter every bot request goes through, every proxy of
   * the set (tried in turn); null: this process's own limits.
   */
  discordProxyUrls: readonly string[] | null;
  /** From env, or null to take it from the READY application. */
  discordClientId: string | null;
  /**
   * Which shards this process runs; null lets discord.js run the single shard 0 of 1. `auto`:
   * the first free ones of 0..count-1 (`shardsPerProcess` of them), claimed in Redis at start.
   */
  shards: { ids: number[] | 'auto'; count: number } | null;
  /** SHARDS_PER_PROCESS: with `shards.ids` auto, how many shards this process claims. */
  shardsPerProcess: number;
  /** IDENTIFY_INTERVAL_MS: least time between two IDENTIFYs of one bucket, across processes. */
  identifyIntervalMs: number;
  logLevel: LogLevel;
  jobConcurrency: number;
  /** JOB_LOCK_DURATION_MS: the bound on taking over a dead process's job (see jobs/takeover.ts). */
  jobLockDurationMs: number;
  /** REPAIR_DELAY_MS: how long a repair after a delete waits for more deletes; null: no repairs on deletes. */
  repairDelayMs: number | null;
  /** DATA_RETENTION_DAYS: days a removed server's data is kept before the daily purge. */
  dataRetentionDays: number;
  metrics: MetricsListenConfig;
  /**
   * Linked Roles pushes: the key the linked members' tokens are sealed with (SESSION_SECRET, as
   * the API's) and the client secret their refresh needs; null without a client secret.
   */
  linkedRoles: { sessionSecret: string; clientSecret: string } | null;
}

/** Rules that involve more than one variable, reported together with the per-variable ones. */
const WorkerEnvSchema = EnvSchema.superRefine((values, ctx) => {
  if (values.DISCORD_BOT_TOKEN === undefined && !isLocalDiscord(values.DISCORD_API_BASE)) {
    ctx.addIssue({
      code: 'custom',
      path: ['DISCORD_BOT_TOKEN'],
      message: 'required when DISCORD_API_BASE is not a local sandbox',
    });
  }
  if (
    values.IDENTIFY_INTERVAL_MS < DISCORD_IDENTIFY_INTERVAL_MS &&
    !isLocalDiscord(values.DISCORD_API_BASE)
  ) {
    ctx.addIssue({
      code: 'custom',
      path: ['IDENTIFY_INTERVAL_MS'],
      message: `below Discord's ${DISCORD_IDENTIFY_INTERVAL_MS} only against a local sandbox (Discord would answer Invalid Session)`,
    });
  }
  const count = values.SHARD_COUNT;
  if (count === undefined) {
    if (values.SHARD_IDS !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['SHARD_COUNT'], message: 'required when SHARD_IDS is set' });
    }
    return;
  }
  if (count < 1) ctx.addIssue({ code: 'custom', path: ['SHARD_COUNT'], message: 'must be at least 1' });
  // Not a list when auto, or when SHARD_IDS itself failed (reported on its own).
  const ids = Array.isArray(values.SHARD_IDS) ? values.SHARD_IDS : [];
  const outOfRange = ids.filter((id) => id >= count);
  if (outOfRange.length > 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['SHARD_IDS'],
      message: `${outOfRange.join(', ')} not below SHARD_COUNT ${count}`,
    });
  }
});

/**
 * Discord's CDN for Discord's API; for any other API base (the sandbox, on this machine or at
 * `http://sandbox:4100/api` in compose) that server's root, where the sandbox serves CDN paths.
 */
function defaultCdnBase(apiBase: string): string {
  const host = new URL(apiBase).hostname;
  const discord = host === 'discord.com' || host.endsWith('.discord.com');
  return discord ? 'https://cdn.discordapp.com' : apiBase.replace(/\/api$/, '');
}

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  // NODE_ENV=production: the refusals every process shares; the worker uses the bot token, and
  // the client id only when set (else it takes it from READY).
  const refusals = isProductionEnv(env)
    ? productionRefusals(env, {
        botToken: true,
        clientId: 'optional',
        // Only Linked Roles pushes use it, so it may be unset; never the sandbox's.
        clientSecret: Boolean(env.DISCORD_CLIENT_SECRET?.trim()),
      })
    : [];
  const parsed = WorkerEnvSchema.safeParse(env);
  if (!parsed.success || refusals.length > 0) {
    const problems = parsed.success
      ? []
      : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new EnvError(withRefusals(refusals, problems), 'worker environment');
  }
  const values = parsed.data;
  const count = values.SHARD_COUNT;
  return {
    databaseUrl: values.DATABASE_URL,
    redisUrl: values.REDIS_URL,
    redisPrefix: values.REDIS_PREFIX,
    redisClusterNodes: values.REDIS_CLUSTER_NODES,
    discordApiBase: values.DISCORD_API_BASE,
    discordCdnBase: values.DISCORD_CDN_BASE ?? defaultCdnBase(values.DISCORD_API_BASE),
    discordBotToken: values.DISCORD_BOT_TOKEN ?? SANDBOX_BOT_TOKEN,
    discordProxyUrls: values.DISCORD_PROXY_URL ?? null,
    discordClientId: values.DISCORD_CLIENT_ID ?? null,
    shards:
      count === undefined
        ? null
        : { ids: values.SHARD_IDS ?? Array.from({ length: count }, (_, id) => id), count },
    shardsPerProcess: values.SHARDS_PER_PROCESS,
    identifyIntervalMs: values.IDENTIFY_INTERVAL_MS,
    logLevel: values.LOG_LEVEL,
    jobConcurrency: values.WORKER_CONCURRENCY,
    jobLockDurationMs: values.JOB_LOCK_DURATION_MS,
    repairDelayMs: values.REPAIR_DELAY_MS,
    dataRetentionDays: values.DATA_RETENTION_DAYS,
    metrics: metricsListenConfig(values),
    linkedRoles: linkedRolesConfig(values),
  };
}

function linkedRolesConfig(values: z.infer<typeof EnvSchema>): WorkerConfig['linkedRoles'] {
  const local = isLocalDiscord(values.DISCORD_API_BASE);
  const clientSecret =
    values.DISCORD_CLIENT_SECRET ?? (local ? SANDBOX_DISCORD_CREDENTIALS.clientSecret : null);
  if (clientSecret === null) return null;
  // In production SESSION_SECRET is required (the refusals name it), so the dev value is never used there.
  return { sessionSecret: values.SESSION_SECRET ?? DEV_SESSION_SECRET, clientSecret };
}
