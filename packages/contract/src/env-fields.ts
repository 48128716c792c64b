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

/**
 * DISCORD_PROXY_URL: the shared Discord rate limiter (`@spacecadet/discord-proxy`), e.g.
 * `http://127.0.0.1:4200/api`. Unset: each process keeps its own limits, which only holds for
 * one process (Discord counts per bot token, not per process).
 */
export const discordProxyEnvFields = {
  DISCORD_PROXY_URL: optionalString.pipe(discordRestUrl('http://127.0.0.1:4200/api').optional()),
};

/** The start-up warning of a process that has no DISCORD_PROXY_URL. */
export const NO_DISCORD_PROXY_WARNING =
  "DISCORD_PROXY_URL is not set: this process keeps its own Discord rate limits. With more than one process (API, worker shards) set it to the shared @spacecadet/discord-proxy, or together they exceed the bot token's limits.";
