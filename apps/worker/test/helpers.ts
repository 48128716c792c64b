import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { bullPrefix, type JobName, jobIdFor, redisKeyPrefix } from '@spacecadet/contract';
import { colorPanels } from '@spacecadet/db';
import { createTestDatabase, type TestDatabase, type TestRedis, testRedis } from '@spacecadet/db/testing';
import {
  defaultFixture,
  SANDBOX_IDS,
  type Sandbox,
  type SandboxFixture,
  type SandboxStateDump,
  startSandbox,
} from '@spacecadet/discord-sandbox';
import { JobQueues } from '@spacecadet/queue/job-queues';
import { testStackEnv, waitFor } from '@spacecadet/testing';
import { type Job, Queue } from 'bullmq';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { loadWorkerConfig, type WorkerConfig } from '../src/env.ts';
import type { GuildSetupCache } from '../src/guild-setup-cache.ts';

export { SANDBOX_IDS };
export const STATION = SANDBOX_IDS.guilds.station;

/** A key as stored in Redis, for a test client without the apps' `keyPrefix`. */
export function storedKey(harness: Harness, key: string): string {
  return `${redisKeyPrefix(harness.redis.prefix)}${key}`;
}

/** Polls until a check gives a value (`@spacecadet/testing`, with its generous 60 s deadline). */
export { waitFor };

let markers = 0;

/**
 * Resolves once every worker running in this process has heard of what was written to Postgres
 * before the call, so its copy of a guild's setup (`cache`) is not stale: announces a made-up
 * guild on the cache's NOTIFY `channel` and waits until it is heard (announcements arrive in
 * commit order), announcing again on each poll in case a listening connection was reconnecting.
 */
export async function setupChangesHeard(
  harness: Harness,
  cache: Pick<GuildSetupCache<unknown>, 'heard'>,
  channel: string,
): Promise<void> {
  markers += 1;
  const marker = `9${String(markers).padStart(17, '0')}`;
  await waitFor(`the workers to hear the changes on ${channel}`, async () => {
    if (cache.heard(marker) > 0) return true;
    await harness.database.db.execute(sql`select pg_notify(${channel}, ${marker})`);
    return undefined;
  });
}

export interface Harness {
  sandbox: Sandbox;
  database: TestDatabase;
  redis: TestRedis;
  /** Env for the worker (also for a child process). */
  env: Record<string, string>;
  config(overrides?: Record<string, string>): WorkerConfig;
  close(): Promise<void>;
}

/**
 * How long the sandbox waits for a first answer to a click (and takes one). Discord's 3 s is a
 * latency goal, which `pnpm bench click-latency` measures; a functional test checks that every
 * click was answered, and before its work was done, so a machine busy with other work (150 clicks
 * at once in one process beside two CPU-bound ones) does not fail it. A test of the window itself
 * passes Discord's own (INTERACTION_ANSWER_WINDOW_MS).
 */
export const TEST_ANSWER_WINDOW_MS = 20_000;

/**
 * The least time between two IDENTIFYs of one bucket, agreed by the sandbox and the worker in
 * tests: Discord's 5 s would add up to 5.5 s to each of the many tests that start a worker again
 * (a worker per test in several files). identify-throttle.test.ts checks the real spacing.
 */
export const TEST_IDENTIFY_INTERVAL_MS = 250;

/** A sandbox, a fresh migrated database and a Redis prefix, all private to the calling file. */
export async function startHarness(
  fixture?: SandboxFixture,
  { answerWindowMs = TEST_ANSWER_WINDOW_MS }: { answerWindowMs?: number } = {},
): Promise<Harness> {
  const [sandbox, database, redis] = await Promise.all([
    startSandbox({
      port: 0,
      interactionTimeoutMs: answerWindowMs,
      identifyIntervalMs: TEST_IDENTIFY_INTERVAL_MS,
      ...(fixture ? { fixture } : {}),
    }),
    createTestDatabase('worker'),
    testRedis(),
  ]);
  const env = {
    ...testStackEnv(database, redis, sandbox),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    JOB_LOCK_DURATION_MS: '2000',
    // Tests that delete roles or messages to set up a state for the job they run must not race
    // the worker's own repair of that delete; repairs.test.ts turns it on.
    REPAIR_DELAY_MS: 'off',
    IDENTIFY_INTERVAL_MS: String(TEST_IDENTIFY_INTERVAL_MS),
  };
  return {
    sandbox,
    database,
    redis,
    env,
    config: (overrides = {}) => loadWorkerConfig({ ...env, ...overrides }),
    async close() {
      await Promise.allSettled([sandbox.close(), database.close(), redis.close()]);
    },
  };
}

