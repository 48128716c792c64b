/**
 * The scripts' one env reader (`pnpm dev`, `pnpm bench`): the copies of this environment that
 * the services and benchmarks they start inherit, and the benchmarks' settings, validated once
 * so a bad value stops the run with a message naming the variable. Plain checks: the root
 * package has no schema library.
 */

import { EnvError } from '@spacecadet/contract';

/** This process's environment, copied: what a started service or benchmark inherits. */
export function inheritedEnv(): NodeJS.ProcessEnv {
  return { ...process.env };
}

/** Only what a child needs to find its tools, for children that must not see anything else. */
export function pathAndHome(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME };
}

/**
 * Local Postgres and Redis unless the environment says otherwise (no Testcontainers here). Set
 * on process.env itself because `@spacecadet/db/testing` reads them there.
 */
export function useLocalServices(): void {
  process.env.TEST_DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/postgres';
  process.env.TEST_REDIS_URL ||= 'redis://127.0.0.1:6379';
}

export interface BenchEnv {
  /** autocannon against the config read and bare Fastify: connections, seconds per round, rounds. */
  api: { connections: number; seconds: number; rounds: number };
  /** click-latency: seconds of clicks at each rate (10 and 100 a second), and warm-up clicks. */
  click: { seconds: number; warmup: number };
  memory: { smallGuilds: number; guilds: number; members: number; repeats: number };
  lighthouseRuns: number;
  /** CHROME_PATH, then CHROMIUM_PATH, where set. */
  chromePaths: string[];
  /** A dashboard build `run.ts` made once and hands to each benchmark. */
  dashboardDist?: string;
}

/** Blank counts as unset, as in the apps' env readers. */
function read(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function counter(env: NodeJS.ProcessEnv, problems: string[]) {
  return (name: string, fallback: number): number => {
    const raw = read(env, name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) {
      problems.push(`${name}: must be a whole number of at least 1, got "${raw}"`);
      return fallback;
    }
    return Number(raw);
  };
}

/** Reads and validates every BENCH_* setting; throws EnvError naming each bad one. */
export function loadBenchEnv(env: NodeJS.ProcessEnv = process.env): BenchEnv {
  const problems: string[] = [];
  const count = counter(env, problems);
  const config: BenchEnv = {
    api: {
      connections: count('BENCH_API_CONNECTIONS', 50),
      seconds: count('BENCH_API_SECONDS', 5),
      rounds: count('BENCH_API_ROUNDS', 3),
    },
    click: { seconds: count('BENCH_CLICK_SECONDS', 8), warmup: count('BENCH_CLICK_WARMUP', 20) },
    memory: {
      smallGuilds: count('BENCH_MEMORY_SMALL_GUILDS', 10),
      guilds: count('BENCH_MEMORY_GUILDS', 500),
      members: count('BENCH_MEMORY_MEMBERS', 100),
      repeats: count('BENCH_MEMORY_REPEATS', 3),
    },
    lighthouseRuns: count('BENCH_LIGHTHOUSE_RUNS', 3),
    chromePaths: [read(env, 'CHROME_PATH'), read(env, 'CHROMIUM_PATH')].filter(
      (path): path is string => path !== undefined,
    ),
  };
  const dashboardDist = read(env, 'BENCH_DASHBOARD_DIST');
  if (dashboardDist) config.dashboardDist = dashboardDist;
  if (problems.length > 0) throw new EnvError(problems);
  return config;
}

/** What worker-memory.ts hands its baseline discord.js child (see `--baseline-client`). */
export interface BaselineClientEnv {
  intents: number;
  apiBase: string;
  botToken: string;
}

export function loadBaselineClientEnv(env: NodeJS.ProcessEnv = process.env): BaselineClientEnv {
  const intents = read(env, 'BENCH_INTENTS');
  const apiBase = read(env, 'DISCORD_API_BASE');
  const botToken = read(env, 'DISCORD_BOT_TOKEN');
  const problems: string[] = [];
  if (intents === undefined || !/^\d+$/.test(intents)) problems.push('BENCH_INTENTS: must be a bit field');
  if (apiBase === undefined) problems.push('DISCORD_API_BASE: required');
  if (botToken === undefined) problems.push('DISCORD_BOT_TOKEN: required');
  if (intents === undefined || apiBase === undefined || botToken === undefined || problems.length > 0)
    throw new EnvError(problems);
  return { intents: Number(intents), apiBase, botToken };
}
