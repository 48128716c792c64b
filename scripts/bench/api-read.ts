/**
 * An authorized read through the whole guild guard (session lookup, cached permissions from
 * Redis, Postgres read): `GET /api/guilds/:id/config`, beside `GET /healthz` on the same API
 * process as the baseline. Fixed count at a fixed concurrency over real HTTP on 127.0.0.1.
 */
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { loadBenchEnv } from '../env.ts';
import { elapsedMs, ms, printTable, ratio, reportHeadline, runBounded, summarize } from './lib.ts';
import { startStack } from './stack.ts';

const { requests: REQUESTS, concurrency: CONCURRENCY } = loadBenchEnv().api;
const WARMUP = 100;
const GUILD = SANDBOX_IDS.guilds.station;

async function main(): Promise<void> {
  console.log(
    `api-read: ${REQUESTS} requests per endpoint (+${WARMUP} warm-up) at concurrency ${CONCURRENCY}`,
  );
  const stack = await startStack({ withWorker: false });
  try {
    const ada = await stack.signIn(SANDBOX_IDS.users.ada);
    const timed = (path: string, auth: string | null) => async () => {
      const start = performance.now();
      const response = await fetch(
        `${stack.apiUrl}${path}`,
        auth ? { headers: { authorization: auth } } : {},
      );
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`GET ${path} -> ${response.status}`);
      return elapsedMs(start);
    };
    const config = timed(`/api/guilds/${GUILD}/config`, ada);
    const health = timed('/healthz', null);

    // The first config read fills the permission cache; the warm-up covers JIT and pools.
    await runBounded(WARMUP, CONCURRENCY, config);
    await runBounded(WARMUP, CONCURRENCY, health);
    // Alternate the two in quarters so load from other processes falls on both alike.
    const configSamples: number[] = [];
    const healthSamples: number[] = [];
    for (let round = 0; round < 4; round += 1) {
      healthSamples.push(...(await runBounded(REQUESTS / 4, CONCURRENCY, health)));
      configSamples.push(...(await runBounded(REQUESTS / 4, CONCURRENCY, config)));
    }
    const base = summarize(healthSamples);
    const read = summarize(configSamples);
    printTable([
      ['endpoint', 'n', 'p50', 'p99', 'max', 'p50 ratio', 'p99 ratio'],
      ['baseline: GET /healthz', String(base.n), ms(base.p50), ms(base.p99), ms(base.max), '1.00x', '1.00x'],
      [
        'GET /api/guilds/:id/config',
        String(read.n),
        ms(read.p50),
        ms(read.p99),
        ms(read.max),
        ratio(read.p50, base.p50),
        ratio(read.p99, base.p99),
      ],
    ]);
    reportHeadline(
      'api-read',
      `config read p50 ${ms(read.p50)} (${ratio(read.p50, base.p50)}), p99 ${ms(read.p99)} (${ratio(read.p99, base.p99)}) vs /healthz p50 ${ms(base.p50)}`,
    );
  } finally {
    await stack.close();
  }
}

await main();