/** The sandbox control API (what a member or a test does in the fake Discord). */
export function control(sandbox: Sandbox) {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${sandbox.url}${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} -> ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }
  async function botRest<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${sandbox.apiBase}/v10${path}`, {
      method,
      headers: { authorization: 'Bot sandbox-bot-token', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} -> ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }
  return {
    /** Any `/_sandbox/*` control call, its JSON answer parsed (throws on an error status). */
    call,
    state: (): SandboxStateDump => sandbox.state(),
    click: (input: ClickInput) => call<ClickResult>('POST', '/_sandbox/interactions', input),
    /** A member running one of the bot's slash commands (`name` "xp set" runs a subcommand). */
    command: (input: {
      guild_id: string;
      channel_id: string;
      user_id: string;
      name: string;
      options?: Record<string, string>;
    }) => call<ClickResult>('POST', '/_sandbox/commands', input),
    postMessage: (input: { guild_id: string; channel_id: string; author_id: string; content: string }) =>
      call<{ id: string }>('POST', '/_sandbox/messages', input),
    fault: (input: { method?: string; path: string; status: number; count: number; retry_after?: number }) =>
      call<unknown>('POST', '/_sandbox/faults', input),
    faults: () => call<Array<{ remaining: number }>>('GET', '/_sandbox/faults'),
    clearFaults: () => call<unknown>('DELETE', '/_sandbox/faults'),
    closeGateway: (body: Record<string, unknown> = {}) =>
      call<unknown>('POST', '/_sandbox/gateway/close', body),
    /** Installs the bot on a guild through the OAuth2 bot-install flow, approving as `userId`. */
    async installBot(guildId: string, userId: string = SANDBOX_IDS.users.ada): Promise<number> {
      const query = new URLSearchParams({
        client_id: SANDBOX_IDS.app,
        scope: 'bot',
        permissions: '8',
        guild_id: guildId,
        sandbox_user: userId,
      });
      const response = await fetch(`${sandbox.url}/oauth2/authorize?${query}`, { redirect: 'manual' });
      await response.text();
      return response.status;
    },
    botRest,
  };
}

export interface ClickInput {
  guild_id: string;
  channel_id: string;
  message_id: string;
  user_id: string;
  custom_id: string;
  values?: string[];
}

export interface ClickResult {
  interaction_id: string;
  responded: boolean;
  /** The message the first answer shows (an ephemeral answer lives only here). */
  message: { id: string } | null;
  elapsed_ms: number;
  response: { type: number; data?: { content?: string; flags?: number; components?: unknown[] } } | null;
}

/** What a click's answer ended up showing the member. */
export interface FinalMessage {
  id: string;
  content: string;
  components: Array<{ components?: Array<{ custom_id?: string }> }>;
}

/**
 * The message a click's answer ended with: the first answer's, or, when the click was deferred
 * (answer first, then the role change), what the worker edited into it afterwards; when the
 * first answer updated the clicked message instead (a role menu's select), the private message
 * that followed it.
 */
export function finalMessage(
  sandbox: Sandbox,
  result: ClickResult,
  timeoutMs = 10_000,
): Promise<FinalMessage> {
  return waitFor(
    `the final answer to interaction ${result.interaction_id}`,
    async () => {
      const response = await fetch(`${sandbox.url}/_sandbox/interactions/${result.interaction_id}`);
      const record = (await response.json()) as { original: FinalMessage | null; followups?: FinalMessage[] };
      if (record.original?.content) return record.original;
      return record.followups?.find((message) => message.content);
    },
    timeoutMs,
  );
}

