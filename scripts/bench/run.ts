/**
 * `pnpm bench [name...]`: runs each benchmark in its own process, one after the other, then
 * prints a short report. One benchmark failing never stops the others; the exit code says
 * whether all of them ran clean.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { EnvError } from '@spacecadet/contract';
import { inheritedEnv, loadBenchEnv, useLocalServices } from '../env.ts';
import { buildDashboard, type DashboardBuild, parseHeadline, repoRoot, SKIPPED_EXIT_CODE } from './lib.ts';

const BENCHMARKS = [
  'dashboard-size',
  'lighthouse',
  'click-latency',
  'reaction-roles',
  'role-menus',
  'api-read',
  'worker-memory',
  'personality-refresh',
  'xp',
  'voice',
  'rank-card',
  'joins',
  'scale',
] as const;
const NEEDS_DASHBOARD = new Set(['dashboard-size', 'lighthouse']);
const TIME_LIMIT_MS = 10 * 60_000;
/** Benchmarks that may take longer: scale starts three sizes of up to 50,000 guilds on 4 worker processes. */
const TIME_LIMITS: Partial<Record<(typeof BENCHMARKS)[number], number>> = { scale: 60 * 60_000 };

interface Outcome {
  name: string;
  status: 'ok' | 'failed' | 'skipped';
  seconds: number;
  headline: string;
}

function runBenchmark(name: string, env: NodeJS.ProcessEnv): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(repoRoot, 'scripts', 'bench', `${name}.ts`)],
      {
        cwd: repoRoot,
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let headline = '';
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const result = parseHeadline(line);
        if (result) headline = result.headline;
        else console.log(line);
      }
    });
    const limitMs = TIME_LIMITS[name as (typeof BENCHMARKS)[number]] ?? TIME_LIMIT_MS;
    const timer = setTimeout(() => {
      console.log(`  ${name}: over ${limitMs / 60_000} minutes, stopping it`);
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    }, limitMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (pending) console.log(pending);
      resolve({
        name,
        status: code === 0 ? 'ok' : code === SKIPPED_EXIT_CODE ? 'skipped' : 'failed',
        seconds: Math.round((Date.now() - started) / 1000),
        headline: headline || (code === 0 ? '' : `exited ${signal ?? code}`),
      });
    });
  });
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !(BENCHMARKS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    console.error(`unknown benchmark(s): ${unknown.join(', ')}; choose from ${BENCHMARKS.join(', ')}`);
    process.exit(2);
  }
  const selected = wanted.length > 0 ? BENCHMARKS.filter((name) => wanted.includes(name)) : [...BENCHMARKS];
  // Each benchmark reads these in its own process; a bad one should stop the run before any starts.
  try {
    loadBenchEnv();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
  useLocalServices();
  const env = inheritedEnv();
  const outcomes: Outcome[] = [];

  let dashboard: DashboardBuild | null = null;
  let dashboardError = '';
  if (selected.some((name) => NEEDS_DASHBOARD.has(name))) {
    console.log('building the dashboard once for the dashboard benchmarks...');
    try {
      dashboard = await buildDashboard();
      env.BENCH_DASHBOARD_DIST = dashboard.distDir;
    } catch (error) {
      dashboardError = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
      console.log(`  dashboard build failed: ${dashboardError}`);
    }
  }

  try {
    for (const name of selected) {
      console.log(`\n== ${name} ==`);
      if (NEEDS_DASHBOARD.has(name) && !dashboard) {
        outcomes.push({
          name,
          status: 'skipped',
          seconds: 0,
          headline: `dashboard build failed: ${dashboardError}`,
        });
        continue;
      }
      outcomes.push(await runBenchmark(name, env));
    }
  } finally {
    await dashboard?.cleanup();
  }

  console.log('\n== report ==');
  for (const outcome of outcomes) {
    console.log(
      `  ${outcome.name.padEnd(15)} ${outcome.status.padEnd(7)} ${String(outcome.seconds).padStart(4)} s  ${outcome.headline}`,
    );
  }
  if (outcomes.some((outcome) => outcome.status === 'failed')) process.exitCode = 1;
}

await main();
