/**
 * Personality roles' refresh in steady state: `personality-roles.refresh` for GUILDS configured
 * guilds, in jobs per second, beside a no-op job on the same queue drained by the same worker
 * (same process, same concurrency) in the same run; and the Discord writes the refreshes made,
 * which must be none. Goal: at least 0.80x the no-op rate (GOAL), 0 writes.
 *
 * The real worker (`startWorker`, every feature) runs in this process against a sandbox in a
 * child process (Discord is another machine in production; in-process, the sandbox's work
 * answering the refresh's REST read would be billed to the worker's event loop). Each guild has
 * a text channel, @everyone, the bot's role (Manage Roles), the bot as member and a role per
 * catalog option. Postgres has each guild as Initialize and a first Post leave it: configured,
 * that channel, messages posted, the catalog seeded (`seedPersonalityCatalog`, all questions
 * enabled), every option's role id stored. The 81 roles per guild come with the fixture: made by
 * the generate job they would be 81,000 REST creates, minutes on a small machine, and Discord's
 * side is the same either way. At start the worker gives each configured guild its 5-minute
 * scheduler, whose first run comes at once: that real refresh posts the guild's messages (with
 * discord.js' global REST limit lifted, or 10,000 posts would take minutes). From then on a
 * refresh has nothing to repair; the measured phases run with the limit as the product has it.
 *
 * Baseline: a job name whose handler returns at once (a probe feature takes PROBE_JOB, a stub
 * nothing else queues here, from its owner). It goes through the same dispatch as the refresh
 * (payload check, guild lock, BullMQ bookkeeping), so the ratio shows what the refresh's own
 * work costs. Each phase waits a second for the machine to settle, enqueues PASSES jobs per guild
 * (pass after pass) while the queue is paused, then resumes it; its time runs from the resume to
 * the last job's `finishedOn`. Phases alternate over ROUNDS rounds after a warm-up and the
 * medians count. Each round ends with a diagnostic refresh phase with the REST limit lifted, to
 * show what the refresh costs apart from it. The sandbox's request log gives each phase's REST
 * calls.
 *
 * `personality-refresh.ts --sandbox` is the sandbox child itself.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { GuildJobPayload, JobName, JobResult } from '@spacecadet/contract';
import { PERSONALITY_CATALOG, PERSONALITY_REFRESH_INTERVAL_MS } from '@spacecadet/core';
import { createDb } from '@spacecadet/db';
import { seedPersonalityCatalog } from '@spacecadet/db/queries/personality-roles';
import { personalityConfigs } from '@spacecadet/db/schema';
import { createTestDatabase, type TestDatabase, type TestRedis, testRedis } from '@spacecadet/db/testing';
import type { RestRequestRecord, SandboxFixture, SandboxGuild } from '@spacecadet/discord-sandbox';
import { GUILD_JOB_OPTIONS } from '@spacecadet/queue/guild-jobs';
import { testStackEnv } from '@spacecadet/testing';
import { loadWorkerConfig, type RunningWorker, startWorker } from '@spacecadet/worker';
import { FEATURES, type WorkerFeature } from '@spacecadet/worker/testing';
import { loadBenchEnv, useLocalServices } from '../env.ts';
import { cpuProfiler } from './cpu-profile.ts';
import {
  closeOnStop,
  coresBusy,
  drained,
  logStep,
  machineCpu,
  median,
  printTable,
  producerQueue,
  ratio,
  reportHeadline,
  runBounded,
  startBenchChild,
} from './lib.ts';

/** 1,000 unless BENCH_REFRESH_GUILDS says fewer (env.ts); the goal is stated for 1,000. */
const GUILDS = loadBenchEnv().refreshGuilds;
const ROUNDS = 3;
/** The refresh's rate over the no-op's it must reach (issue 40). */
const GOAL = 0.8;
/** No-op jobs run before measuring (the refresh warm-up covers every guild, see below). */
const WARMUP = 200;
/** discord.js' global requests per second while lifted (the sandbox enforces no limit). */
const UNTHROTTLED = 1_000_000;
/**
 * Each measured phase runs every guild's job this many times: one pass over 1,000 guilds lasts a
 * fifth of a second, too short to measure twice alike.
 */
