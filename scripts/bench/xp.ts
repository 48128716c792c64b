/**
 * Leveling XP from chat, three figures from one run:
 *
 * 1. Throughput: chat messages per second through the real worker (`startWorker`, every
 *    feature, in this process), from the sandbox gateway's MESSAGE_CREATE to the member's XP in
 *    Postgres (`member_xp.message_count`), beside a bare discord.js Client (the worker's
 *    intents, REST pointed at the sandbox, default caches) that only counts the same
 *    MESSAGE_CREATEs. Each phase emits BURST messages as fast as the sandbox can; its time runs
 *    from the first one emitted to the last one counted (baseline) or stored (worker, polled
 *    every POLL_MS, so the flusher's 500 ms interval is part of it). Phases alternate, baseline
 *    then worker, over ROUNDS rounds after a warm-up of each; medians count. Goal: >= 0.8x
 *    (issue 40). BENCH_XP_BURST and BENCH_XP_ROUNDS shrink a run for quick iterations.
 * 2. Latency: a steady load at LATENCY_LOAD x the worker's median throughput for
 *    LATENCY_SECONDS. Each message's emit time comes from the sandbox; this process polls the
 *    per-guild sum of message_count every few ms. A guild's messages are counted, buffered and
 *    flushed in order, so its p-th message is stored once its sum reaches p; the poll's answer
 *    time (an upper bound) minus the emit time is that message's latency. Goal: p99 <= 1 s.
 * 3. Redis memory: INFO `used_memory` before and after 100,000 distinct members (100 guilds of
 *    1,000) each earn XP once through `awardMessageXp` (the real script) with a 60 s cooldown:
 *    cooldown keys plus the pending buffer; then one pass of the flusher's steps (take the dirty
 *    guilds, take each guild's batch, `writeXpBatch` into Postgres, finish) leaves the cooldown
 *    keys only. `MEMORY USAGE` of the keys is printed beside it, as the Redis server is shared.
 *    A private key prefix, deleted afterwards.
 *
 * The world: GUILDS guilds with leveling enabled (10 XP a message, cooldown off, NO_XP_LIST
 * no-XP channels and NO_XP_LIST no-XP roles configured, none of which the chat is in or its
 * members hold, so every message is checked against them and still earns), one text channel
 * each, and ACTIVE_MEMBERS members (holding a Member role) chatting (ACTIVE_MEMBERS / GUILDS a guild): message k
 * comes from member k % ACTIVE_MEMBERS in guild k % GUILDS. With the cooldown off every message
 * earns XP and has to reach Postgres (the worst case for the Redis script and the buffer); a
 * flush writes each member who spoke once, with the sum of their messages, as the buffer is
 * meant to. A phase's progress is the rise of sum(message_count) since it started. (With a new
 * member for every message, each message becomes its own new member_xp and member_daily_xp row
 * and the figure measures Postgres inserts on this machine: 0.43x in the run that changed this.)
 * GUILD_CREATE lists the bot only; an author is a member of the sandbox's guild while it posts,
 * and MESSAGE_CREATE carries it, as for a large guild on Discord.
 *
 * The sandbox runs in a child process (`xp.ts --sandbox`): two identical sandboxes, one the
 * worker connects to and one the baseline connects to, so the client not being measured
 * receives nothing. A message is emitted by the sandbox's own `postMessage` (message-mutations.ts) on
 * its live state (`sandbox.world`), not by `POST /_sandbox/messages`: over HTTP it emits far
 * less than the baseline counts. In the child it also stays off this process's event loop,
 * which both clients use; in-process, its work would be billed to both and squeeze the ratio
 * towards 1. The emitter manages some 50,000 a second, about what the baseline counts with a
 * core busy (printed as `busy`), so the baseline's figure is a floor and the ratio, if
 * anything, flatters the worker. Diagnostics per worker phase: when its discord.js client had
 * emitted every message, the batches written, and the (shared) Redis server's CPU.
 *
 * BENCH_CPU_PROF=<dir>: a V8 CPU profile of this process (the worker; the baseline client idles
 * meanwhile) for each worker phase and the latency phase, written there as `xp-<phase>.cpuprofile`.
 */
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  redisKeyPrefix,
  xpCooldownKey,
  xpDirtyGuildsKey,
  xpPendingKey,
  xpSlotGroup,
} from '@spacecadet/contract';
import { utcDay } from '@spacecadet/core';
import { createDb } from '@spacecadet/db';
import { writeXpBatch } from '@spacecadet/db/queries/member-xp';
import { levelingSettings } from '@spacecadet/db/schema';
import { createTestDatabase, type TestDatabase, type TestRedis, testRedis } from '@spacecadet/db/testing';
import type { Sandbox, SandboxFixture, SandboxGuild } from '@spacecadet/discord-sandbox';
import { testStackEnv } from '@spacecadet/testing';
import { loadWorkerConfig, type RunningWorker, startWorker } from '@spacecadet/worker';
import {
  awardMessageXp,
  finishBatch,
  readBatch,
  takeDirtyGuilds,
  takeGuildBatch,
  WORKER_INTENTS,
} from '@spacecadet/worker/testing';
import { loadBenchEnv, pathAndHome, useLocalServices } from '../env.ts';
import { startCpuProfile, writeCpuProfile } from './cpu-profile.ts';
import {
  closeOnStop,
  coresBusy,
  emitInChunks,
  epochMs,
  logStep,
  machineCpu,
  median,
  printTable,
  ratio,
  repoRoot,
  reportHeadline,
  runBounded,
  snowflake,
  startBenchChild,
  summarize,
} from './lib.ts';

