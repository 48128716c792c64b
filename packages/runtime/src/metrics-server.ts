import { createHash, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the API and the worker both need to serve Prometheus, defined once: the `/metrics`
 * listener (its own port, never the public one, optionally behind a Bearer token) and the queue
 * depth gauge. Typed by shape, so this package needs no prom-client: a prom-client `Registry`
 * and `Gauge` fit.
 */

/** A prom-client Registry fits. */
export interface MetricsRegistry {
  readonly contentType: string;
  metrics(): Promise<string>;
}

/** Each app's `config.metrics`, with the port set (null means no listener at all). */
export interface MetricsListen {
  port: number;
  host: string;
  /** When set, a scrape must send `Authorization: Bearer <token>`. */
  token: string | null;
}

export interface MetricsServer {
  /** Where it listens, e.g. `http://127.0.0.1:9464/metrics`. */
  readonly url: string;
  close(): Promise<void>;
}

/** Hashed so both sides have one length: timingSafeEqual then leaks nothing, not even the length. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function authorized(request: IncomingMessage, expected: Buffer | null): boolean {
  if (expected === null) return true;
  return timingSafeEqual(digest(request.headers.authorization ?? ''), expected);
}

function answer(response: ServerResponse, status: number, body: string, contentType = 'text/plain'): void {
  response.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' });
  response.end(body);
}

/** Listens until `close()`: GET /metrics answers the registry's text, anything else 404. */
export async function startMetricsServer(
  registry: MetricsRegistry,
  listen: MetricsListen,
  onError: (error: unknown) => void = () => {},
): Promise<MetricsServer> {
  const expected = listen.token === null ? null : digest(`Bearer ${listen.token}`);
  const server = createServer((request, response) => {
    if (!authorized(request, expected)) {
      response.setHeader('www-authenticate', 'Bearer');
      return answer(response, 401, 'Unauthorized\n');
    }
    const path = request.url?.split('?', 1)[0];
    if (request.method !== 'GET' || path !== '/metrics') return answer(response, 404, 'Not Found\n');
    registry.metrics().then(
      (text) => answer(response, 200, text, registry.contentType),
      (error: unknown) => {
        onError(error);
        answer(response, 500, 'metrics could not be collected\n');
      },
    );
  });
  // A scraper is a trusted peer on a private network; still, no connection lingers for long.
  server.headersTimeout = 5_000;
  server.requestTimeout = 10_000;
  server.keepAliveTimeout = 5_000;
  server.listen(listen.port, listen.host);
  // A port in use rejects here, so the process does not start without the metrics it was asked for.
  await once(server, 'listening');
  server.on('error', onError);
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/metrics`,
    async close() {
      const closed = once(server, 'close');
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}

/** Queue states that are work still to do (finished jobs are kept only up to JOB_RETENTION). */
export const QUEUE_DEPTH_STATES = [
  'waiting',
  'prioritized',
  'delayed',
  'active',
  'waiting-children',
] as const;

/** A prom-client `Gauge<'state'>` fits. */
export interface QueueDepthTarget {
  reset(): void;
  set(labels: { state: string }, value: number): void;
}

/** A BullMQ Queue fits. */
export interface CountableQueue {
  getJobCounts(...states: Array<(typeof QUEUE_DEPTH_STATES)[number]>): Promise<Record<string, number>>;
}

/** A scrape does not wait longer than this on Redis (the worker's queue connection never gives up). */
const QUEUE_COUNT_TIMEOUT_MS = 2_000;

/**
 * The options of the `queue_jobs{state}` gauge, read at scrape time:
 * `new Gauge({ ...queueDepthGauge(queue, onError), registers: [registry] })`. When Redis does not
 * answer, the scrape still succeeds without the gauge's samples (and `onError` hears why).
 */
export function queueDepthGauge(queue: CountableQueue, onError: (error: unknown) => void) {
  return {
    name: 'queue_jobs',
    help: 'Jobs in the queue by state, read from Redis at scrape time',
    labelNames: ['state'] as const,
    async collect(this: QueueDepthTarget): Promise<void> {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`queue counts took over ${QUEUE_COUNT_TIMEOUT_MS} ms`)),
          QUEUE_COUNT_TIMEOUT_MS,
        );
      });
      try {
        const counts = await Promise.race([queue.getJobCounts(...QUEUE_DEPTH_STATES), timeout]);
        this.reset();
        for (const state of QUEUE_DEPTH_STATES) this.set({ state }, counts[state] ?? 0);
      } catch (error) {
        this.reset();
        onError(error);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
