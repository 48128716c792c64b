import { once } from 'node:events';
import { createDb } from '@spacecadet/db';
import { watchRedisDurability } from '@spacecadet/db/redis-durability';
import { type Client, Events } from 'discord.js';
import { Redis } from 'ioredis';
import { registerSlashCommands, SLASH_COMMANDS } from './commands/index.ts';
import type { WorkerDeps } from './deps.ts';
import { createDiscordClient } from './discord-client.ts';
import type { WorkerConfig } from './env.ts';
import { trackGuildAccessCache } from './features/access-cache/guild-access-cache.ts';
import { COMPONENT_ROUTES } from './features/index.ts';
import { trackLeavers } from './features/leveling/members.ts';
import { trackBotGuilds } from './features/presence/bot-guilds.ts';
import { routeInteraction } from './interactions/router.ts';
import type { ComponentRoute } from './interactions/types.ts';
import { createJobWorker } from './jobs/job-worker.ts';
import { createLogger, errorFields, type Logger } from './logger.ts';

export interface StartWorkerOptions {
  logger?: Logger;
  /** Routes added after the features' own (tests use this to plug in a failing handler). */
  extraComponentRoutes?: readonly ComponentRoute[];
}

export interface RunningWorker {
  client: Client;
  /** Stops taking jobs (the active ones finish), then disconnects from Discord, Redis and Postgres. */
  close(): Promise<void>;
}

/**
 * Connects the bot to Discord and starts draining the job queue. Resolves once every shard of
 * this process is ready and the BullMQ worker is listening.
 */
export async function startWorker(
  config: WorkerConfig,
  options: StartWorkerOptions = {},
): Promise<RunningWorker> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const database = createDb(config.databaseUrl, {
    applicationName: 'spacecadet-worker',
    onIdleError: (error) => logger.warn(errorFields(error), 'idle postgres connection lost'),
  });
  const db = database.db;
  const redis = new Redis(config.redisUrl);
  // Warns at start (and after a Redis restart) when Redis could lose queued jobs.
  watchRedisDurability(redis, logger);
  // BullMQ needs blocking commands that never give up, hence its own connection.
  const bullConnection = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
  for (const connection of [redis, bullConnection]) {
    // ioredis reconnects by itself; without a listener each failure is printed unformatted.
    connection.on('error', (error) => logger.warn(errorFields(error), 'redis connection error'));
  }
  const client = createDiscordClient(config);
  const deps: WorkerDeps = { config, logger, db, redis, client };
  let jobWorker: ReturnType<typeof createJobWorker> | undefined;

  const routes = {
    components: [...COMPONENT_ROUTES, ...(options.extraComponentRoutes ?? [])],
    commands: SLASH_COMMANDS,
  };
  client.on(Events.InteractionCreate, (interaction) => {
    void routeInteraction(interaction, routes, deps);
  });
  trackBotGuilds(deps);
  trackLeavers(deps);
  trackGuildAccessCache(deps);
  client.on(Events.Error, (error) => logger.error(errorFields(error), 'discord client error'));
  client.on(Events.ShardError, (error, shardId) =>
    logger.warn({ ...errorFields(error), shardId }, 'shard error'),
  );
  client.on(Events.ShardDisconnect, (event, shardId) =>
    logger.warn({ code: event.code, shardId }, 'shard disconnected'),
  );
  client.on(Events.ShardResume, (shardId, replayed) => logger.info({ shardId, replayed }, 'shard resumed'));

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= shutDown();
    return closing;
  };
  async function shutDown(): Promise<void> {
    logger.info('worker stopping');
    // Stop taking jobs first; close() waits for the active ones to finish.
    await jobWorker
      ?.close()
      .catch((error: unknown) => logger.error(errorFields(error), 'job worker close failed'));
    await client
      .destroy()
      .catch((error: unknown) => logger.error(errorFields(error), 'client destroy failed'));
    await Promise.allSettled([redis.quit(), bullConnection.quit(), database.close()]);
    logger.info('worker stopped');
  }

  try {
    const ready = once(client, Events.ClientReady);
    await client.login(config.discordBotToken);
    await ready;
    logger.info(
      { user: client.user?.tag, guilds: client.guilds.cache.size, shards: config.shards?.ids ?? [0] },
      'discord client ready',
    );
    await registerSlashCommands(deps);
    jobWorker = createJobWorker(deps, bullConnection);
    void jobWorker.run().catch((error: unknown) => logger.error(errorFields(error), 'job worker stopped'));
    await jobWorker.waitUntilReady();
  } catch (error) {
    await close();
    throw error;
  }
  return { client, close };
}
