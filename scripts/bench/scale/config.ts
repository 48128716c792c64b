/** `pnpm bench scale`'s world and limits, shared by its files (see `../scale.ts`). */
import type { JobName } from '@spacecadet/contract';
import { PERSONALITY_CATALOG } from '@spacecadet/core';
import { loadBenchEnv } from '../../env.ts';
import { snowflake } from '../lib.ts';

export const BENCH = loadBenchEnv().scale;
export const SIZES = BENCH.guilds;
export const MEMBERS = BENCH.members;
export const CHANNELS = 20;
export const ROLES = 30;
/** Worker processes, each holding one shard (SHARD_COUNT 4, SHARD_IDS 0..3), and as many bare clients. */
export const SHARDS = 4;
export const XP_PER_MESSAGE = 10;
/** Messages a phase emits, whatever the size, so rates compare. */
export const BURST = 30_000;
export const XP_ROUNDS = 1;
export const REFRESH_ROUNDS = 2;
/** Jobs a refresh phase runs (spread over the guilds), whatever the size. */
export const JOBS = 500;
/** When the configured guilds' existing schedulers next run: after the run. */
export const NEXT_SCHEDULED_RUN_MS = 60 * 60_000;
/** The catalog's first questions enabled in every guild: their options fit the generated roles. */
export const ENABLED_QUESTIONS = 3;
export const READY_TIMEOUT_MS = 600_000;
export const QUIET_MS = 3_000;
export const PHASE_TIMEOUT_MS = 300_000;
export const POLL_MS = 25;
export const SANDBOX_FLAG = '--sandbox';
export const REFRESH_JOB: JobName = 'personality-roles.refresh';
/** A guild id nobody configured (and the bot is not in): the refresh reads its setup and returns. */
export const unconfiguredGuildId = (i: number) => snowflake(7n, i);
export const ENABLED_TYPES = new Set(
  PERSONALITY_CATALOG.slice(0, ENABLED_QUESTIONS).map((q) => q.questionType),
);
export const ENABLED_OPTIONS = PERSONALITY_CATALOG.slice(0, ENABLED_QUESTIONS).reduce(
  (n, question) => n + question.options.length,
  0,
);
if (ENABLED_OPTIONS > ROLES - 2)
  throw new Error('the enabled questions have more options than generated roles');

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
export const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** Polls `read` until it reaches `target` or PHASE_TIMEOUT_MS pass; its last value. */
export async function polledUntil(read: () => Promise<number>, target: number): Promise<number> {
  const deadline = Date.now() + PHASE_TIMEOUT_MS;
  for (;;) {
    const value = await read();
    if (value >= target || Date.now() >= deadline) return value;
    await sleep(POLL_MS);
  }
}