const PASSES = 3;
/** The pause before each phase (see runPhase). */
const SETTLE_MS = 1_000;
const SANDBOX_FLAG = '--sandbox';
const REFRESH_JOB: JobName = 'personality-roles.refresh';
/** A job nothing else queues in this run; its handler is swapped for a no-op (featuresWithProbe). */
const PROBE_JOB: JobName = 'leveling.resend-overview';
/** What a refresh with nothing to repair says (refresh.ts). */
const NOTHING_TO_REPAIR = 'Everything was in place.';
const OPTIONS = PERSONALITY_CATALOG.flatMap((question, q) =>
  question.options.map((option, o) => ({ label: option.label, q, o })),
);
const QUESTIONS = PERSONALITY_CATALOG.length;

// Snowflakes by kind and index, as in worker-memory.ts; the child and this process agree on them.
const snowflake = (kind: bigint, index: bigint | number): bigint => kind * 10n ** 17n + BigInt(index);
const guildId = (g: number) => snowflake(3n, g).toString();
const channelId = (g: number) => snowflake(6n, g).toString();
const botRoleId = (g: number) => snowflake(4n, g).toString();
/** The role of option `o` of catalog question `q` in guild `g`; the SQL below computes the same. */
const OPTION_ROLE_BASE = snowflake(5n, 0);
const optionRoleId = (g: number, q: number, o: number) =>
  (OPTION_ROLE_BASE + BigInt(g) * 10_000n + BigInt(q) * 100n + BigInt(o)).toString();

/** GUILDS guilds: @everyone, a role per catalog option, the bot's role on top, one text channel. */
async function buildFixture(): Promise<SandboxFixture> {
  const sandbox = await import('@spacecadet/discord-sandbox');
  const fixture = sandbox.defaultFixture();
  const text = fixture.guilds[0]?.channels.find((channel) => channel.type === 0);
  const bot = fixture.users.find((user) => user.bot);
  if (!text || !bot) throw new Error('the default fixture changed shape');
  fixture.guilds = Array.from({ length: GUILDS }, (_, g): SandboxGuild => {
    const id = guildId(g);
    return {
      id,
      name: `Bench Guild ${g}`,
      icon: null,
      owner_id: sandbox.SANDBOX_IDS.users.ada,
      preferred_locale: 'en-US',
      roles: [
        sandbox.makeRole(id, '@everyone', 0, sandbox.EVERYONE_PERMISSIONS),
        ...OPTIONS.map((option, i) =>
          sandbox.makeRole(optionRoleId(g, option.q, option.o), option.label, i + 1, '0'),
        ),
        sandbox.makeBotRole(botRoleId(g), OPTIONS.length + 1, bot.id, sandbox.BOT_ROLE_PERMISSIONS),
      ],
      channels: [{ ...text, id: channelId(g), guild_id: id, name: 'roles', position: 0, parent_id: null }],
      members: [
        { user_id: bot.id, roles: [botRoleId(g)], nick: null, joined_at: '2024-01-15T12:00:00.000Z' },
      ],
    };
  });
  return fixture;
}

/** The child: a sandbox with the bench's world; answers its address over IPC, stops on SIGTERM. */
async function sandboxChild(): Promise<void> {
  const { startSandbox } = await import('@spacecadet/discord-sandbox');
  const sandbox = await startSandbox({ port: 0, fixture: await buildFixture() });
  const stop = () => void sandbox.close().finally(() => process.exit(0));
  process.once('SIGTERM', stop).once('disconnect', stop);
  process.send?.({ bench: 'ready', url: sandbox.url, apiBase: sandbox.apiBase });
}

interface SandboxHandle {
  url: string;
  apiBase: string;
  stop(): Promise<void>;
}

async function startSandboxChild(): Promise<SandboxHandle> {
  const { ready, stop } = await startBenchChild<{ url: string; apiBase: string }>(
    join(import.meta.dirname, 'personality-refresh.ts'),
    SANDBOX_FLAG,
  );
  return { url: ready.url, apiBase: ready.apiBase, stop };
}

/** Turns the sandbox's per-channel message bucket (Discord's 5 posts per 5 s) on or off. */
async function setChannelMessageLimit(sandbox: SandboxHandle, enforced: boolean): Promise<void> {
  const response = await fetch(`${sandbox.url}/_sandbox/route-rate-limits`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ channel_messages: enforced }),
  });
  if (!response.ok) throw new Error(`the sandbox refused the message bucket change: ${response.status}`);
}

