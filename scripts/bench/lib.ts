/**
 * Small helpers the benchmarks share: percentiles, a bounded fixed-concurrency loop, compact
 * tables, the dashboard build, the one result line `run.ts` collects into its report, a
 * generated world of many guilds, measured child processes (the real worker with a GC hook) and
 * a producer on the worker's job queue.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { bullPrefix, jobQueueName, shardOfGuild } from '@spacecadet/contract';
import type { SandboxChannel, SandboxFixture } from '@spacecadet/discord-sandbox';
import { createRedisClient } from '@spacecadet/runtime/redis-client';
import { waitFor as pollUntilDeadline } from '@spacecadet/testing';
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

/** Polls until `check` gives a value, or throws at the deadline (20 s unless told). */
export function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  return pollUntilDeadline(what, check, timeoutMs);
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
  /** More arguments after the flag (e.g. the world's size). */
  args: readonly string[] = [],
): Promise<BenchChild<Ready>> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, flag, ...args], {
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

/** Median of a list (the upper middle of an even one). */
export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** Wall-clock milliseconds, sub-millisecond, comparable between a benchmark and its children. */
export const epochMs = (): number => performance.timeOrigin + performance.now();

/**
 * Calls `emitOne(0..count-1)` (each returns its emit time) as fast as the event loop allows, in
 * chunks so the sockets drain between them, or at `rate` a second; resolves with the emit times.
 */
export async function emitInChunks(
  count: number,
  emitOne: (index: number) => number,
  rate?: number,
): Promise<number[]> {
  const times: number[] = [];
  const start = epochMs();
  let next = 0;
  while (next < count) {
    const due = rate
      ? Math.min(count, Math.floor(((epochMs() - start) / 1000) * rate) + 1)
      : Math.min(count, next + 200);
    for (; next < due; next += 1) times.push(emitOne(next));
    // A paced run ticks about every millisecond.
    if (rate) await new Promise((resolve) => setTimeout(resolve, 1));
    else await new Promise((resolve) => setImmediate(resolve));
  }
  return times;
}

// ---------------------------------------------------------------- a generated world

/** Snowflakes by kind and index: kind 3 guilds, 4 users, 5 roles, 6 channels. */
export const snowflake = (kind: bigint, index: number): string =>
  (kind * 10n ** 17n + BigInt(index)).toString();

/**
 * Generated guild `g`'s id. Its index sits above the 22 timestamp-less bits, so consecutive
 * guilds fall on consecutive shards by Discord's formula (`(id >> 22) % shard_count`).
 */
export const generatedGuildId = (g: number): string => (3n * 10n ** 17n + (BigInt(g) << 22n)).toString();

export interface GeneratedWorldOptions {
  guilds: number;
  /** Per guild: channels (2 of them categories), roles (with @everyone and the bot's on top), members (with the bot). */
  channels: number;
  roles: number;
  members: number;
}

export interface GeneratedGuild {
  guildId: string;
  /** The guild's first text channel. */
  channelId: string;
  /** Its members who are not the bot, in order. */
  memberIds: string[];
  /** Its roles other than @everyone and the bot's, in order. */
  roleIds: string[];
}

type SandboxModule = typeof import('@spacecadet/discord-sandbox');

/**
 * `guilds` guilds the bot is in, each with its channels (2 categories, the rest text), roles (the
 * bot's on top) and members whose users are in no other guild; the sandbox sends them all in
 * GUILD_CREATE. Channel and role shapes come from the default fixture.
 */
export function generateWorld(
  options: GeneratedWorldOptions,
  sandbox: SandboxModule,
): { fixture: SandboxFixture; guilds: GeneratedGuild[] } {
  const { channels: CHANNELS, roles: ROLES, members: MEMBERS } = options;
  const fixture = sandbox.defaultFixture();
  const [categoryTemplate, textTemplate] = fixture.guilds[0]?.channels ?? [];
  const bot = fixture.users.find((user) => user.bot);
  if (!categoryTemplate || textTemplate?.type !== 0 || !bot)
    throw new Error('the default fixture changed shape');
  const botId = bot.id;
  fixture.users = [bot];
  fixture.guilds = [];
  const guilds: GeneratedGuild[] = [];
  for (let g = 0; g < options.guilds; g += 1) {
    const guildId = generatedGuildId(g);
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
    fixture.guilds.push({
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
    });
    guilds.push({ guildId, channelId: channels[2]?.id ?? '', memberIds: userIds, roleIds });
  }
  return { fixture, guilds };
}

/** Discord's shard of a guild (`(id >> 22) % shard_count`), as the job queues are chosen. */
export { shardOfGuild };

// ---------------------------------------------------------------- measured child processes

/**
 * Injected into measured children (`--import`): on an IPC `gc` request, collect twice and
 * answer with memoryUsage(). The product has no such hook.
 */
const GC_HOOK = `data:text/javascript,${encodeURIComponent(
  "if (process.send) process.on('message', (m) => { if (m && m.bench === 'gc') { globalThis.gc(); globalThis.gc(); process.send({ bench: 'memory', ...process.memoryUsage() }); } });",
)}`;

export interface ChildMessage {
  bench?: string;
  guilds?: number;
  count?: number;
  rss?: number;
  heapUsed?: number;
}

/** Clock ticks a second in /proc's CPU figures (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

/**
 * CPU seconds (user + system) process `pid` has used so far, from /proc (Linux; NaN elsewhere).
 * Per request or job it is the cost the load on a shared machine does not change.
 */
export function processCpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

/** The whole machine's CPU time so far, every process (/proc/stat; NaN elsewhere), in core-seconds. */
export interface MachineCpu {
  busy: number;
  total: number;
}

export function machineCpu(): MachineCpu {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    // cpu user nice system idle iowait irq softirq steal ...
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const busy = (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0);
    return { busy: busy / CLOCK_TICKS, total: (busy + (idle ?? 0) + (iowait ?? 0)) / CLOCK_TICKS };
  } catch {
    return { busy: Number.NaN, total: Number.NaN };
  }
}

