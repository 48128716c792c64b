/** The env that points an app process (the API, the worker) at a test's own stack. */

/** The dashboard origin a test's API is told about (its CORS origin and OAuth2 redirects). */
export const TEST_DASHBOARD_URL = 'http://127.0.0.1:5173';

/** Where a test's Discord lives: the sandbox (`startSandbox`) has both; OAuth2 only the API uses. */
export interface TestDiscord {
  apiBase: string;
  oauthBase?: string;
}

/**
 * The env that points an API or worker process at a test's database, Redis prefix and Discord
 * sandbox; each app reads the part it needs. Callers add or override what one process needs
 * besides (LOG_LEVEL, OWNER_USER_ID, the URLs it is served at).
 */
export function testStackEnv(
  database: { url: string },
  redis: { url: string; prefix: string },
  discord: TestDiscord,
): Record<string, string> {
  return {
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    DISCORD_API_BASE: discord.apiBase,
    ...(discord.oauthBase === undefined ? {} : { DISCORD_OAUTH_BASE: discord.oauthBase }),
    DASHBOARD_URL: TEST_DASHBOARD_URL,
    PUBLIC_API_URL: 'http://127.0.0.1:4000',
    SESSION_SECRET: 'test-session-secret-that-is-long-enough-1234',
    LOG_LEVEL: 'silent',
  };
}