/** The REST calls the sandbox recorded after `since`; null when its log (2,000 long) lost some. */
async function requestsSince(sandbox: SandboxHandle, since: number): Promise<RestRequestRecord[] | null> {
  const log = (await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()) as RestRequestRecord[];
  const first = log[0]?.seq ?? since + 1;
  if (first > since + 1) return null;
  return log.filter((request) => request.seq > since);
}

async function lastRequestSeq(sandbox: SandboxHandle): Promise<number> {
  const log = (await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()) as RestRequestRecord[];
  return log.at(-1)?.seq ?? 0;
}

/** Every feature of the worker, with PROBE_JOB handed from its owner to a probe that returns at once. */
function featuresWithProbe(): WorkerFeature[] {
  const features = (FEATURES as readonly WorkerFeature[]).map((feature): WorkerFeature => {
    if (!feature.jobs?.[PROBE_JOB]) return feature;
    const { [PROBE_JOB]: _taken, ...jobs } = feature.jobs;
    return { ...feature, jobs };
  });
  const probe: WorkerFeature = {
    name: 'bench-probe',
    jobs: { [PROBE_JOB]: async () => ({ ok: true, summary: 'no-op' }) },
  };
  return [...features, probe];
}

interface Phase {
  /** `unlimited`: the refresh with discord.js' global REST limit lifted (diagnostic). */
  kind: 'no-op' | 'refresh' | 'unlimited';
  jobs: number;
  seconds: number;
  perSecond: number;
  /** Mean time from a job's start to its end. */
  meanJobMs: number;
  /**
   * CPU time of this process (the worker; the sandbox runs apart) per job. It counts all the
   * process did meanwhile (timers, the bench's polling), so a slower phase's figure runs high.
   */
  cpuMs: number;
  /** The whole machine's busy cores meanwhile: this process, the sandbox child, Redis, Postgres. */
  machineCores: number;
  failed: number;
  /** Refreshes that found something to repair (steady state has none). */
  repaired: number;
  reads: number;
  writes: RestRequestRecord[];
  /** The sandbox's request log overflowed during the phase: some calls went unseen. */
  unseen: boolean;
}

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

function describe(phase: Phase): string {
  const extra = [
    phase.unseen ? 'request log overflowed' : '',
    phase.failed ? `${phase.failed} FAILED` : '',
    phase.repaired ? `${phase.repaired} repaired something` : '',
  ].filter(Boolean);
  return `${phase.kind} ${phase.perSecond.toFixed(0)}/s (${phase.jobs} in ${phase.seconds.toFixed(2)} s, ${phase.meanJobMs.toFixed(1)} ms/job, CPU ${phase.cpuMs.toFixed(2)} ms/job, ${phase.reads} REST reads, ${phase.writes.length} writes${extra.length ? `, ${extra.join(', ')}` : ''})`;
}