/**
 * How many of the machine's cores were busy between two `machineCpu()` readings, all processes
 * together: the load generator, the servers, Redis, Postgres. At `availableParallelism()` the
 * machine was full, and a ratio measured then is capped by the machine, not by the code.
 */
export function coresBusy(before: MachineCpu, after: MachineCpu): number {
  const total = after.total - before.total;
  return total > 0 ? ((after.busy - before.busy) / total) * availableParallelism() : Number.NaN;
}

export interface Measured {
  rss: number;
  heap: number;
}

/** VmRSS from /proc (Linux); elsewhere the child's own report. */
function rssOf(pid: number | undefined, reported: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (match?.[1]) return Number(match[1]) * 1024;
  } catch {}
  return reported;
}

/**
 * A child started with the GC hook (`--expose-gc`), its stdout read line by line;
 * `next(bench)` resolves with its next IPC message of that kind.
 */
export class MeasuredChild {
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
  ): MeasuredChild {
    const child = spawn(
      globalThis.process.execPath,
      ['--expose-gc', '--import', 'tsx', '--import', GC_HOOK, script, ...args],
      { cwd, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
    );
    return new MeasuredChild(child, onLine);
  }

  /** The real worker (`apps/worker/src/main.ts`), each line of its log handed to `onLine`. */
  static worker(env: NodeJS.ProcessEnv, onLine?: (line: string) => void): MeasuredChild {
    return MeasuredChild.start(join('src', 'main.ts'), [], join(repoRoot, 'apps', 'worker'), env, onLine);
  }

  /** The end of its stderr, for an error message. */
  get stderr(): string {
    return this.output;
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

  /** Sends `request` and resolves with the answer of kind `answer`. */
  ask(request: { bench: string }, answer: string, timeoutMs = 30_000): Promise<ChildMessage> {
    const reply = this.next(answer, timeoutMs);
    this.process.send(request);
    return reply;
  }

  /** The median of `samples` readings, `gapMs` apart, each after a forced full GC. */
  async measure(samples: number, gapMs: number): Promise<Measured> {
    const rss: number[] = [];
    const heap: number[] = [];
    for (let i = 0; i < samples; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, gapMs));
      const memory = await this.ask({ bench: 'gc' }, 'memory');
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

// ---------------------------------------------------------------- the job queue

/** BullMQ's Queue as a benchmark uses it (the scripts package depends on neither BullMQ nor ioredis). */
export interface BenchQueue {
  pause(): Promise<void>;
  resume(): Promise<void>;
  addBulk(jobs: Array<{ name: string; data: unknown; opts: Record<string, unknown> }>): Promise<unknown>;
  getJob(
    id: string,
  ): Promise<
    { finishedOn?: number; processedOn?: number; failedReason?: string; returnvalue: unknown } | undefined
  >;
  getJobSchedulersCount(): Promise<number>;
  upsertJobScheduler(
    id: string,
    repeat: { every: number; startDate?: number },
    template: { name: string; data: unknown },
  ): Promise<unknown>;
  getJobCounts(...types: string[]): Promise<Record<string, number>>;
  getFailed(start: number, end: number): Promise<Array<{ failedReason: string }>>;
  close(): Promise<void>;
}

/**
 * A producer of our own on the workers' shard queues, as the API has (its own Redis connection):
 * one BenchQueue over all `shardCount` queues, each job and scheduler in its guild's shard's
 * queue, the counts summed over them.
 */
export function producerQueue(
  redisUrl: string,
  prefix: string,
  shardCount = 1,
  /** REDIS_CLUSTER_NODES' nodes: the queues on that Redis Cluster (redisUrl then gives only credentials). */
  clusterNodes: ReadonlyArray<{ host: string; port: number }> | null = null,
): { queue: BenchQueue; close(): Promise<void> } {
  const require = createRequire(join(repoRoot, 'apps', 'worker', 'package.json'));
  const { Queue } = require('bullmq') as {
    Queue: new (name: string, opts: { connection: unknown; prefix: string }) => BenchQueue;
  };
  const connection = createRedisClient(redisUrl, clusterNodes, { maxRetriesPerRequest: null });
  const shards = Array.from(
    { length: shardCount },
    (_, shard) => new Queue(jobQueueName(shard), { connection, prefix: bullPrefix(prefix) }),
  );
  const guildOf = (data: unknown) => (data as { guild_id: string }).guild_id;
  const forGuild = (guildId: string) => shards[shardOfGuild(guildId, shardCount)] as BenchQueue;
  /** The shard queue each job added here went to (a bench's own ids name no guild). */
  const placed = new Map<string, BenchQueue>();
  // Else ids of ours end in the guild (`<name>.<guild>`, maybe a suffix after it).
  const forJobId = (id: string) =>
    placed.get(id) ?? forGuild(/\.(\d{17,20})(?:\.[A-Za-z0-9]+)?$/.exec(id)?.[1] ?? '0');
  const sum = (all: Record<string, number>[]) =>
    all.reduce<Record<string, number>>((total, counts) => {
      for (const [state, count] of Object.entries(counts)) total[state] = (total[state] ?? 0) + count;
      return total;
    }, {});
  const queue: BenchQueue = {
    async pause() {
      await Promise.all(shards.map((shard) => shard.pause()));
    },
    async resume() {
      await Promise.all(shards.map((shard) => shard.resume()));
    },
    async addBulk(jobs) {
      for (const job of jobs) {
        if (typeof job.opts.jobId === 'string') placed.set(job.opts.jobId, forGuild(guildOf(job.data)));
      }
      return Promise.all(
        shards.map((shard, index) =>
          shard.addBulk(jobs.filter((job) => shardOfGuild(guildOf(job.data), shardCount) === index)),
        ),
      );
    },
    getJob: (id) => forJobId(id).getJob(id),
    async getJobSchedulersCount() {
      const counts = await Promise.all(shards.map((shard) => shard.getJobSchedulersCount()));
      return counts.reduce((total, count) => total + count, 0);
    },
    upsertJobScheduler: (id, repeat, template) =>
      forGuild(guildOf(template.data)).upsertJobScheduler(id, repeat, template),
    async getJobCounts(...types) {
      return sum(await Promise.all(shards.map((shard) => shard.getJobCounts(...types))));
    },
    async getFailed(start, end) {
      return (await Promise.all(shards.map((shard) => shard.getFailed(start, end)))).flat();
    },
    async close() {
      await Promise.all(shards.map((shard) => shard.close()));
    },
  };
  return {
    queue,
    async close() {
      await queue.close().catch(() => {});
      connection.disconnect();
    },
  };
}

/**
 * Waits until nothing is waiting or running and the only delayed jobs are the schedulers' next
 * runs (one each): a job put back because its guild was busy keeps it waiting.
 */
export async function drained(queue: BenchQueue, timeoutMs: number): Promise<void> {
  await waitFor(
    'the queue to drain',
    async () => {
      const [schedulers, counts] = await Promise.all([
        queue.getJobSchedulersCount(),
        queue.getJobCounts('active', 'wait', 'prioritized', 'delayed'),
      ]);
      const busy = (counts.active ?? 0) + (counts.wait ?? 0) + (counts.prioritized ?? 0);
      return busy === 0 && (counts.delayed ?? 0) <= schedulers ? true : undefined;
    },
    timeoutMs,
  );
}
