/**
 * How the product grows with the number of servers: one run, a generated world of SIZES guilds
 * (BENCH_SCALE_GUILDS, default 1,000, 10,000 then 50,000; each CHANNELS channels, ROLES roles, MEMBERS
 * members), served by a sandbox in a child process, and four real worker processes
 * (`apps/worker/src/main.ts`, SHARD_COUNT 4, SHARD_IDS 0 to 3) sharing its shards. At each size:
 *
 * - start-up (a restart: the configured guilds' schedulers exist, next due after the run): from
 *   spawning the workers to each logging their shard's `bot_guilds synced` with all its guilds;
 *   the REST calls the sandbox answered meanwhile (its request counter) and after it until the
 *   queue has drained and the sandbox has been quiet for QUIET_MS, per guild; the bytes under the
 *   run's Redis prefix then (MEMORY USAGE of each key), per guild;
 * - memory: the workers' heap (and RSS) after a forced full GC (the GC hook `MeasuredChild`
 *   injects), per guild;
 * - personality refresh: JOBS `personality-roles.refresh` jobs for configured guilds (every guild
 *   is configured: its 5-minute schedulers exist) against the same job for a guild with nothing
 *   set up (it reads the setup and returns: the no-op), enqueued on the shared queue while paused
 *   and drained by all the workers; jobs per second, and the REST calls per job;
 * - XP: BURST chat messages spread over every guild (message k in guild k % size, from one of
 *   its members in turn; cooldown off, so each earns XP) from the first emitted to the last one's
 *   XP in Postgres (sum of member_xp.message_count), against four bare discord.js processes (the
 *   same shards, `baseline-client.ts`) counting the same messages, before the workers start;
 *   and the member_xp rows the flushers wrote per second (rows whose last_message_at falls in
 *   the phase; the same number of member_daily_xp rows go with them).
 *
 * Then how each figure grows from the first size to the last: a ratio near 1 for a per-guild
 * figure (or a rate) is linear; a start-up time growing faster than the guilds is not.
 *
 * Every guild has leveling on (10 XP a message, cooldown off) and personality roles configured
 * (Initialize done, not posted: no question messages to keep, so the refresh checks roles; the
 * first ENABLED_QUESTIONS questions enabled, their options' roles among the generated ones).
 *
 * The sandbox child is `scale/sandbox.ts`, one size's run `scale/size.ts`.
 */
import { useLocalServices } from '../env.ts';
import { kib, printTable, ratio, reportHeadline } from './lib.ts';
import {
  BURST,
  CHANNELS,
  JOBS,
  MEMBERS,
  mib,
  REFRESH_ROUNDS,
  ROLES,
  SHARDS,
  SIZES,
  seconds,
  XP_ROUNDS,
} from './scale/config.ts';
import { runSize, type SizeResult } from './scale/size.ts';

