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
 * `worker-memory.ts --baseline-client` is the baseline child itself.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TestDatabase, TestRedis } from '@spacecadet/db/testing';
import type { Sandbox, SandboxChannel, SandboxFixture, SandboxGuild } from '@spacecadet/discord-sandbox';
import type { RunningWorker } from '@spacecadet/worker';
import { loadBaselineClientEnv, loadBenchEnv, pathAndHome, useLocalServices } from '../env.ts';
import { kib, printTable, ratio, repoRoot, reportHeadline, runBounded } from './lib.ts';

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
const BASELINE_FLAG = '--baseline-client';

/** Injected into both children: on an IPC `gc` request, collect twice and answer with memoryUsage(). */
const GC_HOOK = `data:text/javascript,${encodeURIComponent(
  "if (process.send) process.on('message', (m) => { if (m && m.bench === 'gc') { globalThis.gc(); globalThis.gc(); process.send({ bench: 'memory', ...process.memoryUsage() }); } });",
)}`;

type DiscordClient = RunningWorker['client'];
interface DiscordModule {
  Client: new (options: { intents: number; rest: { api: string } }) => DiscordClient;
  Events: { ClientReady: 'clientReady' };
}

interface ChildMessage {
  bench?: string;
  guilds?: number;
  rss?: number;
  heapUsed?: number;
}

/** The baseline child: discord.js as it comes (no makeCache, no sweepers), the worker's intents. */
async function baselineClient(): Promise<void> {
  // The worker's own copy of discord.js; the scripts package does not depend on it.
  const resolved = createRequire(join(repoRoot, 'apps', 'worker', 'package.json')).resolve('discord.js');
  const discord = (await import(pathToFileURL(resolved).href)) as DiscordModule;
  const env = loadBaselineClientEnv();
  const client = new discord.Client({ intents: env.intents, rest: { api: env.apiBase } });
  client.once(discord.Events.ClientReady, (ready) => {
    process.send?.({ bench: 'ready', guilds: ready.guilds.cache.size });
  });
  process.once('SIGTERM', () => {
    void client.destroy().finally(() => process.exit(0));
  });
  await client.login(env.botToken);
}

const snowflake = (kind: bigint, index: number): string => (kind * 10n ** 17n + BigInt(index)).toString();

/**
 * `guilds` guilds the bot is in, each with CHANNELS channels (2 categories), ROLES roles (the
 * bot's on top) and MEMBERS members whose users are in no other guild; the sandbox sends them
 * all in GUILD_CREATE. Channel and role shapes come from the default fixture.
 */
function buildFixture(
  guilds: number,
  sandbox: typeof import('@spacecadet/discord-sandbox'),
): {
  fixture: SandboxFixture;
  textChannels: Array<{ guildId: string; channelId: string; authors: string[] }>;
} {
  const fixture = sandbox.defaultFixture();
  const [categoryTemplate, textTemplate] = fixture.guilds[0]?.channels ?? [];
  const bot = fixture.users.find((user) => user.bot);
  if (!categoryTemplate || textTemplate?.type !== 0 || !bot)
    throw new Error('the default fixture changed shape');
  const botId = bot.id;
  fixture.users = [bot];
  fixture.guilds = [];
  const textChannels: Array<{ guildId: string; channelId: string; authors: string[] }> = [];
  for (let g = 0; g < guilds; g += 1) {
    const guildId = snowflake(3n, g);
    const userIds = Array.from({ length: MEMBERS - 1 }, (_, m) => snowflake(4n, g * MEMBERS + m));
    for (const [m, id] of userIds.entries()) {
      fixture.users.push({
        id,
        username: `cadet${g}_${m}`,
        discriminator: '0',
        global_name: `Cadet ${g}.${m}`,
        avatar: null,
      });
    }
    const roleIds = Array.from({ length: ROLES - 2 }, (_, r) => snowflake(5n, g * ROLES + r));
    const botRoleId = snowflake(5n, g * ROLES + ROLES - 1);
    const categoryIds = [snowflake(6n, g * CHANNELS), snowflake(6n, g * CHANNELS + 1)];
    const channels: SandboxChannel[] = categoryIds.map((id, position) => ({
      ...categoryTemplate,
      id,
      guild_id: guildId,
      name: `deck ${position}`,
      position,
    }));
    for (let c = 2; c < CHANNELS; c += 1) {
      channels.push({
        ...textTemplate,
        id: snowflake(6n, g * CHANNELS + c),
        guild_id: guildId,
        name: `channel-${c}`,
        position: c,
        parent_id: categoryIds[c % 2] ?? null,
      });
    }
    const guild: SandboxGuild = {
      id: guildId,
      name: `Bench Guild ${g}`,
      icon: null,
      owner_id: userIds[0] ?? botId,
      preferred_locale: 'en-US',
      roles: [
        sandbox.makeRole(guildId, '@everyone', 0, sandbox.EVERYONE_PERMISSIONS),
        ...roleIds.map((id, r) =>
          sandbox.makeRole(id, `Role ${r}`, r + 1, '0', { color: (r * 0x09f1e3) & 0xffffff }),
        ),
        sandbox.makeBotRole(botRoleId, ROLES - 1, botId, sandbox.BOT_ROLE_PERMISSIONS),
      ],
      channels,
      members: [
        { user_id: botId, roles: [botRoleId], nick: null, joined_at: '2024-01-15T12:00:00.000Z' },
        ...userIds.map((user_id, m) => ({
          user_id,
          roles: [...new Set([roleIds[m % roleIds.length] ?? '', roleIds[(m * 7) % roleIds.length] ?? ''])],
          nick: m % 5 === 0 ? `nick ${m}` : null,
          joined_at: '2024-01-15T12:00:00.000Z',
        })),
      ],
    };
    fixture.guilds.push(guild);
    textChannels.push({ guildId, channelId: channels[2]?.id ?? '', authors: userIds.slice(0, MESSAGES) });
  }
  return { fixture, textChannels };
}

