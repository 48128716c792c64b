/**
 * Small helpers the benchmarks share: percentiles, a bounded fixed-concurrency loop, compact
 * tables, the dashboard build, and the one result line `run.ts` collects into its report.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inheritedEnv, loadBenchEnv } from '../env.ts';

export const repoRoot = join(import.meta.dirname, '..', '..');

export interface Summary {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

/** Runs `task(0..count-1)` with at most `concurrency` in flight; stops starting new ones after `budgetMs`. */
export async function runBounded<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
  budgetMs = 120_000,
): Promise<T[]> {
  const results: T[] = [];
  const deadline = Date.now() + budgetMs;
  let next = 0;
  async function lane(): Promise<void> {
    while (next < count && Date.now() < deadline) {
      const index = next;
      next += 1;
      results.push(await task(index));
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
  return results;
}

/** Milliseconds since `start` (from performance.now()), to 0.01 ms. */
export const elapsedMs = (start: number): number => Math.round((performance.now() - start) * 100) / 100;

/** Polls until `check` gives a value, or throws at the deadline. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

export const ms = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : 'n/a');
export const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
export const ratio = (value: number, baseline: number): string =>
  baseline > 0 && Number.isFinite(value) ? `${(value / baseline).toFixed(2)}x` : 'n/a';

/** Prints rows as an aligned table; the first row is the header. */
/** A row of a latency table: the measure at a rate, its n, p50, p99, max, and p99 against the baseline's. */
export function latencyRow(label: string, rate: number, summary: Summary, base: Summary): string[] {
  return [
    `${label} @${rate}/s`,
    String(summary.n),
    ms(summary.p50),
    ms(summary.p99),
    ms(summary.max),
    ratio(summary.p99, base.p99),
  ];
}

export function printTable(rows: readonly (readonly string[])[]): void {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  }
  rows.forEach((row, r) => {
    console.log(
      `  ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ')}`,
    );
    if (r === 0) console.log(`  ${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  });
}

const RESULT_MARK = '@@bench-result ';

/** A benchmark that cannot run on this machine (e.g. no Chromium) exits with this; the run goes on. */
export const SKIPPED_EXIT_CODE = 3;

/** The one-line headline `run.ts` puts in its final report. */
export function reportHeadline(name: string, headline: string): void {
  console.log(`${RESULT_MARK}${JSON.stringify({ name, headline })}`);
}

export function parseHeadline(line: string): { name: string; headline: string } | null {
  if (!line.startsWith(RESULT_MARK)) return null;
  try {
    return JSON.parse(line.slice(RESULT_MARK.length)) as { name: string; headline: string };
  } catch {
    return null;
  }
}

/** Runs a command from the repo root; resolves with its output, rejects on a non-zero exit or timeout. */
export function runCommand(command: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: inheritedEnv(),
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else
        reject(new Error(`${command} ${args.join(' ')} exited ${signal ?? code}:\n${output.slice(-2000)}`));
    });
  });
}

export interface DashboardBuild {
  distDir: string;
  /** Removes the build unless it was handed in through BENCH_DASHBOARD_DIST. */
  cleanup(): Promise<void>;
}

/**
 * A production build of the dashboard in a temp directory (never the app's own dist, which
 * other tasks use). `run.ts` builds once and hands the directory to each benchmark.
 */
export async function buildDashboard(): Promise<DashboardBuild> {
  const given = loadBenchEnv().dashboardDist;
  if (given && existsSync(join(given, 'index.html'))) return { distDir: given, cleanup: async () => {} };
  const distDir = await mkdtemp(join(tmpdir(), 'spacecadet-bench-dashboard-'));
  try {
    await runCommand(
      'pnpm',
      [
        '--filter',
        '@spacecadet/dashboard',
        'build',
        '--outDir',
        distDir,
        '--emptyOutDir',
        '--logLevel',
        'warn',
      ],
      300_000,
    );
  } catch (error) {
    await rm(distDir, { recursive: true, force: true });
    throw error;
  }
  return { distDir, cleanup: () => rm(distDir, { recursive: true, force: true }) };
}

/**
 * `cleanup` made safe to call more than once, and run as well when the benchmark is stopped
 * from outside (run.ts's time limit, Ctrl-C), so its database and Redis keys are still dropped.
 */
export function closeOnStop(cleanup: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      process.off('SIGTERM', onSignal).off('SIGINT', onSignal);
      await cleanup();
    })();
    return closing;
  };
  function onSignal(signal: NodeJS.Signals): void {
    // Work still in flight now fails; that must not end the process before the cleanup does.
    process.on('uncaughtException', () => {}).on('unhandledRejection', () => {});
    void close().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  }
  process.once('SIGTERM', onSignal).once('SIGINT', onSignal);
  return close;
}

/** Prints how long a step took since `since` (Date.now()). */
export function logStep(what: string, since: number): void {
  console.log(`  ${what}: ${((Date.now() - since) / 1000).toFixed(1)} s`);
}

export interface BenchChild<Ready> {
  child: ChildProcess;
  /** The child's first IPC message. */
  ready: Ready;
  /** Rejects when the child exits (its stderr's end in the error). */
  died: Promise<never>;
  /** SIGTERM, then SIGKILL after 10 s. */
  stop(): Promise<void>;
}

/**
 * Runs `script` again as a child with `flag` (a benchmark's sandbox, off this process's event
 * loop) and waits for its first IPC message.
 */
export async function startBenchChild<Ready>(
  script: string,
  flag: string,
  env?: NodeJS.ProcessEnv,
): Promise<BenchChild<Ready>> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, flag], {
    cwd: repoRoot,
    ...(env ? { env } : {}),
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = once(child, 'exit');
  const died = exited.then((): never => {
    throw new Error(`the ${flag} child exited:\n${stderr}`);
  });
  died.catch(() => {});
  const [ready] = (await Promise.race([once(child, 'message'), died])) as [Ready];
  return {
    child,
    ready,
    died,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