async function main(): Promise<void> {
  useLocalServices();
  const started = Date.now();
  console.log(
    `scale: ${SIZES.join(', ')} guilds (each ${CHANNELS} channels, ${ROLES} roles, ${MEMBERS} members; leveling on, personality roles configured), ${SHARDS} worker processes sharing ${SHARDS} shards; XP ${XP_ROUNDS} x ${BURST} messages, refresh ${REFRESH_ROUNDS} rounds of up to ${JOBS} jobs`,
  );
  const results: SizeResult[] = [];
  for (const size of SIZES) {
    const since = Date.now();
    results.push(await runSize(size));
    console.log(`  ${size} guilds measured in ${seconds(Date.now() - since)}`);
  }
  const perSecond = (n: number) => `${n.toFixed(0)}/s`;
  const rows: Array<[string, (r: SizeResult) => number, (n: number, r: SizeResult) => string, string]> = [
    ['workers ready (every guild available)', (r) => r.workerReadyMs, (n) => seconds(n), 'time'],
    ['  bare discord.js ready', (r) => r.baselineReadyMs, (n) => seconds(n), 'time'],
    ['REST before ready, per guild', (r) => r.restBeforeReady / r.guilds, (n) => n.toFixed(3), 'flat'],
    [
      'REST after ready until quiet, per guild',
      (r) => r.restAfterReady / r.guilds,
      (n) => n.toFixed(3),
      'flat',
    ],
    ['  settled after ready', (r) => r.settleMs, (n) => seconds(n), 'time'],
    ['worker heap, all processes', (r) => r.worker.heap, (n) => mib(n), 'total'],
    ['worker heap / guilds', (r) => r.worker.heap / r.guilds, (n) => kib(n), 'flat'],
    ['worker RSS / guilds', (r) => r.worker.rss / r.guilds, (n) => kib(n), 'flat'],
    ['  bare discord.js heap / guilds', (r) => r.baselineHeap / r.guilds, (n) => kib(n), 'flat'],
    [
      'Redis bytes per guild after start-up',
      (r) => r.redis.bytes / r.guilds,
      (n) => `${n.toFixed(0)} B`,
      'flat',
    ],
    ['XP: workers, message -> Postgres', (r) => r.workerXp, perSecond, 'rate'],
    ['  bare discord.js, counts', (r) => r.baselineXp, perSecond, 'rate'],
    ['  workers / bare discord.js', (r) => r.workerXp / r.baselineXp, (n) => `${n.toFixed(2)}x`, 'rate'],
    ['Postgres member_xp rows written', (r) => r.xpRows, perSecond, 'rate'],
    ['personality refresh, configured guilds', (r) => r.refresh, perSecond, 'rate'],
    ['  no-op (nothing set up)', (r) => r.noop, perSecond, 'rate'],
    ['  refresh / no-op', (r) => r.refresh / r.noop, (n) => `${n.toFixed(2)}x`, 'rate'],
    ['  REST per refresh', (r) => r.refreshReads, (n) => n.toFixed(2), 'flat'],
    ['scheduler check rows, full syncs at start', (r) => r.schedulerFullRows, (n) => n.toFixed(0), 'total'],
    [
      'scheduler check rows read per minute per process',
      (r) => r.schedulerMinuteRows,
      (n) => (Number.isNaN(n) ? 'none ran' : n.toFixed(0)),
      'flat',
    ],
  ];
  const first = results[0] as SizeResult;
  const last = results.at(-1) as SizeResult;
  const growth = last.guilds / first.guilds;
  printTable([
    ['figure', ...results.map((r) => `${r.guilds} guilds`), `${first.guilds}->${last.guilds}`],
    ...rows.map(([label, pick, show]) => [
      label,
      ...results.map((r) => show(pick(r), r)),
      ratio(pick(last), pick(first)),
    ]),
  ]);
  // Fixed costs (BullMQ, pg, pino, the code itself) cancel out in the growth between sizes.
  const span = last.guilds - first.guilds;
  const heapGrowth = (last.worker.heap - first.worker.heap) / span;
  const baselineGrowth = (last.baselineHeap - first.baselineHeap) / span;
  console.log(
    `  heap growth per guild (${first.guilds}->${last.guilds}): workers ${kib(heapGrowth)}, bare discord.js ${kib(baselineGrowth)} (${ratio(heapGrowth, baselineGrowth)}); RSS ${kib((last.worker.rss - first.worker.rss) / span)}`,
  );
  console.log(
    `  guilds grew ${growth.toFixed(1)}x. Linear or better: a time or total grows <= ${growth.toFixed(1)}x, a per-guild figure or a rate stays near 1.00x; REST per guild should be 0 before ready.`,
  );
  for (const r of results) console.log(`  ${r.guilds} guilds, REST from start until quiet: ${r.restRoutes}`);
  const problems = results.flatMap((r) => r.problems.map((p) => `${r.guilds} guilds: ${p}`));
  for (const problem of problems) console.log(`  PROBLEM ${problem}`);
  console.log(`  ${seconds(Date.now() - started)} in all`);
  const readyGrowth = last.workerReadyMs / first.workerReadyMs;
  reportHeadline(
    'scale',
    `${first.guilds}->${last.guilds} guilds: ready ${seconds(first.workerReadyMs)}->${seconds(last.workerReadyMs)} (${readyGrowth.toFixed(1)}x), heap growth ${kib(heapGrowth)}/guild (${ratio(heapGrowth, baselineGrowth)} of bare discord.js), REST before ready/guild ${(first.restBeforeReady / first.guilds).toFixed(2)}->${(last.restBeforeReady / last.guilds).toFixed(2)}, XP ${first.workerXp.toFixed(0)}->${last.workerXp.toFixed(0)} msg/s (${ratio(last.workerXp, last.baselineXp)} of bare discord.js), refresh ${first.refresh.toFixed(0)}->${last.refresh.toFixed(0)} jobs/s (${ratio(last.refresh, last.noop)} of no-op)${problems.length ? `; ${problems.length} problems` : ''}`,
  );
  if (problems.length > 0) process.exitCode = 1;
}

await main();
