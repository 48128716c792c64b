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
  /** xp: messages per throughput phase and rounds (smaller for quick iterations). */
  xp: { burst: number; rounds: number };
  /**
   * BENCH_CPU_PROF: a directory; benches that support it (api-read, xp, personality-refresh) write
   * V8 CPU profiles of their measured phases there; `tsx scripts/bench/cpu-profile.ts <file>` sums one up.
   */
  cpuProfDir?: string;
  /** scale: the sizes (guild counts, ascending) and each generated guild's members. */
  scale: { guilds: number[]; members: number };
  lighthouseRuns: number;
  /**
   * personality-refresh's configured guilds (1,000; fewer for a loaded machine, which cannot post
   * their 10 messages each within the setup's timeout; per-job costs do not depend on it).
   */
  refreshGuilds: number;
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

/** A comma-separated list of at least two ascending whole numbers (a benchmark's sizes). */
function counts(env: NodeJS.ProcessEnv, problems: string[], name: string, fallback: number[]): number[] {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const values = raw.split(',').map((part) => part.trim());
  const numbers = values.map(Number);
  const ascending = numbers.every((n, i) => i === 0 || n > (numbers[i - 1] ?? 0));
  if (values.length < 2 || !values.every((v) => /^\d+$/.test(v) && Number(v) >= 1) || !ascending) {
    problems.push(
      `${name}: must be two or more ascending whole numbers, comma-separated (e.g. 1000,10000), got "${raw}"`,
    );
    return fallback;
  }
  return numbers;
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
    xp: { burst: count('BENCH_XP_BURST', 90_000), rounds: count('BENCH_XP_ROUNDS', 3) },
    scale: {
      guilds: counts(env, problems, 'BENCH_SCALE_GUILDS', [1_000, 10_000, 50_000]),
      members: count('BENCH_SCALE_MEMBERS', 20),
    },
    lighthouseRuns: count('BENCH_LIGHTHOUSE_RUNS', 3),
    refreshGuilds: count('BENCH_REFRESH_GUILDS', 1_000),
    chromePaths: [read(env, 'CHROME_PATH'), read(env, 'CHROMIUM_PATH')].filter(
      (path): path is string => path !== undefined,
    ),
  };
  const dashboardDist = read(env, 'BENCH_DASHBOARD_DIST');
  if (dashboardDist) config.dashboardDist = dashboardDist;
  const cpuProfDir = read(env, 'BENCH_CPU_PROF');
  if (cpuProfDir) config.cpuProfDir = cpuProfDir;
  if (problems.length > 0) throw new EnvError(problems);
  return config;
}

/** What a benchmark hands its baseline discord.js child (`bench/baseline-client.ts`). */
export interface BaselineClientEnv {
  intents: number;
  apiBase: string;
  botToken: string;
  /** BENCH_SHARD_IDS (comma-separated) of BENCH_SHARD_COUNT; unset: the single shard. */
  shards?: { ids: number[]; count: number };
}

export function loadBaselineClientEnv(env: NodeJS.ProcessEnv = process.env): BaselineClientEnv {
  const intents = read(env, 'BENCH_INTENTS');
  const apiBase = read(env, 'DISCORD_API_BASE');
  const botToken = read(env, 'DISCORD_BOT_TOKEN');
  const problems: string[] = [];
  if (intents === undefined || !/^\d+$/.test(intents)) problems.push('BENCH_INTENTS: must be a bit field');
  if (apiBase === undefined) problems.push('DISCORD_API_BASE: required');
  if (botToken === undefined) problems.push('DISCORD_BOT_TOKEN: required');
  const shardIds = read(env, 'BENCH_SHARD_IDS');
  const shardCount = read(env, 'BENCH_SHARD_COUNT');
  let shards: BaselineClientEnv['shards'];
  if (shardIds !== undefined || shardCount !== undefined) {
    const ids = (shardIds ?? '').split(',').map((id) => Number(id.trim()));
    const count = Number(shardCount);
    if (!Number.isInteger(count) || count < 1)
      problems.push('BENCH_SHARD_COUNT: must be a whole number of at least 1');
    else if (ids.some((id) => !Number.isInteger(id) || id < 0 || id >= count))
      problems.push(`BENCH_SHARD_IDS: must be shard numbers below BENCH_SHARD_COUNT ${count}, e.g. 0,1`);
    else shards = { ids, count };
  }
  if (intents === undefined || apiBase === undefined || botToken === undefined || problems.length > 0)
    throw new EnvError(problems);
  return { intents: Number(intents), apiBase, botToken, ...(shards ? { shards } : {}) };
}