/** The content of `finalMessage`. */
export async function finalAnswer(
  sandbox: Sandbox,
  result: ClickResult,
  timeoutMs = 10_000,
): Promise<string> {
  return (await finalMessage(sandbox, result, timeoutMs)).content;
}

/** A member adds a reaction to a message in the sandbox, as a Discord client does. */
export async function memberReacts(
  sandbox: Sandbox,
  reaction: { guild_id: string; channel_id: string; message_id: string; user_id: string; emoji: string },
): Promise<void> {
  const response = await fetch(`${sandbox.url}/_sandbox/reactions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(reaction),
  });
  if (!response.ok) throw new Error(`reaction -> ${response.status}: ${await response.text()}`);
}

/** InteractionResponseType.DeferredChannelMessageWithSource: "thinking…", edited later. */
export const DEFERRED_CHANNEL_MESSAGE = 5;

export function guildState(sandbox: Sandbox, guildId: string) {
  const guild = sandbox.state().guilds.find((candidate) => candidate.id === guildId);
  if (!guild) throw new Error(`guild ${guildId} not in sandbox state`);
  return guild;
}

export function memberRoles(sandbox: Sandbox, guildId: string, userId: string): string[] {
  return guildState(sandbox, guildId).members.find((member) => member.user_id === userId)?.roles ?? [];
}

/**
 * The guild a job id of ours names: its first snowflake part (`<name>.<guild>`, maybe followed by
 * a suffix or a member and time); undefined for an id naming none.
 */
function guildOfJobId(jobId: string): string | undefined {
  return /\.(\d{17,20})(?:\.|$)/.exec(jobId)?.[1];
}

/**
 * A producer like the API's: same queues, same prefix, deterministic job ids. `queue` is shard
 * 0's (every guild's with one shard); `queues` the shard queues, a guild's jobs in its shard's.
 */
export function jobQueue(
  harness: Harness,
  shardCount = 1,
  /** The queues' Redis (a cluster's, for a worker on one); default the harness's. */
  connection: Redis = new Redis(harness.redis.url, { maxRetriesPerRequest: null }),
) {
  const queues = new JobQueues(
    shardCount,
    // biome-ignore lint/suspicious/noExplicitAny: a test producer, typed as loosely as BullMQ's default Queue.
    (name): Queue<any, any, string> =>
      new Queue(name, { connection, prefix: bullPrefix(harness.redis.prefix) }),
  );
  const queue = queues.forShard(0);
  // With one shard every job is in shard 0's queue, whatever its id.
  const queueOf = (jobId: string) => {
    const guildId = guildOfJobId(jobId);
    if (guildId) return queues.forGuild(guildId);
    if (shardCount === 1) return queue;
    throw new Error(`job id ${jobId} names no guild`);
  };
  return {
    queue,
    queues,
    queueOf,
    async add(name: JobName, guildId: string = STATION, requestedBy: string | null = SANDBOX_IDS.users.ada) {
      const queue = queues.forGuild(guildId);
      const jobId = jobIdFor(name, guildId);
      // Like the API: a finished job of the same id is replaced when the action is asked again.
      const previous = await queue.getJob(jobId);
      if (previous && ((await previous.isCompleted()) || (await previous.isFailed())))
        await previous.remove();
      // Each request its own id, as the API gives every job it queues.
      const payload = { guild_id: guildId, requested_by: requestedBy, request_id: `test-${randomUUID()}` };
      return queue.add(name, payload, { jobId, attempts: 3, backoff: { type: 'exponential', delay: 500 } });
    },
    /** Waits for a job to finish; returns its final state and outcome. */
    async finished(jobId: string, timeoutMs = 60_000) {
      return waitFor(
        `job ${jobId} to finish`,
        async () => {
          const queue = queueOf(jobId);
          const state = await queue.getJobState(jobId);
          if (state !== 'completed' && state !== 'failed') return undefined;
          // Read the job after it finished, so its outcome fields are filled in.
          const job: Job | undefined = await queue.getJob(jobId);
          if (!job) return undefined;
          return { state, result: job.returnvalue as unknown, error: job.failedReason, job };
        },
        timeoutMs,
      );
    },
    /**
     * Every job a step queued behind it has finished, so the next step's change is not read by
     * a follow-up of the step before: the reconcile after a post that kept messages, a repair
     * queued by a delete or a cleared reaction, and the first run of a schedule a job created
     * (the 5-minute `role-menus.repair` a post creates: BullMQ starts an `every` scheduler's
     * first run at once), which would otherwise run at some later step and read its state (a
     * repair reading lists saved empty removes the panels itself; one reading a menu deleted
     * before its message was stored drops the row and leaves the message). Only a scheduler's
     * next run, delayed and never started, does not count; a run delayed because the guild was
     * busy has started once, so it does.
     */
    followUpsDone() {
      return waitFor('queued follow-up jobs to finish', async () => {
        const pending = (
          await Promise.all(
            queues.all().map((queue) => queue.getJobs(['active', 'waiting', 'delayed', 'prioritized'])),
          )
        ).flat();
        if (pending.length === 0) return true;
        const states = await Promise.all(pending.map((job) => job.getState()));
        return pending.every(
          (job, i) => job.repeatJobKey !== undefined && states[i] === 'delayed' && job.attemptsStarted === 0,
        );
      });
    },
    async close() {
      await queues.close();
      connection.disconnect();
    },
  };
}

/** The pid in a worker instance name (`<host>-<pid>-<random>`: lease holder, BullMQ worker name). */
export function pidOf(instance: string | null | undefined): number {
  return Number(/-(\d+)-[0-9a-f]+$/.exec(instance ?? '')?.[1] ?? 0);
}

/** The real worker (`src/main.ts`) in a process of its own, as deployed. */
export interface ChildWorker {
  pid: number;
  /** Settles once the process has exited: its exit code, or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What it has logged so far (JSON lines on stdout). */
  log(): string;
  /** Sends `signal` and returns at once: what the worker does about it is the test's to watch. */
  kill(signal: NodeJS.Signals): void;
  /** Sends `signal` unless the process has exited already, and waits until it has. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const workerDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * Spawns the worker with the harness's env (and `env` over it) and resolves once its BullMQ
 * worker listens on the queue, or it says it stands by (its shards run elsewhere). node itself runs it, tsx as a loader, so a signal reaches the
 * worker (killing a `tsx` wrapper would leave its node child running). The ready deadline only
 * catches a hang: tsx compiles the worker first, beside whatever else the machine runs.
 */
export async function startChildWorker(
  harness: Harness,
  env: Record<string, string> = {},
): Promise<ChildWorker> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: workerDir,
    // At least warnings, kept in `log` (not printed): standing by is said at warn level.
    env: {
      ...process.env,
      ...harness.env,
      ...(harness.env.LOG_LEVEL === 'silent' ? { LOG_LEVEL: 'warn' } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  const worker: ChildWorker = {
    pid: child.pid ?? 0,
    exited,
    log: () => log,
    kill: (signal) => {
      child.kill(signal);
    },
    async stop(signal = 'SIGKILL') {
      if (running()) child.kill(signal);
      await exited;
    },
  };
  const jobs = jobQueue(harness);
  try {
    const outcome = await waitFor(
      'the child worker to listen',
      async () => {
        if (!running()) return 'exited';
        // A process whose shards another live one runs stands by: it takes no jobs until it
        // takes a shard over (jobs follow their shards), and says so.
        if (/stands by/.test(log)) return 'standing by';
        const listening = await jobs.queue.getWorkers();
        return listening.some((client) => pidOf(client.rawname) === worker.pid) ? 'listening' : undefined;
      },
      120_000,
    );
    if (outcome === 'exited') {
      throw new Error(`the child worker exited (${child.exitCode ?? child.signalCode}) before it listened`);
    }
    return worker;
  } catch (error) {
    await worker.stop();
    throw error;
  } finally {
    await jobs.close();
  }
}

/**
 * What an admin does before members can click: a colour panel for Sandbox Station's #roles,
 * its roles generated and the panel posted by the running worker. Returns the panel's message id.
 */
export async function postStationColorPanel(harness: Harness): Promise<string> {
  await harness.database.db
    .insert(colorPanels)
    .values({ guildId: STATION, channelId: SANDBOX_IDS.channels.roles });
  const jobs = jobQueue(harness);
  try {
    for (const name of ['color-roles.generate', 'color-roles.post-panel'] as const) {
      const outcome = await jobs.finished((await jobs.add(name)).id ?? '');
      if (outcome.state !== 'completed') throw new Error(`${name} ${outcome.state}: ${outcome.error}`);
    }
  } finally {
    await jobs.close();
  }
  const [panel] = await harness.database.db.select().from(colorPanels);
  if (!panel?.messageId) throw new Error('post-panel stored no message id');
  return panel.messageId;
}

/**
 * Makes Discord answer the member's next role change (`method`) with a 429 for `seconds`.
 * Returns a wait for that change to have been tried and held up.
 */
export async function holdNextRoleChange(
  harness: Harness,
  userId: string,
  method: 'PUT' | 'DELETE',
  seconds: number,
): Promise<() => Promise<void>> {
  const before = harness.sandbox.world.requests.at(-1)?.seq ?? 0;
  await control(harness.sandbox).fault({
    method,
    path: `/guilds/${STATION}/members/${userId}/roles/`,
    status: 429,
    count: 1,
    retry_after: seconds,
  });
  return async () => {
    await waitFor(`the held ${method} of ${userId}'s role`, () =>
      harness.sandbox.world.requests.some(
        (request) => request.seq > before && request.method === method && request.status === 429,
      ),
    );
  };
}