interface Measured {
  rss: number;
  heap: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** VmRSS from /proc (Linux); elsewhere the child's own report. */
function rssOf(pid: number | undefined, reported: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (match?.[1]) return Number(match[1]) * 1024;
  } catch {}
  return reported;
}

/** A child started with the GC hook; `next(bench)` resolves with its next IPC message of that kind. */
class Child {
  private waiting = new Map<string, (message: ChildMessage) => void>();
  private output = '';
  readonly exited: Promise<unknown>;

  constructor(
    readonly process: ChildProcess,
    onLine: (line: string) => void = () => {},
  ) {
    let pending = '';
    process.stdout?.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    });
    process.stderr?.on('data', (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-4000);
    });
    process.on('message', (message: ChildMessage) => {
      const resolve = message.bench ? this.waiting.get(message.bench) : undefined;
      if (message.bench) this.waiting.delete(message.bench);
      resolve?.(message);
    });
    this.exited = once(process, 'exit');
  }

  static start(
    script: string,
    args: string[],
    cwd: string,
    env: NodeJS.ProcessEnv,
    onLine?: (line: string) => void,
  ) {
    const child = spawn(
      globalThis.process.execPath,
      ['--expose-gc', '--import', 'tsx', '--import', GC_HOOK, script, ...args],
      { cwd, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
    );
    return new Child(child, onLine);
  }

  next(bench: string, timeoutMs: number): Promise<ChildMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`child gave no ${bench} within ${timeoutMs} ms\n${this.output}`)),
        timeoutMs,
      );
      this.waiting.set(bench, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      void this.exited.then(() => reject(new Error(`child exited before ${bench}:\n${this.output}`)));
    });
  }

  async measure(): Promise<Measured> {
    const rss: number[] = [];
    const heap: number[] = [];
    for (let i = 0; i < SAMPLES; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_GAP_MS));
      const answer = this.next('memory', 30_000);
      this.process.send({ bench: 'gc' });
      const memory = await answer;
      rss.push(rssOf(this.process.pid, memory.rss ?? Number.NaN));
      heap.push(memory.heapUsed ?? Number.NaN);
    }
    return { rss: median(rss), heap: median(heap) };
  }

  async stop(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    this.process.kill('SIGTERM');
    const timer = setTimeout(() => this.process.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(timer);
  }
}

const stopList = new Set<() => Promise<unknown>>();

async function postMessages(sandbox: Sandbox, channels: ReturnType<typeof buildFixture>['textChannels']) {
  const posts = channels.flatMap((channel) => channel.authors.map((author) => ({ ...channel, author })));
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
  const { createTestDatabase, testRedis, testStackEnv } = await import('@spacecadet/db/testing');
  const { fixture, textChannels } = buildFixture(guilds, sandboxModule);
  const sandbox = await sandboxModule.startSandbox({ port: 0, fixture });
  let database: TestDatabase | null = null;
  let redis: TestRedis | null = null;
  let child: Child | null = null;
  const cleanup = async () => {
    await child?.stop();
    await Promise.allSettled([sandbox.close(), redis?.close(), database?.close()]);
  };
  stopList.add(cleanup);
  try {
    const env: NodeJS.ProcessEnv = {
      ...pathAndHome(),
      NODE_ENV: 'production',
      DISCORD_API_BASE: sandbox.apiBase,
      DISCORD_BOT_TOKEN: sandboxModule.SANDBOX_BOT_TOKEN,
    };
    let ready: Promise<number>;
    if (kind === 'worker') {
      [database, redis] = await Promise.all([createTestDatabase('bench_memory'), testRedis()]);
      let resolveReady: (guilds: number) => void = () => {};
      ready = new Promise((resolve) => (resolveReady = resolve));
      child = Child.start(
        join('src', 'main.ts'),
        [],
        join(repoRoot, 'apps', 'worker'),
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
      child = Child.start(join(import.meta.dirname, 'worker-memory.ts'), [BASELINE_FLAG], repoRoot, {
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
    await postMessages(sandbox, textChannels);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const measured = await child.measure();
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

if (process.argv.includes(BASELINE_FLAG)) await baselineClient();
else await main();
