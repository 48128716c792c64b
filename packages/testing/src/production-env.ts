import { randomBytes } from 'node:crypto';

/**
 * An environment with NODE_ENV=production that every process's production refusals (contract's
 * production-env.ts) accept: a fresh random SESSION_SECRET (so no test publishes one), public
 * https URLs and Discord credentials that are not the sandbox's.
 */
export function productionTestEnv() {
  return {
    NODE_ENV: 'production',
    SESSION_SECRET: randomBytes(24).toString('hex'),
    PUBLIC_API_URL: 'https://api.example.org',
    DASHBOARD_URL: 'https://bot.example.org',
    DISCORD_CLIENT_ID: '123456789012345678',
    DISCORD_CLIENT_SECRET: 'a-real-looking-client-secret',
    DISCORD_BOT_TOKEN: 'a-real-looking-bot-token',
  };
}
