import { countAcross } from '@spacecadet/queue/job-queues';
import {
  type CountableQueue,
  type MetricsServer,
  queueDepthGauge,
  startMetricsServer,
} from '@spacecadet/runtime/metrics-server';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ApiConfig } from '../env.ts';

/** The route label of a request no route matched: never the raw URL (one series per URL). */
export const UNMATCHED_ROUTE = 'unmatched';

/** The API's registry and its request histogram (own registry: tests build several apps). */
export function createApiMetrics(queue: CountableQueue, onQueueError: (error: unknown) => void) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'spacecadet_api_' });
  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'API requests by method, route pattern and status, from arrival to the last byte sent',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({ ...queueDepthGauge(queue, onQueueError), registers: [registry] });
  return { registry, requestDuration };
}

/**
 * Prometheus metrics of this app, served on their own listener (`config.metrics`), never on the
 * public port; nothing at all (no hook, no listener) when METRICS_PORT is unset.
 */
export function registerMetrics(app: FastifyInstance, config: ApiConfig): void {
  const { port, host, token } = config.metrics;
  if (port === null) return;
  const { registry, requestDuration } = createApiMetrics(
    countAcross(() => app.services.queue.all()),
    (error) => app.log.warn({ err: error }, 'queue depth not read for /metrics'),
  );

  // The hot path: synchronous, one observe per request.
  app.addHook('onResponse', (request, reply, done) => {
    requestDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? UNMATCHED_ROUTE,
        status_code: reply.statusCode,
      },
      reply.elapsedTime / 1000,
    );
    done();
  });

  let server: MetricsServer | undefined;
  app.addHook('onReady', async () => {
    server = await startMetricsServer(registry, { port, host, token }, (error) =>
      app.log.error({ err: error }, 'metrics collection failed'),
    );
    app.log.info({ url: server.url, token: token !== null }, 'metrics listening');
  });
  app.addHook('onClose', async () => {
    await server?.close();
  });
}
