// First: the repo's .env is read before any module looks at the environment.
import '@spacecadet/contract/env-file';
import { EnvError, redisKeyPrefix } from '@spacecadet/contract';
import { stopOnSignals } from '@spacecadet/runtime/process-stop';
import { createRedisClient } from '@spacecadet/runtime/redis-client';
import { pino } from 'pino';
import { loadProxyConfig } from './env.ts';
import { startDiscordProxy } from './proxy.ts';

/** In-flight requests get this long after SIGTERM (a request waiting out a limit is retried by its sender). */
const SHUTDOWN_DEADLINE_MS = 10_000;

/** `pnpm --filter @spacecadet/discord-proxy start`. Stops cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadProxyConfig>;
  try {
    config = loadProxyConfig();
  } catch (error) {
    if (error instanceof EnvError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = pino({ name: 'discord-proxy', level: config.logLevel, base: { service: 'discord-proxy' } });
  const { lease } = config;
  // Commands fail fast while Redis is away, so a holder that cannot renew notices within its TTL.
  const redis = lease
    ? createRedisClient(lease.redisUrl, lease.redisClusterNodes, {
        keyPrefix: redisKeyPrefix(lease.redisPrefix),
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        connectionName: 'discord-proxy',
        lazyConnect: true,
      })
    : null;
  redis?.on('error', (error) => logger.warn({ err: error }, 'Redis connection error'));
  // Not reachable at start: the proxy starts standing by (unknown) and takes the lease once it is.
  if (redis) await redis.connect().catch(() => {});
  const proxy = await startDiscordProxy({
    upstream: config.upstream,
    host: config.host,
    port: config.port,
    invalidRequestBudget: config.invalidRequestBudget,
    globalRequestsPerSecond: config.globalRequestsPerSecond,
    metrics: config.metrics.port === null ? null : { ...config.metrics, port: config.metrics.port },
    logger,
    lease: lease && redis ? { redis, advertiseUrl: lease.advertiseUrl, ttlMs: lease.ttlMs } : null,
  });
  logger.info(
    {
      url: proxy.url,
      upstream: config.upstream,
      metrics: proxy.metricsUrl,
      lease: lease ? { advertised: lease.advertiseUrl, active: proxy.active() } : null,
    },
    'Discord proxy listening',
  );
  stopOnSignals({
    logger,
    close: async () => {
      await proxy.close();
      redis?.disconnect();
    },
    deadlineMs: SHUTDOWN_DEADLINE_MS,
    messages: {
      repeated: 'still closing connections',
      immediate: 'exiting at once; senders retry their requests',
      deadline: `connections not closed within ${SHUTDOWN_DEADLINE_MS / 1000} s; exiting`,
    },
  });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `discord proxy failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
