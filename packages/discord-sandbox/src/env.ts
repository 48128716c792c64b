/**
 * The standalone sandbox's one env reader (`src/main.ts`). Embedders pass options to
 * `startSandbox` instead. Plain checks: this package has no schema library.
 */

import { EnvError } from '@spacecadet/contract';

export interface SandboxEnv {
  port: number;
  host: string;
  publicUrl?: string;
  /** Discord's global limit on the bot token, requests a second; unset: not enforced. */
  globalRateLimit?: number;
  /** SANDBOX_ROUTE_RATE_LIMITS=1: enforce Discord's per-route buckets. */
  routeRateLimits?: boolean;
  /** `session_start_limit.max_concurrency`; unset: the fixture's, else 1. */
  maxConcurrency?: number;
}

/** Blank counts as unset, so `SANDBOX_PORT=` in a .env file means the default, not port 0. */
function read(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function isHttpUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * Reads and validates SANDBOX_PORT, SANDBOX_HOST, SANDBOX_PUBLIC_URL, SANDBOX_GLOBAL_RATE_LIMIT,
 * SANDBOX_ROUTE_RATE_LIMITS and SANDBOX_MAX_CONCURRENCY;
 * throws naming each bad one.
 */
export function loadSandboxEnv(env: NodeJS.ProcessEnv = process.env): SandboxEnv {
  const problems: string[] = [];

  const rawPort = read(env, 'SANDBOX_PORT');
  let port = 4100;
  if (rawPort !== undefined) {
    port = Number(rawPort);
    if (!/^\d{1,5}$/.test(rawPort) || port > 65535)
      problems.push(`SANDBOX_PORT: must be a port number (0-65535), got "${rawPort}"`);
  }

  const host = read(env, 'SANDBOX_HOST') ?? '127.0.0.1';

  const publicUrl = read(env, 'SANDBOX_PUBLIC_URL');
  if (publicUrl !== undefined && !isHttpUrl(publicUrl))
    problems.push(`SANDBOX_PUBLIC_URL: must be an http(s) URL, got "${publicUrl}"`);

  const rawLimit = read(env, 'SANDBOX_GLOBAL_RATE_LIMIT');
  let globalRateLimit: number | undefined;
  if (rawLimit !== undefined) {
    globalRateLimit = Number(rawLimit);
    if (!/^\d+$/.test(rawLimit) || globalRateLimit < 1)
      problems.push(
        `SANDBOX_GLOBAL_RATE_LIMIT: must be a whole number of requests a second (Discord's is 50), got "${rawLimit}"`,
      );
  }

  const rawRoutes = read(env, 'SANDBOX_ROUTE_RATE_LIMITS');
  let routeRateLimits: boolean | undefined;
  if (rawRoutes !== undefined) {
    if (rawRoutes === '1' || rawRoutes === 'true') routeRateLimits = true;
    else if (rawRoutes === '0' || rawRoutes === 'false') routeRateLimits = false;
    else problems.push(`SANDBOX_ROUTE_RATE_LIMITS: must be 1 or 0 (true or false), got "${rawRoutes}"`);
  }

  const rawConcurrency = read(env, 'SANDBOX_MAX_CONCURRENCY');
  let maxConcurrency: number | undefined;
  if (rawConcurrency !== undefined) {
    maxConcurrency = Number(rawConcurrency);
    if (!/^\d+$/.test(rawConcurrency) || maxConcurrency < 1)
      problems.push(
        `SANDBOX_MAX_CONCURRENCY: must be a whole number of at least 1 (IDENTIFY buckets per 5 seconds; most bots have 1), got "${rawConcurrency}"`,
      );
  }

  if (problems.length > 0) throw new EnvError(problems, 'Discord sandbox environment');
  return {
    port,
    host,
    ...(publicUrl ? { publicUrl } : {}),
    ...(globalRateLimit !== undefined ? { globalRateLimit } : {}),
    ...(routeRateLimits !== undefined ? { routeRateLimits } : {}),
    ...(maxConcurrency !== undefined ? { maxConcurrency } : {}),
  };
}
