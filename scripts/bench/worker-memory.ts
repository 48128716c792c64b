/**
 * The worker keeps only the caches the product needs, so its memory stays flat as
 * guilds grow. The real worker (`apps/worker/src/main.ts`, its own process) connects to a
 * sandbox holding few guilds, then many; a plain discord.js Client with the library's default
 * caches, the same intents and the same sandbox world is the baseline, measured in the same run.
 *
 * Each client runs as a child process against a fresh sandbox (and, for the worker, a fresh
 * database and Redis prefix). Once it holds every guild and has seen a few messages per guild,
 * the benchmark forces a full GC in the child (through a small `--import` hook this script
 * injects; the product has none) and takes the median of several samples of its RSS (from
 * /proc) and heap; each client runs REPEATS times and the median run counts. The number that
 * matters is the growth per guild between the two sizes: fixed costs (the worker also loads
 * BullMQ, pg, pino...) cancel out.
 *
 * The baseline child is `baseline-client.ts`.
 */
import { join } from 'node:path';
import type { TestDatabase, TestRedis } from '@spacecadet/db/testing';
import type { Sandbox } from '@spacecadet/discord-sandbox';
import { loadBenchEnv, pathAndHome, useLocalServices } from '../env.ts';
import {
  type GeneratedGuild,
  generateWorld,
  kib,
  type Measured,
  MeasuredChild,
  median,
  printTable,
  ratio,
  repoRoot,
  reportHeadline,
  runBounded,
} from './lib.ts';

const BENCH = loadBenchEnv().memory;
const SMALL = BENCH.smallGuilds;
const LARGE = BENCH.guilds;
const CHANNELS = 20;
const ROLES = 30;
const MEMBERS = BENCH.members;
const MESSAGES = 3;
const SAMPLES = 3;
const REPEATS = BENCH.repeats;
const SAMPLE_GAP_MS = 300;
const SETTLE_MS = 1_500;
const READY_TIMEOUT_MS = 90_000;

const stopList = new Set<() => Promise<unknown>>();

