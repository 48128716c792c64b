/**
 * Lighthouse performance and accessibility of `/`, `/dashboard` (signed out: the Sign in
 * required state) and a server's public leaderboard `/leaderboard/{id}` (visible to anyone, 40
 * ranked members, answered by the real API over the sandbox), served by the dashboard's own
 * production server from a fresh build,
 * audited with the system Chromium, with Lighthouse's mobile (default) and desktop settings.
 * Scores are Lighthouse's own 0-100 scale. Main-thread time (TBT) still follows how busy this
 * shared machine is, so each page runs BENCH_LIGHTHOUSE_RUNS times (default 3) and the run with
 * the median performance score is shown with the range.
 */
import { existsSync } from 'node:fs';
import { startDashboardServer } from '@spacecadet/dashboard/server';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { CHROMIUM_FLAGS, freePort } from '@spacecadet/testing';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { loadBenchEnv } from '../env.ts';
import { buildDashboard, printTable, reportHeadline, SKIPPED_EXIT_CODE } from './lib.ts';
import { type Stack, startStack } from './stack.ts';

const LEADERBOARD_PAGE = `/leaderboard/${SANDBOX_IDS.guilds.station}`;
const PAGES = ['/', '/dashboard', LEADERBOARD_PAGE] as const;
const RANKED_MEMBERS = 40;

/** The public leaderboard's data: visible to anyone, with members imported as an admin would. */
async function seedPublicLeaderboard(stack: Stack): Promise<void> {
  const guild = SANDBOX_IDS.guilds.station;
  const auth = await stack.signIn(SANDBOX_IDS.users.ada);
  await stack.api('PUT', `/api/guilds/${guild}/leveling`, auth, { leaderboard_visibility: 'anyone' });
  const rows = Array.from(
    { length: RANKED_MEMBERS },
    (_, i) => `9000000000000${String(i + 1).padStart(5, '0')},${(RANKED_MEMBERS - i) * 137},cadet-${i + 1}`,
  );
  const response = await fetch(`${stack.apiUrl}/api/guilds/${guild}/leveling/import?mode=replace`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'text/csv' },
    body: ['user_id,xp,username', ...rows].join('\n'),
  });
  if (!response.ok) throw new Error(`XP import answered ${response.status}: ${await response.text()}`);
}
const BENCH = loadBenchEnv();
const RUNS = BENCH.lighthouseRuns;

function chromePath(): string | null {
  const candidates = [...BENCH.chromePaths, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((path) => existsSync(path)) ?? null;
}

function skip(reason: string): never {
  console.log(`  lighthouse not run: ${reason}`);
  reportHeadline('lighthouse', `not run: ${reason}`);
  process.exit(SKIPPED_EXIT_CODE);
}

async function main(): Promise<void> {
  const path = chromePath();
  if (!path) skip('no Chromium found (set CHROME_PATH or install chromium: apt-get install -y chromium)');

  const dashboard = await buildDashboard();
  const port = await freePort();
  // The public leaderboard calls the API (the landing and signed-out dashboard pages do not).
  const stack = await startStack({ withWorker: true, dashboardUrl: `http://127.0.0.1:${port}` });
  await seedPublicLeaderboard(stack);
  const server = await startDashboardServer({
    port,
    host: '127.0.0.1',
    distDir: dashboard.distDir,
    config: {
      apiUrl: stack.apiUrl,
      discordClientId: SANDBOX_IDS.app,
      discordOauthBase: stack.sandbox.oauthBase,
      // The sandbox draws the avatars and the server icon.
      cdnBase: stack.sandbox.cdnBase,
    },
  });
  let chrome: chromeLauncher.LaunchedChrome | null = null;
  // Stopped by run.ts's time limit: leave no Chromium, server or build behind.
  process.once('SIGTERM', () => {
    process.on('uncaughtException', () => {}).on('unhandledRejection', () => {});
    chrome?.kill();
    void Promise.allSettled([server.close(), dashboard.cleanup(), stack.close()]).finally(() =>
      process.exit(143),
    );
  });
  try {
    try {
      chrome = await chromeLauncher.launch({
        chromePath: path,
        chromeFlags: CHROMIUM_FLAGS,
        logLevel: 'silent',
      });
    } catch (error) {
      skip(`Chromium at ${path} did not start: ${error instanceof Error ? error.message : String(error)}`);
    }
    const rows: string[][] = [
      ['page', 'settings', 'performance', '(min-max)', 'accessibility', 'FCP', 'LCP', 'TBT', 'CLS'],
    ];
    const headline: string[] = [];
    const launched = chrome;
    const audit = async (page: string, config: typeof desktopConfig | undefined) => {
      const result = await lighthouse(
        `${server.url}${page}`,
        {
          port: launched.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
        },
        config,
      );
      if (!result) throw new Error(`Lighthouse returned nothing for ${page}`);
      const { categories, audits, runtimeError } = result.lhr;
      if (runtimeError)
        throw new Error(`Lighthouse on ${page}: ${runtimeError.code} ${runtimeError.message}`);
      const metric = (id: string) => audits[id]?.displayValue ?? 'n/a';
      return {
        perf: Math.round((categories.performance?.score ?? Number.NaN) * 100),
        a11y: Math.round((categories.accessibility?.score ?? Number.NaN) * 100),
        metrics: [
          'first-contentful-paint',
          'largest-contentful-paint',
          'total-blocking-time',
          'cumulative-layout-shift',
        ].map(metric),
      };
    };
    for (const page of PAGES) {
      for (const [settings, config] of [
        ['mobile', undefined],
        ['desktop', desktopConfig],
      ] as const) {
        // The run with the median performance score stands for the page, as Lighthouse advises.
        const runs = [];
        for (let run = 0; run < RUNS; run += 1) runs.push(await audit(page, config));
        runs.sort((a, b) => a.perf - b.perf);
        const median = runs[Math.floor(runs.length / 2)];
        if (!median) continue;
        const range = `${runs[0]?.perf}-${runs.at(-1)?.perf}`;
        rows.push([page, settings, String(median.perf), range, String(median.a11y), ...median.metrics]);
        headline.push(`${page} ${settings} perf ${median.perf} a11y ${median.a11y}`);
      }
    }
    printTable(rows);
    reportHeadline('lighthouse', headline.join('; '));
  } finally {
    await chrome?.kill();
    await server.close();
    await stack.close();
    await dashboard.cleanup();
  }
}

await main();