const GUILDS = 50;
const WARMUP = 10_000;
const LATENCY_LOAD = 0.5;
const LATENCY_SECONDS = 5;
const LATENCY_MAX_MESSAGES = 60_000;
/** Chat: cooldown off, so every message earns XP and must reach Postgres. */
const COOLDOWN_SEC = 0;
/** Members chatting in the run; message k comes from member k % ACTIVE_MEMBERS (a multiple of GUILDS). */
const ACTIVE_MEMBERS = 5_000;
/** The memory part: each member's cooldown is live. */
const MEMORY_COOLDOWN_SEC = 60;
const XP_PER_MESSAGE = 10;
const POLL_MS = 20;
const LATENCY_POLL_MS = 5;
const PHASE_TIMEOUT_MS = 60_000;
const RATIO_GOAL = 0.8;
const P99_GOAL_MS = 1_000;
const MEMORY_GUILDS = 100;
const MEMORY_MEMBERS_PER_GUILD = 1_000;
const MEMORY_MEMBERS = MEMORY_GUILDS * MEMORY_MEMBERS_PER_GUILD;
const SANDBOX_FLAG = '--sandbox';
const JOINED_AT = '2024-01-15T12:00:00.000Z';

// Snowflakes by kind and index (lib.ts); the child and this process agree on them.
const guildId = (g: number) => snowflake(3n, g);
const channelId = (g: number) => snowflake(6n, g);
const botRoleId = (g: number) => snowflake(5n, g);
/** The role every chatting member holds (no no-XP role), and the guild's no-XP role nobody chatting holds. */
const memberRoleId = (g: number) => snowflake(9n, g);
const mutedRoleId = (g: number) => snowflake(8n, g);
/** Each guild's no-XP configuration: channels and roles the chat is not in, checked on every message. */
const NO_XP_LIST = 10;
const noXpChannels = (g: number) =>
  Array.from({ length: NO_XP_LIST }, (_, i) => snowflake(6n, 10_000 + g * NO_XP_LIST + i));
const noXpRoles = (g: number) => [
  mutedRoleId(g),
  ...Array.from({ length: NO_XP_LIST - 1 }, (_, i) => snowflake(8n, 10_000 + g * NO_XP_LIST + i)),
];
/** Member k (of guild k % GUILDS); ids have one length, so text order is numeric order. */
const memberId = (k: number) => snowflake(4n, k);
/** The member who posts the run's k-th message: in guild k % GUILDS, like the message. */
const authorOf = (k: number) => k % ACTIVE_MEMBERS;
const GUILD_IDS = Array.from({ length: GUILDS }, (_, g) => guildId(g));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- the sandbox child

type Target = 'worker' | 'baseline';

/** Asks the child to emit `count` messages from members offset..offset+count-1. */
interface EmitRequest {
  bench: 'emit';
  id: number;
  target: Target;
  offset: number;
  count: number;
  /** Messages per second; all at once (in chunks, so the socket drains) when absent. */
  rate?: number;
}

interface EmitDone {
  bench: 'emitted';
  id: number;
  /** Emit time of each message, epoch ms. */
  times: number[];
}

