/**
 * The guarded read path against bare Fastify, both loaded the same way in one run.
 *
 * - `api-read.ts --api` (a child process): the real API (every plugin: CORS, helmet, the rate
 *   limiter, the session and guild guard) on a fresh database, signed in as ada through the
 *   sandbox. It hands back the URL and the bearer token.
 * - `api-read.ts --bare` (another child): a hello-world started from the API's own `fastify`
 *   package, nothing registered but one route. The ceiling for a Fastify route on this machine.
 * - This process: autocannon at 50 connections against `GET /api/guilds/:id/config` (authorized,
 *   so it passes the whole guard) and against the bare route, in alternating rounds so load from
 *   other processes falls on both alike.
 *
 * - Diagnostic: `GET /healthz` on the API in the same rounds: every hook an answer passes around a
 *   route with no guard, no database and no rate limit. The config read beside it is what the
 *   guard and the read cost; the floor beside bare Fastify is what the API's plugins cost.
 *
 * Goal: the config read serves at least 0.60x the bare route's requests/s, with p99 at most 15 ms.
 */
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import autocannon from 'autocannon';
import { loadBenchEnv } from '../env.ts';
import { startCpuProfile, writeCpuProfile } from './cpu-profile.ts';
import {
  closeOnStop,
  coresBusy,
  machineCpu,
  printTable,
  processCpuSeconds,
  ratio,
  repoRoot,
  reportHeadline,
  startBenchChild,
} from './lib.ts';
import { startStack } from './stack.ts';

const API_FLAG = '--api';
const BARE_FLAG = '--bare';
const GUILD = SANDBOX_IDS.guilds.station;
const CONFIG_PATH = `/api/guilds/${GUILD}/config`;
const HEALTH_PATH = '/healthz';
const GOAL_RATIO = 0.6;
const GOAL_P99_MS = 15;

const benchEnv = loadBenchEnv();
const { connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS } = benchEnv.api;

interface Ready {
  url: string;
  authorization?: string;
}

/** BENCH_CPU_PROF (a directory): this child's CPU profile from set-up's end until the bench stops it. */
async function profileChild(name: 'api' | 'bare') {
  const dir = benchEnv.cpuProfDir;
  if (dir === undefined) return null;
  const profile = await startCpuProfile();
  return { stop: async () => writeCpuProfile(join(dir, `${name}.cpuprofile`), await profile.stop()) };
}

/** The API child: the whole stack in this process, signed in, a stored config to read. */
async function apiChild(): Promise<void> {
  const stack = await startStack({ withWorker: false });
  const authorization = await stack.signIn(SANDBOX_IDS.users.ada);
  await stack.api('PUT', CONFIG_PATH, authorization, { prefix: '!', welcome: { enabled: true } });
  const profile = await profileChild('api');
  process.send?.({ url: stack.apiUrl, authorization } satisfies Ready);
  process.once('SIGTERM', async () => {
    await profile?.stop();
    await stack.close().finally(() => process.exit(0));
  });
}

/** What the bare child uses of a Fastify instance (the scripts do not depend on fastify). */
interface BareFastify {
  get(path: string, handler: () => Promise<unknown>): void;
  listen(options: { port: number; host: string }): Promise<string>;
  server: { address(): AddressInfo | string | null };
  close(): Promise<void>;
}