async function main(): Promise<void> {
  useLocalServices();
  const started = Date.now();
  console.log(
    `personality-refresh: ${GUILDS} configured guilds (${QUESTIONS} questions, ${OPTIONS.length} option roles each); ${ROUNDS} rounds of ${GUILDS} no-op and ${GUILDS} refresh jobs, alternating, after a warm-up`,
  );
  let sandbox: SandboxHandle | null = null;
  let database: TestDatabase | null = null;
  let redis: TestRedis | null = null;
  let worker: RunningWorker | null = null;
  let producerHandle: ReturnType<typeof producerQueue> | null = null;
  const close = closeOnStop(async () => {
    await producerHandle?.close();
    await worker?.close().catch(() => {});
    await Promise.allSettled([sandbox?.stop(), redis?.close()]);
    await database?.close().catch(() => {});
  });

  try {
    let since = Date.now();
    const sandboxStarting = startSandboxChild();
    [database, redis] = await Promise.all([createTestDatabase('bench_refresh'), testRedis()]);
    // Postgres as Initialize and a first Post leave each guild, with the roles generate would store.
    const { db } = database;
    const guildIds = Array.from({ length: GUILDS }, (_, g) => guildId(g));
    await db.insert(personalityConfigs).values(
      guildIds.map((id, g) => ({
        guildId: id,
        assignChannelId: channelId(g),
        configured: true,
        messagesPosted: true,
      })),
    );
    await runBounded(Math.ceil(GUILDS / 10), 4, (batch) =>
      db.transaction(async (tx) => {
        for (const id of guildIds.slice(batch * 10, batch * 10 + 10)) await seedPersonalityCatalog(tx, id);
      }),
    );
    const admin = createDb(database.url, { max: 1 });
    try {
      const updated = await admin.pool.query(
        `UPDATE personality_options AS o
            SET role_id = ($1::numeric + (o.guild_id::numeric - $2::numeric) * 10000 + q.position * 100 + o.position)::text
           FROM personality_questions AS q
          WHERE q.id = o.question_id`,
        [OPTION_ROLE_BASE.toString(), snowflake(3n, 0).toString()],
      );
      if (updated.rowCount !== GUILDS * OPTIONS.length)
        throw new Error(`stored ${updated.rowCount} option roles, expected ${GUILDS * OPTIONS.length}`);
    } finally {
      await admin.close();
    }
    sandbox = await sandboxStarting;
    logStep('sandbox child, database seeded (Initialize + catalog + role ids), Redis', since);

    // At start the worker makes each configured guild's 5-minute scheduler, whose first run is at
    // once: that first refresh posts the guild's question messages (messages_posted is on).
    since = Date.now();
    // Those 10 posts a guild go to one channel, whose message bucket (5 per 5 s, which the sandbox
    // enforces as Discord does) would make the setup take 1,000 x 5 s / the job concurrency: it
    // is lifted for the setup and put back before the measured rounds (which write nothing).
    await setChannelMessageLimit(sandbox, false);
    const config = loadWorkerConfig(testStackEnv(database, redis, sandbox));
    worker = await startWorker(config, { features: featuresWithProbe() });
    const schedulersDue = Date.now() + PERSONALITY_REFRESH_INTERVAL_MS;
    const held = worker.client.guilds.cache.size;
    if (held !== GUILDS) throw new Error(`the worker holds ${held} guilds, expected ${GUILDS}`);
    // discord.js keeps every client to Discord's global 50 requests/s. Posting 10,000 messages at
    // that pace would take minutes, so the setup goes unthrottled (the sandbox never limits);
    // the measured rounds run with the limit as the product has it.
    const rest = worker.client.rest.options;
    const globalLimit = rest.globalRequestsPerSecond;
    // discord.js reads the limit when its one-second window starts: wait for the next one.
    const setRestLimit = async (perSecond: number) => {
      rest.globalRequestsPerSecond = perSecond;
      await new Promise((resolve) => setTimeout(resolve, 1_100));
    };
    await setRestLimit(UNTHROTTLED);
    producerHandle = producerQueue(redis.url, redis.prefix);
    const producer = producerHandle.queue;
    await drained(producer, 280_000);
    const posted = await countPostedMessages(database.url);
    if (posted !== GUILDS * QUESTIONS) {
      const failed = await producer.getFailed(0, 0);
      throw new Error(
        `${posted} question messages posted, expected ${GUILDS * QUESTIONS}${failed[0] ? `; a failed job: ${failed[0].failedReason}` : ''}`,
      );
    }
    await setRestLimit(globalLimit);
    await setChannelMessageLimit(sandbox, true);
    logStep(
      `worker ready with ${held} guilds (concurrency ${config.jobConcurrency}); first refreshes posted ${posted} messages`,
      since,
    );

    // BENCH_CPU_PROF=<dir>: each kind of phase's CPU profile (cpu-profile.ts).
    const profiler = cpuProfiler(loadBenchEnv().cpuProfDir);
    const runPhase = async (
      kind: Phase['kind'],
      tag: string,
      count = GUILDS,
      passes = PASSES,
    ): Promise<Phase> => {
      const handle = sandbox as SandboxHandle;
      // Pass after pass over the guilds: a guild's next job comes `count` jobs after its last,
      // long finished, so none waits on its guild's lock.
      const jobs = Array.from({ length: passes }, (_, pass) =>
        guildIds.slice(0, count).map((id) => ({
          name: kind === 'no-op' ? PROBE_JOB : REFRESH_JOB,
          data: { guild_id: id, requested_by: null } satisfies GuildJobPayload,
          opts: { ...GUILD_JOB_OPTIONS, jobId: `bench.${tag}.${pass}.${id}` },
        })),
      ).flat();
      // A second's quiet first: the tail of the phase before (BullMQ removing its finished jobs,
      // a GC) would otherwise land in this one's fraction of a second. Without it, a refresh
      // phase run right after a no-op one measured some 10 % below one run after the pause the
      // REST limit's change makes.
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const seq = await lastRequestSeq(handle);
      // Enqueued while paused, so the clock runs for the worker's draining only.
      await producer.pause();
      await producer.addBulk(jobs);
      const start = Date.now();
      const cpu = process.cpuUsage();
      const machine = machineCpu();
      await profiler.around(tag.startsWith('warmup') ? 'warmup' : kind, async () => {
        await producer.resume();
        await drained(producer, 120_000);
      });
      const { user, system } = process.cpuUsage(cpu);
      const machineCores = coresBusy(machine, machineCpu());
      const done = await Promise.all(jobs.map((job) => producer.getJob(job.opts.jobId)));
      const finished = done.flatMap((job) => (job?.finishedOn && job.processedOn ? [job] : []));
      const seconds = (Math.max(...finished.map((job) => job.finishedOn ?? 0)) - start) / 1000;
      const requests = await requestsSince(handle, seq);
      return {
        kind,
        jobs: jobs.length,
        seconds,
        perSecond: jobs.length / seconds,
        cpuMs: (user + system) / 1000 / jobs.length,
        machineCores,
        meanJobMs:
          sum(finished.map((job) => (job.finishedOn ?? 0) - (job.processedOn ?? 0))) / finished.length,
        failed: jobs.length - finished.filter((job) => !job.failedReason).length,
        repaired:
          kind !== 'no-op'
            ? finished.filter((job) => (job.returnvalue as JobResult | null)?.summary !== NOTHING_TO_REPAIR)
                .length
            : 0,
        reads: requests?.filter((request) => request.method === 'GET').length ?? Number.NaN,
        writes: requests?.filter((request) => request.method !== 'GET') ?? [],
        unseen: requests === null,
      };
    };

    since = Date.now();
    const warmup = [
      await runPhase('no-op', 'warmup-noop', WARMUP, 1),
      // Steady state: every guild refreshed once since its setup last changed (its messages were
      // posted by the setup's refresh), as the 5-minute schedule leaves it.
      await runPhase('refresh', 'warmup-refresh', GUILDS, 1),
    ];
    console.log(`  warm-up: ${warmup.map(describe).join('; ')}`);
    const phases: Phase[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      // Which goes first alternates, so a drift in machine load falls on both alike.
      const order: Array<Phase['kind']> = round % 2 === 0 ? ['no-op', 'refresh'] : ['refresh', 'no-op'];
      for (const kind of order) phases.push(await runPhase(kind, `r${round}-${kind}`));
      // Where the refresh's time goes apart from that limit: the same jobs with it lifted.
      await setRestLimit(UNTHROTTLED);
      phases.push(await runPhase('unlimited', `r${round}-unlimited`));
      await setRestLimit(globalLimit);
      for (const phase of phases.slice(-3)) console.log(`  round ${round + 1}: ${describe(phase)}`);
    }
    logStep('measured', since);
    for (const file of await profiler.write()) console.log(`  CPU profile: ${file}`);
    if (Date.now() >= schedulersDue)
      throw new Error("the schedulers' next runs came during the measurement: it took too long to be clean");

    const noop = phases.filter((phase) => phase.kind === 'no-op');
    const refresh = phases.filter((phase) => phase.kind === 'refresh');
    const unlimited = phases.filter((phase) => phase.kind === 'unlimited');
    const unlimitedRate = median(unlimited.map((phase) => phase.perSecond));
    const noopRate = median(noop.map((phase) => phase.perSecond));
    const refreshRate = median(refresh.map((phase) => phase.perSecond));
    // Correctness counts every phase after the setup: warm-up and diagnostic too.
    const everyPhase = [...warmup, ...phases];
    const everyRefresh = everyPhase.filter((phase) => phase.kind !== 'no-op');
    const writes = everyRefresh.flatMap((phase) => phase.writes);
    const unseen = everyRefresh.some((phase) => phase.unseen);
    const failed = sum(everyPhase.map((phase) => phase.failed));
    const repaired = sum(everyRefresh.map((phase) => phase.repaired));
    const readsPer = (list: Phase[]) =>
      (sum(list.map((p) => p.reads)) / sum(list.map((p) => p.jobs))).toFixed(2);
    const holds = refreshRate >= GOAL * noopRate && writes.length === 0 && !unseen;

    printTable([
      [
        'job (median of rounds)',
        'jobs/s',
        'rounds',
        'ms/job',
        'CPU ms/job',
        `machine cores busy (of ${availableParallelism()})`,
        'ratio',
        'REST reads/job',
        'Discord writes',
      ],
      [
        'baseline: no-op job',
        noopRate.toFixed(0),
        noop.map((phase) => phase.perSecond.toFixed(0)).join(' '),
        median(noop.map((phase) => phase.meanJobMs)).toFixed(1),
        median(noop.map((phase) => phase.cpuMs)).toFixed(2),
        median(noop.map((phase) => phase.machineCores)).toFixed(2),
        '1.00x',
        readsPer(noop),
        String(sum(noop.map((phase) => phase.writes.length))),
      ],
      [
        'personality-roles.refresh',
        refreshRate.toFixed(0),
        refresh.map((phase) => phase.perSecond.toFixed(0)).join(' '),
        median(refresh.map((phase) => phase.meanJobMs)).toFixed(1),
        median(refresh.map((phase) => phase.cpuMs)).toFixed(2),
        median(refresh.map((phase) => phase.machineCores)).toFixed(2),
        ratio(refreshRate, noopRate),
        readsPer(refresh),
        String(sum(refresh.map((phase) => phase.writes.length))),
      ],
      [
        'diagnostic: refresh, no REST limit',
        unlimitedRate.toFixed(0),
        unlimited.map((phase) => phase.perSecond.toFixed(0)).join(' '),
        median(unlimited.map((phase) => phase.meanJobMs)).toFixed(1),
        median(unlimited.map((phase) => phase.cpuMs)).toFixed(2),
        median(unlimited.map((phase) => phase.machineCores)).toFixed(2),
        ratio(unlimitedRate, noopRate),
        readsPer(unlimited),
        String(sum(unlimited.map((phase) => phase.writes.length))),
      ],
    ]);
    if (writes.length > 0) {
      const kinds = new Map<string, number>();
      for (const write of writes) {
        const key = `${write.method} ${write.path.replace(/\d{15,}/g, ':id')}`;
        kinds.set(key, (kinds.get(key) ?? 0) + 1);
      }
      console.log(`  writes: ${[...kinds].map(([key, n]) => `${n} x ${key}`).join(', ')}`);
    }
    console.log(
      `  REST: the refresh reads ${readsPer(refresh)} times per job; at ${refreshRate.toFixed(0)} jobs/s that is ${(refreshRate * Number(readsPer(refresh))).toFixed(0)} requests/s against discord.js' global limit of ${globalLimit}/s`,
    );
    console.log(
      `  goal: refresh >= ${GOAL.toFixed(2)}x the no-op rate with 0 Discord writes: ${holds ? 'holds' : 'DOES NOT HOLD'} (${ratio(refreshRate, noopRate)}; ${writes.length}${unseen ? '+ (request log overflowed)' : ''} writes in ${sum(everyRefresh.map((phase) => phase.jobs))} refreshes)${failed ? `; ${failed} jobs failed` : ''}${repaired ? `; ${repaired} refreshes repaired something` : ''}`,
    );
    console.log(
      `  each guild: all ${QUESTIONS} questions enabled; its ${OPTIONS.length} roles come with the fixture (not made by generate), its ${QUESTIONS} messages were posted by its first refresh; discord.js global REST limit ${globalLimit}/s; ${Math.round((Date.now() - started) / 1000)} s in all`,
    );
    reportHeadline(
      'personality-refresh',
      `${GUILDS} guilds: refresh ${refreshRate.toFixed(0)} jobs/s vs no-op ${noopRate.toFixed(0)} jobs/s (${ratio(refreshRate, noopRate)}, goal >= ${GOAL.toFixed(2)}x), Discord writes ${writes.length}${unseen ? '+' : ''}: ${holds ? 'holds' : 'does not hold'}; ${unlimitedRate.toFixed(0)} jobs/s (${ratio(unlimitedRate, noopRate)}) without the ${globalLimit}/s REST limit`,
    );
    // A missed goal fails the run, as in the other benches; so do writes, failures and repairs.
    if (!holds || failed > 0 || repaired > 0) process.exitCode = 1;
  } finally {
    await close();
  }
}

/** Question messages recorded in Postgres. */
async function countPostedMessages(url: string): Promise<number> {
  const handle = createDb(url, { max: 1 });
  try {
    const result = await handle.pool.query<{ n: string }>(
      'SELECT count(*) AS n FROM personality_questions WHERE message_id IS NOT NULL',
    );
    return Number(result.rows[0]?.n ?? 0);
  } finally {
    await handle.close();
  }
}

if (process.argv.includes(SANDBOX_FLAG)) await sandboxChild();
else await main();