async function buildFixture(): Promise<SandboxFixture> {
  const sandbox = await import('@spacecadet/discord-sandbox');
  const fixture = sandbox.defaultFixture();
  const text = fixture.guilds[0]?.channels.find((channel) => channel.type === 0);
  const bot = fixture.users.find((user) => user.bot);
  if (!text || !bot) throw new Error('the default fixture changed shape');
  fixture.users = [bot];
  fixture.guilds = GUILD_IDS.map(
    (id, g): SandboxGuild => ({
      id,
      name: `Bench Guild ${g}`,
      icon: null,
      owner_id: bot.id,
      preferred_locale: 'en-US',
      roles: [
        sandbox.makeRole(id, '@everyone', 0, sandbox.EVERYONE_PERMISSIONS),
        sandbox.makeBotRole(botRoleId(g), 1, bot.id, sandbox.BOT_ROLE_PERMISSIONS),
        sandbox.makeRole(memberRoleId(g), 'Member', 2, '0'),
        sandbox.makeRole(mutedRoleId(g), 'Muted', 3, '0'),
      ],
      channels: [{ ...text, id: channelId(g), guild_id: id, name: 'chat', position: 0, parent_id: null }],
      members: [{ user_id: bot.id, roles: [botRoleId(g)], nick: null, joined_at: JOINED_AT }],
    }),
  );
  return fixture;
}

