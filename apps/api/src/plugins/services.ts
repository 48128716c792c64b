import { apiCacheChannel, bullPrefix, redisKeyPrefix } from '@spacecadet/contract';
import { createDb } from '@spacecadet/db';
import { bindRedisPrefix, keepRedisPrefixBound, RedisPrefixTakenError } from '@spacecadet/db/prefix-binding';
import { JobQueues } from '@spacecadet/queue/job-queues';
import { createRedisClient } from '@spacecadet/runtime/redis-client';
import { watchRedisDurability } from '@spacecadet/runtime/redis-durability';
import { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { ApiConfig } from '../env.ts';
import type { AppServices } from '../services/container.ts';
import { TokenCipher } from '../services/crypto.ts';
import { DiscordClient } from '../services/discord.ts';
import { GuildAccessService } from '../services/guild-access.ts';
import { GuildResources } from '../services/guild-resources.ts';
import type { GuildJobQueue, GuildJobQueues } from '../services/jobs.ts';
import { ReplicaReads } from '../services/read-replica.ts';
import { ReplicaCache } from '../services/replica-cache.ts';
import { SessionService } from '../services/sessions.ts';

function redisOptions(config: ApiConfig) {
  // No offline queue and a short timeout: while Redis is down a request fails fast (503)
  // instead of hanging until Redis returns.
  return {
    connectTimeout: config.redisTimeoutMs,
    commandTimeout: config.redisTimeoutMs,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect: true,
    retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000),
  } as const;
}

/**
 * Postgres, Redis, the BullMQ queue, the Discord client and the session and guild-access
 * services, decorated on the app as `app.services` and closed with it. A dependency that is
 * down at start does not stop the API: requests needing it answer 503 and /readyz says so.
 */
export async function registerServices(app: FastifyInstance, config: ApiConfig): Promise<AppServices> {
  const dbHandle = createDb(config.databaseUrl, {
    applicationName: 'spacecadet-api',
    onIdleError: (error) => app.log.warn({ err: error }, 'idle Postgres connection failed'),
  });
  // The read replica's pool: a short connect timeout, so a replica that went away costs a read
  // two seconds at most before it runs on the primary (ReplicaReads then skips it for a while).
  const readHandle =
    config.databaseReadUrl === null
      ? null
      : createDb(config.databaseReadUrl, {
          applicationName: 'spacecadet-api-reads',
          connectTimeoutMs: 2_000,
          onIdleError: (error) => app.log.warn({ err: error }, 'idle read replica connection failed'),
        });
  // One Redis, or a Redis Cluster when REDIS_CLUSTER_NODES is set. The services are typed with
  // ioredis' `Redis`; a cluster client answers the same commands (what differs, SCAN and a
  // connection's key prefix, goes through `scanAllNodes` and `keyPrefixOf`).
  const redis = createRedisClient(config.redisUrl, config.redisClusterNodes, {
    ...redisOptions(config),
    keyPrefix: redisKeyPrefix(config.redisPrefix),
  }) as Redis;
  // BullMQ refuses a keyPrefix on its connection; it namespaces with its own `prefix`. On a
  // cluster each shard's queue keys share one slot (the `{…}` tag in its name, `jobQueueName`).
  const queueRedis = createRedisClient(
    config.redisUrl,
    config.redisClusterNodes,
    redisOptions(config),
  ) as Redis;
  // Subscribed to the API cache channel only (a subscribed connection can do nothing else).
  const subscriber = createRedisClient(
    config.redisUrl,
    config.redisClusterNodes,
    redisOptions(config),
  ) as Redis;
  const replicaCache = new ReplicaCache(redis, subscriber, apiCacheChannel(config.redisPrefix), app.log);
  for (const client of [redis, queueRedis, subscriber]) {
    client.on('error', (error: Error) => app.log.debug({ err: error }, 'redis connection error'));
  }
  // Warns at start (and after a Redis restart) when Redis could lose queued jobs.
  watchRedisDurability(queueRedis, app.log);
  await Promise.all(
    [redis, queueRedis, subscriber].map((client) =>
      client
        .connect()
        .catch((error: unknown) => app.log.warn({ err: error }, 'Redis not reachable at start')),
    ),
  );
  // Refuses to start on a prefix another deployment's database owns; a dependency that is down
  // only delays the check to the next start.
  await bindRedisPrefix(dbHandle.db, redis, config.redisPrefix).catch(async (error: unknown) => {
    if (!(error instanceof RedisPrefixTakenError)) {
      app.log.warn({ err: error }, 'Redis prefix binding not checked (Postgres or Redis unreachable)');
      return;
    }
    await Promise.allSettled([
      redis.quit(),
      queueRedis.quit(),
      subscriber.quit(),
      dbHandle.close(),
      readHandle?.close(),
    ]);
    throw error;
  });
  // Bound again whenever Redis comes back (empty, if it keeps nothing on disk), so another
  // deployment starting meanwhile is still refused.
  const stopRebinding = keepRedisPrefixBound(dbHandle.db, redis, config.redisPrefix, {
    log: app.log,
    taken: (error) => app.log.error({ err: error }, 'the Redis prefix was taken by another deployment'),
  });
  // A queue per shard, opened as a guild's jobs need it: the worker holding the shard takes them.
  const queue: GuildJobQueues = new JobQueues(config.shardCount, (name) => {
    const shardQueue: GuildJobQueue = new Queue(name, {
      connection: queueRedis,
      prefix: bullPrefix(config.redisPrefix),
      skipWaitingForReady: true,
    });
    shardQueue.on('error', (error) => app.log.debug({ err: error }, 'queue error'));
    return shardQueue;
  });

  const discord = new DiscordClient({ ...config.discord });
  const cipher = new TokenCipher(config.sessionSecret);
  await replicaCache.start();
  const sessions = new SessionService(
    dbHandle.db,
    cipher,
    discord,
    config.sessionTtlSec,
    replicaCache,
    config.signIn,
  );
  const services: AppServices = {
    config,
    db: dbHandle.db,
    readDb: readHandle?.db ?? dbHandle.db,
    reads: new ReplicaReads({ primary: dbHandle.db, replica: readHandle?.db ?? null, redis, log: app.log }),
    redis,
    queue,
    discord,
    cipher,
    sessions,
    replicaCache,
    guildAccess: new GuildAccessService(redis, discord, sessions, config.cacheTtlSec.guilds, replicaCache),
    guildResources: new GuildResources(redis, discord, config.cacheTtlSec.channels),
  };
  app.decorate('services', services);

  app.addHook('onClose', async () => {
    stopRebinding();
    await queue.close().catch((error: unknown) => app.log.warn({ err: error }, 'queue close failed'));
    redis.disconnect();
    queueRedis.disconnect();
    subscriber.disconnect();
    await dbHandle.close();
    await readHandle?.close();
  });
  return services;
}