/**
 * The default world plus a crowd of Sandbox Station members without a color, with ids
 * `<idPrefix>` followed by their index (10 digits of prefix make a snowflake-sized id).
 */
export function stationWithCrowd(
  idPrefix: string,
  count: number,
  username: string,
): { fixture: SandboxFixture; crowd: string[] } {
  const fixture = defaultFixture();
  const station = fixture.guilds.find((guild) => guild.id === STATION);
  if (!station) throw new Error('fixture changed: no Sandbox Station');
  const crowd = Array.from({ length: count }, (_, i) => `${idPrefix}${String(i).padStart(8, '0')}`);
  for (const [i, id] of crowd.entries()) {
    fixture.users.push({
      id,
      username: `${username}${i}`,
      discriminator: '0',
      global_name: null,
      avatar: null,
    });
    station.members.push({ user_id: id, roles: [], nick: null, joined_at: '2024-01-01T00:00:00.000Z' });
  }
  return { fixture, crowd };
}

/**
 * Every fixture guild lands on shard 0 of 2 (their ids differ only below bit 22), so sharding
 * tests add "Far Orbit", whose id routes to shard 1.
 */
export const FAR_ORBIT = {
  guild: '300000000002228227',
  channel: '300000000002228228',
  botRole: '300000000002228229',
};

export function fixtureWithFarOrbit(): SandboxFixture {
  const fixture = defaultFixture();
  const orbit = fixture.guilds.find((guild) => guild.id === SANDBOX_IDS.guilds.orbit);
  const [everyone, botRole] = orbit?.roles ?? [];
  const [hangar] = orbit?.channels ?? [];
  if (!orbit || !everyone || !botRole || !hangar)
    throw new Error('fixture changed: Other Orbit not as expected');
  fixture.guilds.push({
    ...orbit,
    id: FAR_ORBIT.guild,
    name: 'Far Orbit',
    roles: [
      { ...everyone, id: FAR_ORBIT.guild },
      { ...botRole, id: FAR_ORBIT.botRole },
    ],
    channels: [{ ...hangar, id: FAR_ORBIT.channel, guild_id: FAR_ORBIT.guild }],
    members: orbit.members.map((member) =>
      member.user_id === SANDBOX_IDS.bot ? { ...member, roles: [FAR_ORBIT.botRole] } : { ...member },
    ),
  });
  return fixture;
}