async function postMessages(sandbox: Sandbox, guilds: readonly GeneratedGuild[]) {
  const posts = guilds.flatMap((guild) =>
    guild.memberIds.slice(0, MESSAGES).map((author) => ({ ...guild, author })),
  );
  await runBounded(posts.length, 8, async (i) => {
    const post = posts[i];
    if (!post) return;
    const response = await fetch(`${sandbox.url}/_sandbox/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        guild_id: post.guildId,
        channel_id: post.channelId,
        author_id: post.author,
        content: `status report ${i} from the bench`,
      }),
    });
    await response.text();
    if (!response.ok) throw new Error(`post message -> ${response.status}`);
  });
}

/** Runs one client kind against a fresh sandbox of `guilds` guilds; returns its memory and intents. */
async function measureClient(
  kind: 'worker' | 'baseline',
  guilds: number,
  intents: number,
): Promise<Measured & { intents: number }> {
  const sandboxModule = await import('@spacecadet/discord-sandbox');
  const { createTestDatabase, testRedis } = await import('@spacecadet/db/testing');
  const { testStackEnv } = await import('@spacecadet/testing');
  const { fixture, guilds: generated } = generateWorld(
    { guilds, channels: CHANNELS, roles: ROLES, members: MEMBERS },
    sandboxModule,
  );
  const sandbox = await sandboxModule.startSandbox({ port: 0, fixture });
  let database: TestDatabase | null = null;
  let redis: TestRedis | null = null;
  let child: MeasuredChild | null = null;
  const cleanup = async () => {
    await child?.stop();
    await Promise.allSettled([sandbox.close(), redis?.close(), database?.close()]);
  };
  stopList.add(cleanup);
  try {
    const env: NodeJS.ProcessEnv = {
      ...pathAndHome(),
      // Not NODE_ENV=production: with it the worker refuses the sandbox's published bot token
      // (contract's production-env.ts); it changes nothing else in the worker.
      DISCORD_API_BASE: sandbox.apiBase,
      DISCORD_BOT_TOKEN: sandboxModule.SANDBOX_BOT_TOKEN,
    };
    let ready: Promise<number>;
    if (kind === 'worker') {
      [database, redis] = await Promise.all([createTestDatabase('bench_memory'), testRedis()]);
      let resolveReady: (guilds: number) => void = () => {};
      ready = new Promise((resolve) => (resolveReady = resolve));
      child = MeasuredChild.worker(
        { ...testStackEnv(database, redis, sandbox), ...env, LOG_LEVEL: 'info' },
        (line) => {
          // The worker's own log: bot_guilds is synced after READY and every GUILD_CREATE.
          if (!line.includes('bot_guilds synced for shard')) return;
          try {
            resolveReady((JSON.parse(line) as { guilds: number }).guilds);
          } catch {}
        },
      );
      const exited = child.exited.then(() => {
        throw new Error('the worker exited before it was ready');
      });
      ready = Promise.race([ready, exited]);
    } else {
      child = MeasuredChild.start(join(import.meta.dirname, 'baseline-client.ts'), [], repoRoot, {
        ...env,
        BENCH_INTENTS: String(intents),
      });
      ready = child.next('ready', READY_TIMEOUT_MS).then((message) => message.guilds ?? 0);
    }
    const seen = await Promise.race([
      ready,
      new Promise<never>((_, reject) =>
        // Unref'd: once the child is ready, this timer must not keep the benchmark alive.
        setTimeout(
          () => reject(new Error(`${kind} not ready within ${READY_TIMEOUT_MS} ms`)),
          READY_TIMEOUT_MS,
        ).unref(),
      ),
    ]);
    if (seen !== guilds) throw new Error(`${kind} holds ${seen} guilds, expected ${guilds}`);
    const session = (await (await fetch(`${sandbox.url}/_sandbox/presence`)).json()) as {
      sessions: Array<{ intents: number; connected: boolean }>;
    };
    const sessionIntents = session.sessions.find((s) => s.connected)?.intents ?? Number.NaN;
    await postMessages(sandbox, generated);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const measured = await child.measure(SAMPLES, SAMPLE_GAP_MS);
    return { ...measured, intents: sessionIntents };
  } finally {
    stopList.delete(cleanup);
    await cleanup();
  }
}

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const growthKib = (bytes: number): string => `${bytes >= 0 ? '+' : ''}${kib(bytes)}`;

async function main(): Promise<void> {
  useLocalServices();
  const onSignal = (signal: NodeJS.Signals) => {
    void Promise.allSettled([...stopList].map((stop) => stop())).finally(() =>
      process.exit(signal === 'SIGINT' ? 130 : 143),
    );
  };
  process.once('SIGTERM', onSignal).once('SIGINT', onSignal);
  console.log(
    `worker-memory: ${SMALL} and ${LARGE} guilds, each ${CHANNELS} channels, ${ROLES} roles, ${MEMBERS} members, ${MESSAGES} messages; median of ${REPEATS} runs of ${SAMPLES} samples each after a forced GC`,
  );
  const results: Array<{ guilds: number; worker: Measured; baseline: Measured }> = [];
  let intentsDiffer = false;
  let intents = 0;
  for (const guilds of [SMALL, LARGE]) {
    const started = Date.now();
    const runs: Record<'worker' | 'baseline', Measured[]> = { worker: [], baseline: [] };
    // Fresh processes each time: RSS differs by several MiB from one process to the next.
    for (let run = 0; run < REPEATS; run += 1) {
      const worker = await measureClient('worker', guilds, 0);
      const baseline = await measureClient('baseline', guilds, worker.intents);
      if (baseline.intents !== worker.intents) intentsDiffer = true;
      intents = worker.intents;
      runs.worker.push(worker);
      runs.baseline.push(baseline);
    }
    const combine = (measured: Measured[]): Measured => ({
      rss: median(measured.map((m) => m.rss)),
      heap: median(measured.map((m) => m.heap)),
    });
    results.push({ guilds, worker: combine(runs.worker), baseline: combine(runs.baseline) });
    const list = (measured: Measured[]) => measured.map((m) => (m.rss / 1024 / 1024).toFixed(1)).join(', ');
    console.log(
      `  ${guilds} guilds: ${Math.round((Date.now() - started) / 1000)} s; RSS MiB per run: worker ${list(runs.worker)}, baseline ${list(runs.baseline)}`,
    );
  }
  const [small, large] = results;
  if (!small || !large) throw new Error('missing a measurement');
  const span = large.guilds - small.guilds;
  const growth = (pick: (r: (typeof results)[number]) => number) => (pick(large) - pick(small)) / span;
  const perGuild = {
    workerRss: growth((r) => r.worker.rss),
    baselineRss: growth((r) => r.baseline.rss),
    workerHeap: growth((r) => r.worker.heap),
    baselineHeap: growth((r) => r.baseline.heap),
  };
  printTable([
    ['guilds', 'worker RSS', 'baseline RSS', 'RSS ratio', 'worker heap', 'baseline heap', 'heap ratio'],
    ...results.map((r) => [
      String(r.guilds),
      mib(r.worker.rss),
      mib(r.baseline.rss),
      ratio(r.worker.rss, r.baseline.rss),
      mib(r.worker.heap),
      mib(r.baseline.heap),
      ratio(r.worker.heap, r.baseline.heap),
    ]),
    [
      `per guild (${small.guilds}->${large.guilds})`,
      kib(perGuild.workerRss),
      kib(perGuild.baselineRss),
      ratio(perGuild.workerRss, perGuild.baselineRss),
      kib(perGuild.workerHeap),
      kib(perGuild.baselineHeap),
      ratio(perGuild.workerHeap, perGuild.baselineHeap),
    ],
  ]);
  console.log(
    `  baseline: a plain discord.js Client with default caches and the worker's intents (${intents})`,
  );
  if (intentsDiffer) console.log('  the baseline identified with other intents than the worker');
  reportHeadline(
    'worker-memory',
    `${large.guilds} guilds: worker RSS ${mib(large.worker.rss)} vs discord.js defaults ${mib(large.baseline.rss)} (${ratio(large.worker.rss, large.baseline.rss)}); per guild RSS ${growthKib(perGuild.workerRss)} vs ${growthKib(perGuild.baselineRss)} (${ratio(perGuild.workerRss, perGuild.baselineRss)}), heap ${growthKib(perGuild.workerHeap)} vs ${growthKib(perGuild.baselineHeap)} (${ratio(perGuild.workerHeap, perGuild.baselineHeap)})`,
  );
  if (intentsDiffer) process.exitCode = 1;
}

await main();