/** The child: two identical sandboxes; emits messages on request over IPC, stops on SIGTERM. */
async function sandboxChild(): Promise<void> {
  const { startSandbox } = await import('@spacecadet/discord-sandbox');
  // The sandbox's own module (the same instance startSandbox uses) for postMessage.
  const { buildMessage, postMessage } = await import('@spacecadet/discord-sandbox/testing');
  type State = Sandbox['world'];
  const fixture = await buildFixture();
  const started = await Promise.all(
    (['worker', 'baseline'] as const).map(async (target) => {
      const sandbox = await startSandbox({ port: 0, fixture: structuredClone(fixture) });
      const state: State = sandbox.world;
      return { target, sandbox, state };
    }),
  );
  const world = new Map(started.map((entry) => [entry.target, entry]));

  const emitOne = (state: State, k: number): number => {
    const guild = state.guilds.get(guildId(k % GUILDS));
    if (!guild) throw new Error(`no guild for member ${k}`);
    // A member while it posts: the message carries it, and the guild's list stays short.
    guild.members.push({
      user_id: memberId(authorOf(k)),
      roles: [memberRoleId(k % GUILDS)],
      nick: null,
      joined_at: JOINED_AT,
    });
    try {
      postMessage(
        state,
        guild,
        buildMessage(state, {
          channel_id: channelId(k % GUILDS),
          author_id: memberId(authorOf(k)),
          content: `status report ${k}`,
        }),
      );
    } finally {
      guild.members.pop();
    }
    return epochMs();
  };

  async function emit(request: EmitRequest): Promise<number[]> {
    const entry = world.get(request.target);
    if (!entry) throw new Error(`unknown target ${request.target}`);
    const times = await emitInChunks(
      request.count,
      (i) => emitOne(entry.state, request.offset + i),
      request.rate,
    );
    // The sandbox keeps every message; nothing here reads them back.
    entry.state.messages.clear();
    return times;
  }

  process.on('message', (message: EmitRequest) => {
    if (message?.bench !== 'emit') return;
    void emit(message).then(
      (times) => process.send?.({ bench: 'emitted', id: message.id, times } satisfies EmitDone),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
  const stop = () =>
    void Promise.allSettled(started.map((entry) => entry.sandbox.close())).finally(() => process.exit(0));
  process.once('SIGTERM', stop).once('disconnect', stop);
  process.send?.({
    bench: 'ready',
    apiBase: Object.fromEntries(started.map((entry) => [entry.target, entry.sandbox.apiBase])),
  });
}

interface SandboxHandle {
  apiBase: Record<Target, string>;
  emit(target: Target, offset: number, count: number, rate?: number): Promise<number[]>;
  stop(): Promise<void>;
}

async function startSandboxChild(): Promise<SandboxHandle> {
  const { child, ready, died, stop } = await startBenchChild<{ apiBase: Record<Target, string> }>(
    join(import.meta.dirname, 'xp.ts'),
    SANDBOX_FLAG,
    pathAndHome(),
  );
  const waiting = new Map<number, (times: number[]) => void>();
  child.on('message', (message: EmitDone) => {
    if (message?.bench === 'emitted') waiting.get(message.id)?.(message.times);
  });
  let nextId = 0;
  return {
    apiBase: ready.apiBase,
    emit(target, offset, count, rate) {
      const id = nextId++;
      const done = new Promise<number[]>((resolve) => waiting.set(id, resolve));
      child.send({
        bench: 'emit',
        id,
        target,
        offset,
        count,
        ...(rate ? { rate } : {}),
      } satisfies EmitRequest);
      return Promise.race([done, died]).finally(() => waiting.delete(id));
    },
    stop,
  };
}

// ---------------------------------------------------------------- the benchmark

type DiscordClient = RunningWorker['client'];
interface DiscordModule {
  Client: new (options: { intents: readonly number[]; rest: { api: string } }) => DiscordClient;
  Events: { ClientReady: 'clientReady'; MessageCreate: 'messageCreate' };
}
type XpRedis = Parameters<typeof awardMessageXp>[0];

/** Counts MESSAGE_CREATEs a client turns into `messageCreate`; resolves when a total is reached. */
class MessageCounter {
  count = 0;
  private target = Number.POSITIVE_INFINITY;
  private reached: ((at: number) => void) | null = null;

  constructor(client: DiscordClient, event: string, counts: (arg: unknown) => boolean = () => true) {
    client.on(event, (arg: unknown) => {
      if (!counts(arg)) return;
      this.count += 1;
      if (this.count >= this.target) {
        this.target = Number.POSITIVE_INFINITY;
        this.reached?.(epochMs());
      }
    });
  }

  /** Resolves with the time the count reaches `total` (at once if it has). */
  until(total: number): Promise<number> {
    if (this.count >= total) return Promise.resolve(epochMs());
    return new Promise((resolve) => {
      this.target = total;
      this.reached = resolve;
    });
  }
}

interface Phase {
  kind: Target;
  messages: number;
  /** Counted (baseline) or stored in Postgres (worker). */
  done: number;
  seconds: number;
  perSecond: number;
  /** Worker: when its discord.js client had emitted the last message, seconds from the first. */
  receivedSeconds: number;
  /** How long the sandbox took to emit them all. */
  emitSeconds: number;
  /** CPU of this process (both clients, polling) per message, ms. */
  cpuMs: number;
  /** CPU the Redis server used meanwhile (shared: other users' commands count too). */
  redisCpuSeconds: number;
  /** XP batches the worker wrote to Postgres meanwhile. */
  batches: number;
  /** The whole machine's busy cores meanwhile: this process, the sandbox child, Redis, Postgres. */
  machineCores: number;
}

const mb = (bytes: number): string => `${(bytes / 1_000_000).toFixed(2)} MB`;

/** The Redis server's CPU seconds so far (user + system). */
async function redisCpuSeconds(redis: XpRedis): Promise<number> {
  const info = await redis.info('cpu');
  const read = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? Number.NaN);
  return read('used_cpu_user') + read('used_cpu_sys');
}

async function usedMemory(redis: XpRedis): Promise<number> {
  const info = await redis.info('memory');
  const match = /used_memory:(\d+)/.exec(info);
  if (!match?.[1]) throw new Error('INFO memory has no used_memory');
  return Number(match[1]);
}

/** BENCH_CPU_PROF: profiles this process between start and stop, one file per phase. */
function phaseProfiler(dir: string | undefined) {
  let profile: Awaited<ReturnType<typeof startCpuProfile>> | null = null;
  return {
    async start(): Promise<void> {
      if (dir) profile = await startCpuProfile();
    },
    async stop(name: string): Promise<void> {
      if (!profile || !dir) return;
      await writeCpuProfile(join(dir, `xp-${name}.cpuprofile`), await profile.stop());
      profile = null;
    },
  };
}

async function main(): Promise<void> {
  const env = loadBenchEnv();
  const BURST = env.xp.burst;
  const ROUNDS = env.xp.rounds;
  const profiler = phaseProfiler(env.cpuProfDir);
  useLocalServices();
  const started = Date.now();
  console.log(
    `xp: ${GUILDS} guilds, ${ACTIVE_MEMBERS} members chatting, cooldown ${COOLDOWN_SEC} s; ${ROUNDS} rounds of ${BURST} messages to the baseline and to the worker, alternating, after ${WARMUP} each; latency at ${LATENCY_LOAD}x the worker's rate for ${LATENCY_SECONDS} s; Redis memory for ${MEMORY_MEMBERS} members`,
  );
  let sandbox: SandboxHandle | null = null;
  let database: TestDatabase | null = null;
  let redis: TestRedis | null = null;
  let worker: RunningWorker | null = null;
  let baseline: DiscordClient | null = null;
  let poller: ReturnType<typeof createDb> | null = null;
  let memoryRedis: XpRedis | null = null;
  let rawRedis: XpRedis | null = null;
  const close = closeOnStop(async () => {
    await baseline?.destroy().catch(() => {});
    await worker?.close().catch(() => {});
    memoryRedis?.disconnect();
    rawRedis?.disconnect();
    await poller?.close().catch(() => {});
    await Promise.allSettled([sandbox?.stop(), redis?.close()]);
    await database?.close().catch(() => {});
  });

  try {
    let since = Date.now();
    const sandboxStarting = startSandboxChild();
    [database, redis] = await Promise.all([createTestDatabase('bench_xp'), testRedis()]);
    await database.db.insert(levelingSettings).values(
      GUILD_IDS.map((id, g) => ({
        guildId: id,
        enabled: true,
        xpPerMessage: XP_PER_MESSAGE,
        xpMultiplier: 1,
        messageCooldownSec: COOLDOWN_SEC,
        noXpChannels: noXpChannels(g),
        noXpRoles: noXpRoles(g),
      })),
    );
    sandbox = await sandboxStarting;
    logStep('database, Redis prefix and sandboxes', since);

    since = Date.now();
    worker = await startWorker(
      loadWorkerConfig(testStackEnv(database, redis, { apiBase: sandbox.apiBase.worker })),
    );
    // The worker's own copy of discord.js; the scripts package does not depend on it.
    const resolved = createRequire(join(repoRoot, 'apps', 'worker', 'package.json')).resolve('discord.js');
    const discord = (await import(pathToFileURL(resolved).href)) as DiscordModule;
    const { SANDBOX_BOT_TOKEN } = await import('@spacecadet/discord-sandbox');
    baseline = new discord.Client({ intents: [...WORKER_INTENTS], rest: { api: sandbox.apiBase.baseline } });
    const baselineReady = once(baseline, discord.Events.ClientReady);
    await baseline.login(SANDBOX_BOT_TOKEN);
    await baselineReady;
    if (worker.client.guilds.cache.size !== GUILDS || baseline.guilds.cache.size !== GUILDS)
      throw new Error(
        `worker holds ${worker.client.guilds.cache.size} guilds, baseline ${baseline.guilds.cache.size}; expected ${GUILDS}`,
      );
    logStep('worker and baseline client ready', since);

    const require = createRequire(join(repoRoot, 'apps', 'worker', 'package.json'));
    const { Redis } = require('ioredis') as { Redis: new (url: string, opts: object) => XpRedis };
    // Unprefixed: INFO, and the commands ioredis would not prefix (SCAN's pattern, MEMORY USAGE).
    rawRedis = new Redis(redis.url, {});
    const raw = rawRedis;
    const baselineCount = new MessageCounter(baseline, discord.Events.MessageCreate);
    // The worker counts XP from the raw MESSAGE_CREATE packet: it caches no channels, so
    // discord.js never emits messageCreate there (this diagnostic printed NaN while it listened
    // for that).
    const workerReceived = new MessageCounter(
      worker.client,
      'raw',
      (packet) => (packet as { t?: unknown } | undefined)?.t === 'MESSAGE_CREATE',
    );
    poller = createDb(database.url, { max: 1, applicationName: 'bench-xp-poll' });
    const pool = poller.pool;
    /** Messages stored so far in the run, per guild index. */
    const storedSoFar = async (): Promise<number[]> => {
      const result = await pool.query<{ guild_id: string; n: string }>(
        `SELECT guild_id, coalesce(sum(message_count), 0) AS n FROM member_xp
         WHERE guild_id = ANY($1) GROUP BY guild_id`,
        [GUILD_IDS],
      );
      const counts = new Array<number>(GUILDS).fill(0);
      for (const row of result.rows) counts[GUILD_IDS.indexOf(row.guild_id)] = Number(row.n);
      return counts;
    };
    /** Messages stored since `before` (an earlier storedSoFar), per guild index. */
    const storedSince = async (before: readonly number[]): Promise<number[]> =>
      (await storedSoFar()).map((n, g) => n - (before[g] ?? 0));
    const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
    const batchCount = async () =>
      Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM xp_flush_batches')).rows[0]?.n ?? 0);

    // Message numbers go on across the run, so authors cycle through the members; a baseline
    // phase uses the numbers its worker phase will, so both get the same messages.
    let offset = 0;
    const runPhase = async (kind: Target, count: number, name: string): Promise<Phase> => {
      const from = offset;
      if (kind === 'worker') offset += count;
      const storedBefore = kind === 'worker' ? await storedSoFar() : [];
      const cpu = process.cpuUsage();
      const machine = machineCpu();
      const [redisCpu, batches] = await Promise.all([redisCpuSeconds(raw), batchCount()]);
      if (kind === 'worker') await profiler.start();
      const receivedBefore = workerReceived.count;
      const counted = kind === 'baseline' ? baselineCount.until(baselineCount.count + count) : null;
      const received = kind === 'worker' ? workerReceived.until(receivedBefore + count) : null;
      const times = await sandbox?.emit(kind, from, count);
      const first = times?.[0] ?? Number.NaN;
      let end: number;
      let done = count;
      const deadline = Date.now() + PHASE_TIMEOUT_MS;
      if (counted) {
        // Unref'd: a phase that ends in time must not keep the process alive for a minute.
        const timeout = new Promise<number>((resolve) =>
          setTimeout(() => resolve(Number.NaN), PHASE_TIMEOUT_MS).unref(),
        );
        end = await Promise.race([counted, timeout]);
        if (!Number.isFinite(end)) {
          end = epochMs();
          done = baselineCount.count;
        }
      } else {
        for (;;) {
          done = sum(await storedSince(storedBefore));
          end = epochMs();
          if (done >= count || Date.now() > deadline) break;
          await sleep(POLL_MS);
        }
      }
      const receivedAt = received ? await Promise.race([received, sleep(1).then(() => Number.NaN)]) : end;
      const used = process.cpuUsage(cpu);
      const machineCores = coresBusy(machine, machineCpu());
      if (kind === 'worker') await profiler.stop(name);
      const [redisCpuAfter, batchesAfter] = await Promise.all([redisCpuSeconds(raw), batchCount()]);
      const seconds = (end - first) / 1000;
      return {
        kind,
        messages: count,
        done,
        seconds,
        perSecond: done / seconds,
        receivedSeconds: (receivedAt - first) / 1000,
        emitSeconds: ((times?.at(-1) ?? Number.NaN) - first) / 1000,
        cpuMs: (used.user + used.system) / 1000 / count,
        redisCpuSeconds: redisCpuAfter - redisCpu,
        batches: batchesAfter - batches,
        machineCores,
      };
    };
    const describe = (phase: Phase) =>
      `${phase.kind} ${phase.perSecond.toFixed(0)}/s (${phase.done}/${phase.messages} in ${phase.seconds.toFixed(2)} s; emitted by ${phase.emitSeconds.toFixed(2)} s${phase.kind === 'worker' ? `, all received by the worker by ${phase.receivedSeconds.toFixed(2)} s, ${phase.batches} batches written` : ''}; CPU ${phase.cpuMs.toFixed(3)} ms/message here, Redis server ${phase.redisCpuSeconds.toFixed(2)} s)`;

    since = Date.now();
    for (const kind of ['baseline', 'worker'] as const)
      console.log(`  warm-up: ${describe(await runPhase(kind, WARMUP, 'warmup'))}`);
    const phases: Phase[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const kind of ['baseline', 'worker'] as const) {
        const phase = await runPhase(kind, BURST, `round${round + 1}`);
        phases.push(phase);
        console.log(`  round ${round + 1}: ${describe(phase)}`);
      }
    }
    logStep('throughput phases', since);
    const baselinePhases = phases.filter((phase) => phase.kind === 'baseline');
    const workerPhases = phases.filter((phase) => phase.kind === 'worker');
    const baselineRate = median(baselinePhases.map((phase) => phase.perSecond));
    const workerRate = median(workerPhases.map((phase) => phase.perSecond));
    const lost = sum(phases.map((phase) => phase.messages - phase.done));
    const receivedRate = median(workerPhases.map((phase) => phase.messages / phase.receivedSeconds));
    const busy = (phase: Phase) => (100 * phase.cpuMs * phase.messages) / 1000 / phase.seconds;

    // Latency under a steady load the worker can carry.
    since = Date.now();
    const rate = Math.max(50, Math.round(LATENCY_LOAD * workerRate));
    const latencyCount = Math.min(LATENCY_MAX_MESSAGES, rate * LATENCY_SECONDS);
    const from = offset;
    offset += latencyCount;
    const storedBefore = await storedSoFar();
    const polls: Array<{ at: number; counts: number[] }> = [];
    let emitting = true;
    await profiler.start();
    const emitted = sandbox.emit('worker', from, latencyCount, rate).finally(() => {
      emitting = false;
    });
    const pollDeadline = Date.now() + LATENCY_SECONDS * 1000 + PHASE_TIMEOUT_MS;
    for (;;) {
      const counts = await storedSince(storedBefore);
      polls.push({ at: epochMs(), counts });
      if ((!emitting && sum(counts) >= latencyCount) || Date.now() > pollDeadline) break;
      await sleep(LATENCY_POLL_MS);
    }
    const times = await emitted;
    await profiler.stop('latency');
    const latencies: number[] = [];
    const positions = new Array<number>(GUILDS).fill(0);
    const pollIndex = new Array<number>(GUILDS).fill(0);
    let unstored = 0;
    for (const [i, postedAt] of times.entries()) {
      const g = (from + i) % GUILDS;
      const position = (positions[g] ?? 0) + 1;
      positions[g] = position;
      let p = pollIndex[g] ?? 0;
      while (p < polls.length && (polls[p]?.counts[g] ?? 0) < position) p += 1;
      pollIndex[g] = p;
      const poll = polls[p];
      if (poll) latencies.push(poll.at - postedAt);
      else unstored += 1;
    }
    const latency = summarize(latencies);
    const emitSeconds = ((times.at(-1) ?? 0) - (times[0] ?? 0)) / 1000;
    console.log(
      `  latency: ${latencyCount} messages at ${rate}/s (emitted over ${emitSeconds.toFixed(2)} s), ${polls.length} polls; p50 ${latency.p50.toFixed(0)} ms, p99 ${latency.p99.toFixed(0)} ms, max ${latency.max.toFixed(0)} ms${unstored ? `, ${unstored} never stored` : ''}`,
    );
    logStep('latency phase', since);

    // Both clients go before the memory part: it measures Redis alone.
    await baseline.destroy();
    baseline = null;
    await worker.close();
    worker = null;
    await sandbox.stop();

    since = Date.now();
    const memoryPrefix = `${redis.prefix}-xpmem`;
    memoryRedis = new Redis(redis.url, { keyPrefix: redisKeyPrefix(memoryPrefix) });
    const memRedis = memoryRedis;
    const fullKey = (key: string) => `${redisKeyPrefix(memoryPrefix)}${key}`;
    const memGuild = (g: number) => snowflake(7n, g);
    const award = (g: number, userId: string) =>
      awardMessageXp(memRedis, {
        guildId: memGuild(g),
        userId,
        channelId: channelId(g),
        xp: XP_PER_MESSAGE,
        cooldownSec: MEMORY_COOLDOWN_SEC,
        time: Date.now(),
        username: `cadet${userId.slice(-6)}`,
        avatar: null,
      });
    // Loads the script (Redis caches it) before the first reading.
    await award(MEMORY_GUILDS, memberId(0));
    await memRedis.del(xpCooldownKey(memGuild(MEMORY_GUILDS), memberId(0)));
    await memRedis.del(xpPendingKey(memGuild(MEMORY_GUILDS)));
    await memRedis.srem(xpDirtyGuildsKey(xpSlotGroup(memGuild(MEMORY_GUILDS))), memGuild(MEMORY_GUILDS));
    const before = await usedMemory(memRedis);
    let counted = 0;
    await runBounded(
      MEMORY_MEMBERS,
      64,
      async (i) => {
        if (await award(i % MEMORY_GUILDS, memberId(i))) counted += 1;
      },
      PHASE_TIMEOUT_MS,
    );
    const afterAward = await usedMemory(memRedis);
    const sampleCooldown = Number(
      (await raw.call('MEMORY', 'USAGE', fullKey(xpCooldownKey(memGuild(0), memberId(0))))) ?? 0,
    );
    let pendingUsage = 0;
    for (let g = 0; g < MEMORY_GUILDS; g += 1)
      pendingUsage += Number(
        (await raw.call('MEMORY', 'USAGE', fullKey(xpPendingKey(memGuild(g))), 'SAMPLES', '0')) ?? 0,
      );
    // One pass of the flusher (xp.ts), four writers at a time as it has.
    const flushStart = performance.now();
    const dirty = await takeDirtyGuilds(memRedis, 500);
    let written = 0;
    await runBounded(dirty.length, 4, async (i) => {
      const id = dirty[i] as string;
      const batch = await takeGuildBatch(memRedis, id, Date.now());
      if (!batch) return;
      const members = await readBatch(memRedis, batch);
      await writeXpBatch(database?.db as TestDatabase['db'], {
        batchId: batch.id,
        guildId: batch.guildId,
        day: utcDay(new Date()),
        members,
        levelUpLeaseMs: 10_000,
      });
      await finishBatch(memRedis, batch);
      written += members.length;
    });
    const flushMs = performance.now() - flushStart;
    const afterFlush = await usedMemory(memRedis);
    // The cooldown keys go early (they would expire in 60 s), then the reading goes back.
    let cursor = '0';
    do {
      const [next, keys] = await raw.scan(cursor, 'MATCH', fullKey('*'), 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await raw.unlink(...keys);
    } while (cursor !== '0');
    await sleep(200);
    const afterCleanup = await usedMemory(memRedis);
    logStep('Redis memory', since);

    const per100k = (bytes: number) => (bytes * 100_000) / MEMORY_MEMBERS;
    const buffered = per100k(afterAward - before);
    const cooldownOnly = per100k(afterFlush - before);

    printTable([
      ['throughput (median of rounds)', 'msg/s', 'rounds', 'CPU ms/msg', 'ratio'],
      [
        'baseline: bare discord.js, counts',
        baselineRate.toFixed(0),
        baselinePhases.map((phase) => phase.perSecond.toFixed(0)).join(' '),
        median(baselinePhases.map((phase) => phase.cpuMs)).toFixed(3),
        '1.00x',
      ],
      [
        'worker: MESSAGE_CREATE -> member_xp',
        workerRate.toFixed(0),
        workerPhases.map((phase) => phase.perSecond.toFixed(0)).join(' '),
        median(workerPhases.map((phase) => phase.cpuMs)).toFixed(3),
        ratio(workerRate, baselineRate),
      ],
      [
        'diagnostic: received by the worker (raw MESSAGE_CREATE)',
        receivedRate.toFixed(0),
        workerPhases.map((phase) => (phase.messages / phase.receivedSeconds).toFixed(0)).join(' '),
        '',
        ratio(receivedRate, baselineRate),
      ],
    ]);
    console.log(
      `  busy: this process used ${median(baselinePhases.map(busy)).toFixed(0)}% of a core in baseline phases, ${median(workerPhases.map(busy)).toFixed(0)}% in worker phases; the Redis server ${median(workerPhases.map((phase) => phase.redisCpuSeconds / phase.seconds)).toFixed(2)} cores in worker phases (shared server); the whole machine (sandbox child, Redis, Postgres, this process) ${median(baselinePhases.map((phase) => phase.machineCores)).toFixed(2)} of ${availableParallelism()} cores in baseline phases, ${median(workerPhases.map((phase) => phase.machineCores)).toFixed(2)} in worker phases`,
    );
    printTable([
      ['latency: post -> XP in Postgres', 'n', 'p50', 'p99', 'max'],
      [
        `steady ${rate}/s`,
        String(latency.n),
        `${latency.p50.toFixed(0)} ms`,
        `${latency.p99.toFixed(0)} ms`,
        `${latency.max.toFixed(0)} ms`,
      ],
    ]);
    printTable([
      [
        `Redis, ${MEMORY_MEMBERS} members in ${MEMORY_GUILDS} guilds`,
        'used_memory delta',
        'per 100k',
        'MEMORY USAGE',
      ],
      [
        'cooldown keys + pending buffer',
        mb(afterAward - before),
        mb(buffered),
        mb(sampleCooldown * MEMORY_MEMBERS + pendingUsage),
      ],
      [
        'after the flush: cooldown keys',
        mb(afterFlush - before),
        mb(cooldownOnly),
        mb(sampleCooldown * MEMORY_MEMBERS),
      ],
      ['after deleting the keys', mb(afterCleanup - before), '', ''],
    ]);
    console.log(
      `  memory: ${counted}/${MEMORY_MEMBERS} awards counted; flush of ${dirty.length} guilds (${written} members) to Postgres took ${flushMs.toFixed(0)} ms; one cooldown key ${sampleCooldown} B by MEMORY USAGE (no expiry-table share)`,
    );

    const ratioHolds = workerRate >= RATIO_GOAL * baselineRate && lost === 0;
    const latencyHolds = latency.p99 <= P99_GOAL_MS && unstored === 0;
    const memoryOk = counted === MEMORY_MEMBERS && written === MEMORY_MEMBERS;
    console.log(
      `  goals: worker >= ${RATIO_GOAL.toFixed(2)}x baseline: ${ratioHolds ? 'holds' : 'DOES NOT HOLD'} (${ratio(workerRate, baselineRate)}${lost ? `; ${lost} messages not stored/counted` : ''}); p99 <= ${P99_GOAL_MS} ms: ${latencyHolds ? 'holds' : 'DOES NOT HOLD'} (${latency.p99.toFixed(0)} ms${unstored ? `; ${unstored} never stored` : ''}); ${Math.round((Date.now() - started) / 1000)} s in all`,
    );
    reportHeadline(
      'xp',
      `worker ${workerRate.toFixed(0)} msg/s to Postgres vs bare discord.js ${baselineRate.toFixed(0)} msg/s (${ratio(workerRate, baselineRate)}, goal >= ${RATIO_GOAL.toFixed(2)}x); p99 post->stored ${latency.p99.toFixed(0)} ms at ${rate}/s (goal <= ${P99_GOAL_MS}); Redis ${mb(buffered)} per 100k members with cooldown + buffer, ${mb(cooldownOnly)} after flush: ${ratioHolds && latencyHolds ? 'holds' : 'does not hold'}`,
    );
    if (!ratioHolds || !latencyHolds || !memoryOk) process.exitCode = 1;
  } finally {
    await close();
  }
}

if (process.argv.includes(SANDBOX_FLAG)) await sandboxChild();
else await main();