/** The bare child: the `fastify` the API itself resolves, one JSON route. */
async function bareChild(): Promise<void> {
  const requireFromApi = createRequire(join(repoRoot, 'apps', 'api', 'package.json'));
  const { default: Fastify } = (await import(requireFromApi.resolve('fastify'))) as {
    default: (options: { logger: boolean }) => BareFastify;
  };
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const profile = await profileChild('bare');
  process.send?.({ url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` } satisfies Ready);
  process.once('SIGTERM', async () => {
    await profile?.stop();
    await app.close().finally(() => process.exit(0));
  });
}

interface Load {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU seconds the serving child used meanwhile. */
  cpu: number;
  /** Core-seconds the whole machine was busy meanwhile (autocannon, the child, Postgres, Redis). */
  machineBusy: number;
}

/** `seconds` of autocannon against `url`, served by the child `pid`. */
function load(
  pid: number | undefined,
  url: string,
  headers: Record<string, string>,
  seconds: number,
): Promise<Load> {
  const cpuBefore = processCpuSeconds(pid);
  const machineBefore = machineCpu();
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: seconds, headers }, (error, result) => {
      if (error) return reject(error);
      const machine = machineCpu();
      resolve({
        machineBusy: coresBusy(machineBefore, machine) * result.duration,
        cpu: processCpuSeconds(pid) - cpuBefore,
        requests: result.requests.total,
        seconds: result.duration,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.timeouts + result.non2xx,
      });
    });
  });
}

/** Rounds merged: total requests over total time; the percentiles of the worst round. */
function merge(rounds: Load[]): Load {
  const total = (pick: (load: Load) => number) => rounds.reduce((sum, round) => sum + pick(round), 0);
  return {
    requests: total((round) => round.requests),
    seconds: total((round) => round.seconds),
    p50: Math.max(...rounds.map((round) => round.p50)),
    p99: Math.max(...rounds.map((round) => round.p99)),
    errors: total((round) => round.errors),
    cpu: total((round) => round.cpu),
    machineBusy: total((round) => round.machineBusy),
  };
}

const perSecond = (result: Load) => result.requests / result.seconds;

async function main(): Promise<void> {
  console.log(
    `api-read: autocannon, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per endpoint (+1 s warm-up each)`,
  );
  const script = join(import.meta.dirname, 'api-read.ts');
  const children: Array<{ stop(): Promise<void> }> = [];
  const close = closeOnStop(async () => {
    await Promise.allSettled(children.map((child) => child.stop()));
  });
  try {
    const api = await startBenchChild<Ready>(script, API_FLAG);
    children.push(api);
    const bare = await startBenchChild<Ready>(script, BARE_FLAG);
    children.push(bare);
    const configUrl = `${api.ready.url}${CONFIG_PATH}`;
    const authHeaders = { authorization: api.ready.authorization ?? '' };

    const bareLoad = (seconds: number) => load(bare.child.pid, bare.ready.url, {}, seconds);
    const configLoad = (seconds: number) => load(api.child.pid, configUrl, authHeaders, seconds);
    // Diagnostic: the API's floor, every hook an answer passes (request id, CORS, security
    // headers, Fastify's own) around a route with no guard, no database and no rate limit.
    const floorLoad = (seconds: number) => load(api.child.pid, `${api.ready.url}${HEALTH_PATH}`, {}, seconds);
    await bareLoad(1);
    await configLoad(1);
    await floorLoad(1);
    const bareRounds: Load[] = [];
    const configRounds: Load[] = [];
    const floorRounds: Load[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      bareRounds.push(await bareLoad(SECONDS));
      configRounds.push(await configLoad(SECONDS));
      floorRounds.push(await floorLoad(SECONDS));
    }
    const base = merge(bareRounds);
    const read = merge(configRounds);
    const floor = merge(floorRounds);
    if (read.errors > 0 || base.errors > 0 || floor.errors > 0)
      throw new Error(
        `errors under load: config read ${read.errors}, bare ${base.errors}, ${HEALTH_PATH} ${floor.errors}`,
      );
    const row = (label: string, result: Load) => [
      label,
      String(result.requests),
      perSecond(result).toFixed(0),
      `${result.p50.toFixed(1)} ms`,
      `${result.p99.toFixed(1)} ms`,
      `${((1e6 * result.cpu) / result.requests).toFixed(0)} µs`,
      (result.machineBusy / result.seconds).toFixed(2),
    ];
    printTable([
      [
        'endpoint',
        'requests',
        'req/s',
        'p50 (worst round)',
        'p99 (worst round)',
        'server CPU/request',
        `machine cores busy (of ${availableParallelism()})`,
      ],
      row('baseline: bare Fastify GET /', base),
      row(`GET ${CONFIG_PATH.replace(GUILD, ':id')}`, read),
      row(`diagnostic: GET ${HEALTH_PATH} (hooks only)`, floor),
    ]);
    console.log(
      `  the API's floor: ${HEALTH_PATH} (every hook, no guard, no database) ${perSecond(floor).toFixed(0)} req/s = ${ratio(perSecond(floor), perSecond(base))} of bare Fastify; the guarded config read is ${ratio(perSecond(read), perSecond(floor))} of it`,
    );
    const throughput = perSecond(read) / perSecond(base);
    const met = throughput >= GOAL_RATIO && read.p99 <= GOAL_P99_MS;
    reportHeadline(
      'api-read',
      `config read ${perSecond(read).toFixed(0)} req/s vs bare Fastify ${perSecond(base).toFixed(0)} req/s = ${ratio(perSecond(read), perSecond(base))} (goal ${GOAL_RATIO.toFixed(2)}x: ${((100 * throughput) / GOAL_RATIO).toFixed(0)} % of it), p50 ${read.p50.toFixed(1)} ms, p99 ${read.p99.toFixed(1)} ms (goal ${GOAL_P99_MS} ms)${met ? '' : ' — GOAL MISSED'}`,
    );
    if (!met) process.exitCode = 1;
  } finally {
    await close();
  }
}

if (process.argv.includes(API_FLAG)) await apiChild();
else if (process.argv.includes(BARE_FLAG)) await bareChild();
else await main();
