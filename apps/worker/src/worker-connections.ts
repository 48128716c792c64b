import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { bullPrefix, redisKeyPrefix, workerConnectionName } from '@spacecadet/contract';
import { createDb, type DbHandle } from '@spacecadet/db';
import { countAcross, JobQueues } from '@spacecadet/queue/job-queues';
import type { MetricsServer } from '@spacecadet/runtime/metrics-server';
import { createRedisClient } from '@spacecadet/runtime/redis-client';
import { watchRedisDurability } from '@spacecadet/runtime/redis-durability';
import { Queue } from 'bullmq';
import { type APIUser, type Client, ClientUser } from 'discord.js';
import type { Redis } from 'ioredis';
import type { WorkerDeps, WorkerQueue, WorkerQueues } from './deps.ts';
import { createDiscordClient } from './discord-client.ts';
import { discordApi } from './discord-rest.ts';
import type { WorkerConfig } from './env.ts';
import type { WorkerFeature } from './features/feature.ts';
import { type FeatureHost, hostFeatures } from './features/host.ts';
import { FEATURES } from './features/index.ts';
import { trackGuildChannels } from './guild-channels.ts';
import { redisIdentifyThrottler } from './identify-throttler.ts';
import type { ScheduleKeeper } from './jobs/schedules.ts';
import type { ShardJobWorkers } from './jobs/shard-job-workers.ts';
import { errorFields, type Logger } from './logger.ts';
import { workerMetricsFor } from './metrics.ts';
import type { ShardLeases } from './shard-lease.ts';

/**
 * What a worker is made of before it starts: its connections to Postgres, Redis, the job queue
 * and Discord, its features hosted, and the name this process goes by.
 */

/**
 * This process among the workers sharing the queue: host, pid and a random part (the pid
 * alone repeats across containers). Names its Redis connections and its BullMQ worker.
 */
export function workerInstance(): string {
  const host = hostname().replace(/[^A-Za-z0-9_.-]/g, '_') || 'host';
  return `${host}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/**
 * The bot's own user by REST, set where the gateway's READY sets it (READY patches it then), so
 * jobs know the bot's id (to find its own messages, its member) in a process that runs no shard.
 */
export async function knowBotUser(client: Client): Promise<void> {
  const data = await discordApi(client).users.getCurrent();
  // discord.js builds it itself on READY; its constructor is not public in the typings.
  const Self = ClientUser as unknown as new (client: Client, data: APIUser) => ClientUser;
  client.user = new Self(client, data);
  client.users.cache.set(data.id, client.user);
}

/** What a worker holds, filled in as it starts: its shutdown closes whatever is there. */
export interface WorkerParts {
  deps: WorkerDeps;
  features: FeatureHost;
  database: DbHandle;
  /** BullMQ's own connection (blocking commands), shared by the queues and the job workers. */
  bullConnection: Redis;
  jobWorkers?: ShardJobWorkers;
  metricsServer?: MetricsServer | undefined;
  scheduleKeeper?: ScheduleKeeper;
  leases?: ShardLeases;
  stopRebinding?: () => void;
  /** Stops re-draining the old single queue while an older version still runs its jobs. */
  stopLegacyDrain?: () => void;
}

/** Postgres, Redis, the job queue and the Discord client, connected; the features hosted. */
export function connectWorker(
  config: WorkerConfig,
  /** The features to run; all of them unless a test runs its own. */
  only: readonly WorkerFeature[] | undefined,
  logger: Logger,
  instance: string,
): WorkerParts {
  const database = createDb(config.databaseUrl, {
    applicationName: 'spacecadet-worker',
    onIdleError: (error) => logger.warn(errorFields(error), 'idle postgres connection lost'),
  });
  // Named so `CLIENT LIST` shows whose connections these are, and the API can tell whether the
  // process running a job is still there (BullMQ's worker keeps the name on its connections).
  const connectionName = workerConnectionName(config.redisPrefix, instance);
  // One Redis, or a Redis Cluster when REDIS_CLUSTER_NODES is set. The features are typed with
  // ioredis' `Redis`; a cluster client answers the same commands (what differs, SCAN and a
  // connection's key prefix, goes through `scanAllNodes` and `keyPrefixOf`).
  const redis = createRedisClient(config.redisUrl, config.redisClusterNodes, {
    keyPrefix: redisKeyPrefix(config.redisPrefix),
    connectionName,
  }) as Redis;
  // Warns at start (and after a Redis restart) when Redis could lose queued jobs.
  watchRedisDurability(redis, logger);
  // BullMQ needs blocking commands that never give up, hence its own connection. On a cluster
  // each shard's queue keys share one slot (the `{…}` tag in its name, `jobQueueName`).
  const bullConnection = createRedisClient(config.redisUrl, config.redisClusterNodes, {
    maxRetriesPerRequest: null,
    connectionName,
  }) as Redis;
  for (const connection of [redis, bullConnection]) {
    // ioredis reconnects by itself; without a listener each failure is printed unformatted.
    connection.on('error', (error) => logger.warn(errorFields(error), 'redis connection error'));
  }
  // A queue per shard (opened when first used): a guild's jobs go to its shard's.
  const queue: WorkerQueues = new JobQueues(config.shards?.count ?? 1, (name) => {
    const shardQueue: WorkerQueue = new Queue(name, {
      connection: bullConnection,
      prefix: bullPrefix(config.redisPrefix),
    });
    shardQueue.on('error', (error) => logger.warn(errorFields(error), 'job queue error'));
    return shardQueue;
  });
  // IDENTIFYs spaced across every process of this deployment (Discord's max_concurrency per 5 s).
  const client = createDiscordClient(
    config,
    redisIdentifyThrottler(redis, config.identifyIntervalMs, instance),
  );
  trackGuildChannels(client);
  const metrics = workerMetricsFor(config, { client, queue: countAcross(() => queue.all()), logger });
  const deps: WorkerDeps = { config, logger, db: database.db, redis, client, queue, metrics };
  const features = hostFeatures(only ?? FEATURES);
  return { deps, features, database, bullConnection };
}
