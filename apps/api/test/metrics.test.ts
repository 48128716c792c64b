import { routes } from '@spacecadet/contract';
import { type PrometheusSample, parsePrometheusSamples } from '@spacecadet/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loadApiConfig } from '../src/app.ts';
import { closedPort, GUILDS, type Harness, signIn, startHarness, testEnv, USERS } from './harness.ts';

const TOKEN = 'metrics-scrape-token-for-tests';

let h: Harness;
let metricsUrl: string;

beforeAll(async () => {
  const port = await closedPort();
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
  h = await startHarness((config) => ({ ...config, metrics: { port, host: '127.0.0.1', token: TOKEN } }));
});
afterAll(async () => {
  await h?.close();
});

async function scrape(url = metricsUrl, token: string | null = TOKEN): Promise<PrometheusSample[]> {
  const response = await fetch(url, token === null ? {} : { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return parsePrometheusSamples(await response.text());
}

function find(
  samples: PrometheusSample[],
  name: string,
  labels: Record<string, string>,
): PrometheusSample | undefined {
  return samples.find(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
}

describe('API /metrics', () => {
  it('is not served on the public port', async () => {
    const response = await h.app.inject({ url: '/metrics' });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('http_request_duration_seconds');
  });

  it('refuses a scrape without the token or with a wrong one', async () => {
    expect((await fetch(metricsUrl)).status).toBe(401);
    const wrong = await fetch(metricsUrl, { headers: { authorization: `Bearer ${TOKEN}-not` } });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain('http_request');
  });

  it('times requests by route pattern and status, never by raw URL', async () => {
    const configPath = routes.getConfig.path;
    const authorization = await signIn(h, USERS.ada);
    for (let i = 0; i < 2; i++) {
      const response = await h.app.inject({
        url: configPath.replace(':guildId', GUILDS.station),
        headers: { authorization },
      });
      expect(response.statusCode).toBe(200);
    }
    expect((await h.app.inject({ url: `/no-such-route/${GUILDS.orbit}` })).statusCode).toBe(404);

    const samples = await scrape();
    const count = find(samples, 'http_request_duration_seconds_count', {
      method: 'GET',
      route: configPath,
      status_code: '200',
    });
    expect(count?.value).toBe(2);
    const sum = find(samples, 'http_request_duration_seconds_sum', { route: configPath, status_code: '200' });
    expect(sum?.value).toBeGreaterThan(0);
    const unmatched = find(samples, 'http_request_duration_seconds_count', {
      route: 'unmatched',
      status_code: '404',
    });
    expect(unmatched?.value).toBeGreaterThanOrEqual(1);
    const routesSeen = samples
      .filter((sample) => sample.name.startsWith('http_request_duration_seconds'))
      .map((sample) => sample.labels.route ?? '');
    expect(routesSeen.some((route) => route.includes(GUILDS.station) || route.includes(GUILDS.orbit))).toBe(
      false,
    );
    // Default process metrics carry the API's prefix.
    expect(samples.some((sample) => sample.name === 'spacecadet_api_process_cpu_seconds_total')).toBe(true);
  });

  it('reports the queue depth by state at scrape time', async () => {
    const queue = h.app.services.queue.forShard(0);
    const before = await queue.getJobCounts('waiting', 'delayed');
    await queue.add('leveling.sync-roles', { guild_id: GUILDS.station, requested_by: null });
    await queue.add(
      'leveling.sync-roles',
      { guild_id: GUILDS.station, requested_by: null },
      { delay: 60_000 },
    );
    const samples = await scrape();
    expect(find(samples, 'queue_jobs', { state: 'waiting' })?.value).toBe((before.waiting ?? 0) + 1);
    expect(find(samples, 'queue_jobs', { state: 'delayed' })?.value).toBe((before.delayed ?? 0) + 1);
    expect(find(samples, 'queue_jobs', { state: 'active' })?.value).toBe(0);
  });

  it('still answers a scrape while Redis is down, without queue samples', async () => {
    const port = await closedPort();
    const config = loadApiConfig({
      ...testEnv(h.database, h.redis, h.sandbox),
      REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
      METRICS_PORT: String(port),
    });
    expect(config.metrics).toEqual({ port, host: '127.0.0.1', token: null });
    const app = await buildApp({ ...config, redisTimeoutMs: 300 }, { logger: false });
    try {
      await app.ready();
      const samples = await scrape(`http://127.0.0.1:${port}/metrics`, null);
      expect(samples.some((sample) => sample.name === 'queue_jobs')).toBe(false);
      expect(samples.some((sample) => sample.name === 'spacecadet_api_process_cpu_seconds_total')).toBe(true);
    } finally {
      await app.close();
    }
    // Closed with the app.
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });

  it('opens no listener when METRICS_PORT is unset', async () => {
    const config = loadApiConfig(testEnv(h.database, h.redis, h.sandbox));
    expect(config.metrics.port).toBeNull();
    const listeners = () =>
      process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;
    const before = listeners();
    const app = await buildApp(config, { logger: false });
    try {
      await app.ready();
      expect(listeners()).toBe(before);
      expect((await app.inject({ url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});
