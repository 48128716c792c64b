import { afterEach, describe, expect, it } from 'vitest';
import {
  type MetricsRegistry,
  type MetricsServer,
  QUEUE_DEPTH_STATES,
  queueDepthGauge,
  startMetricsServer,
} from '../src/metrics-server.ts';

const TEXT = '# HELP up_total a sample\n# TYPE up_total counter\nup_total 1\n';
const registry: MetricsRegistry = {
  contentType: 'text/plain; version=0.0.4; charset=utf-8',
  metrics: async () => TEXT,
};
const TOKEN = 'scrape-token-0123456789';

let server: MetricsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('startMetricsServer', () => {
  it('answers GET /metrics with the registry text and content type, anything else 404', async () => {
    server = await startMetricsServer(registry, { port: 0, host: '127.0.0.1', token: null });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const response = await fetch(server.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(registry.contentType);
    expect(await response.text()).toBe(TEXT);
    expect((await fetch(`${server.url}?x=1`)).status).toBe(200);
    expect((await fetch(server.url.replace('/metrics', '/'))).status).toBe(404);
    expect((await fetch(server.url.replace('/metrics', '/metrics/x'))).status).toBe(404);
    expect((await fetch(server.url, { method: 'POST' })).status).toBe(404);
  });

  it('with a token, refuses a missing or wrong Bearer header with 401', async () => {
    server = await startMetricsServer(registry, { port: 0, host: '127.0.0.1', token: TOKEN });
    const missing = await fetch(server.url);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect(await missing.text()).not.toContain('up_total');
    for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, TOKEN, `Basic ${TOKEN}`]) {
      expect((await fetch(server.url, { headers: { authorization } })).status).toBe(401);
    }
    const allowed = await fetch(server.url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toBe(TEXT);
  });

  it('answers 500 when collecting fails, and reports the error', async () => {
    const errors: unknown[] = [];
    const failing: MetricsRegistry = {
      contentType: 'text/plain',
      metrics: () => Promise.reject(new Error('collector broke')),
    };
    server = await startMetricsServer(failing, { port: 0, host: '127.0.0.1', token: null }, (error) =>
      errors.push(error),
    );
    expect((await fetch(server.url)).status).toBe(500);
    expect(errors).toEqual([new Error('collector broke')]);
  });

  it('fails to start when the port is taken', async () => {
    server = await startMetricsServer(registry, { port: 0, host: '127.0.0.1', token: null });
    const port = Number(new URL(server.url).port);
    await expect(startMetricsServer(registry, { port, host: '127.0.0.1', token: null })).rejects.toThrow(
      /EADDRINUSE/,
    );
  });

  it('close() frees the port and ends kept-alive connections', async () => {
    server = await startMetricsServer(registry, { port: 0, host: '127.0.0.1', token: null });
    const { url } = server;
    expect((await fetch(url)).status).toBe(200);
    await server.close();
    server = undefined;
    await expect(fetch(url)).rejects.toThrow();
  });
});

describe('queueDepthGauge', () => {
  function target() {
    const samples = new Map<string, number>();
    return {
      samples,
      reset: () => samples.clear(),
      set: (labels: { state: string }, value: number) => samples.set(labels.state, value),
    };
  }

  it('sets one sample per pending state from the queue counts', async () => {
    const asked: string[][] = [];
    const gauge = queueDepthGauge(
      {
        getJobCounts: async (...states) => {
          asked.push(states);
          return { waiting: 3, delayed: 2, active: 1 };
        },
      },
      () => {},
    );
    const into = target();
    into.samples.set('stale', 9);
    await gauge.collect.call(into);
    expect(asked).toEqual([[...QUEUE_DEPTH_STATES]]);
    expect(Object.fromEntries(into.samples)).toEqual({
      waiting: 3,
      prioritized: 0,
      delayed: 2,
      active: 1,
      'waiting-children': 0,
    });
  });

  // It resolves at all (the queue never answers), and says after how long it gave up.
  it('gives up on a queue that does not answer, so a scrape never hangs on Redis', async () => {
    const errors: unknown[] = [];
    const gauge = queueDepthGauge({ getJobCounts: () => new Promise(() => {}) }, (error) =>
      errors.push(error),
    );
    const into = target();
    into.samples.set('waiting', 4);
    await gauge.collect.call(into);
    expect(into.samples.size).toBe(0);
    expect(String(errors[0])).toContain('queue counts took over 2000 ms');
  });

  it('leaves no samples and reports the error when Redis fails', async () => {
    const errors: unknown[] = [];
    const gauge = queueDepthGauge(
      { getJobCounts: () => Promise.reject(new Error('Connection is closed.')) },
      (error) => errors.push(error),
    );
    const into = target();
    into.samples.set('waiting', 4);
    await gauge.collect.call(into);
    expect(into.samples.size).toBe(0);
    expect(errors).toEqual([new Error('Connection is closed.')]);
  });
});
