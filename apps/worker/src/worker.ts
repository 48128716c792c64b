import { once } from 'node:events';
import { bindRedisPrefix, keepRedisPrefixBound } from '@spacecadet/db/prefix-binding';
import { type Client, Events, GatewayCloseCodes } from 'discord.js';
import { disallowedIntentsMessage } from './discord-client.ts';
import type { WorkerConfig } from './env.ts';
import type { WorkerFeature } from './features/feature.ts';
import { registerSlashCommands } from './interactions/commands.ts';
import { routeInteraction } from './interactions/router.ts';
import { keepDrainingLegacyQueue } from './jobs/legacy-queue.ts';
import { keepSchedules, SCHEDULE_CHECK_MS } from './jobs/schedules.ts';
import { ShardJobWorkers } from './jobs/shard-job-workers.ts';
import { createLogger, errorFields, type Logger } from './logger.ts';
import { type ShardLeases, shardLeases } from './shard-lease.ts';
import { connectWorker, knowBotUser, type WorkerParts, workerInstance } from './worker-connections.ts';

export interface StartWorkerOptions {
  logger?: Logger;
  /** The features to run; all of them unless a test runs its own. */
  features?: readonly WorkerFeature[];
  /** How often the wanted job schedulers are checked (SCHEDULE_CHECK_MS); tests shorten it. */
  scheduleCheckMs?: number;
}

export interface RunningWorker {
  client: Client;
  /**
   * Resolves once this process's shards are connected and their jobs taken: at once, or when
   * another process configured alike stops (this one takes no job meanwhile), or when the
   * worker closed first.
   * Never rejects.
   */
  gateway: Promise<void>;
  /**
   * Resolves with the reason if the worker stopped itself after it started: its shards failed
   * to connect once taken over, or another process took them over. The process should exit.
   */
  failed: Promise<Error>;
  /** Stops taking jobs (the active ones finish), then disconnects from Discord, Redis and Postgres. */
  close(): Promise<void>;
}

/** How a starting worker reports that it stopped itself, and closes. */
interface Lifecycle {
  reportFailure(error: Error): void;
  close(): Promise<void>;
  closing(): boolean;
}

/**
 * Connects the bot's shards to Discord and takes their jobs (a queue per shard). Resolves once
 * every shard of this process is ready and its queue's BullMQ worker listening, or, when another
 * live process holds these shards (same SHARD_IDS, or none), at once: this one then connects and
 * takes the shards' jobs when their lease lapses (`gateway`).
 */
export async function startWorker(
  config: WorkerConfig,
  options: StartWorkerOptions = {},
): Promise<RunningWorker> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const instance = workerInstance();
  const parts = connectWorker(config, options.features, logger, instance);
  let reportFailure: (error: Error) => void = () => {};
  const failed = new Promise<Error>((resolve) => {
    reportFailure = resolve;
  });
  attachClientEvents(parts);

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= shutDown(parts);
    return closing;
  };
  const life: Lifecycle = { reportFailure: (error) => reportFailure(error), close, closing: () => !!closing };
  let gateway: Promise<void>;
  try {
    ({ gateway } = await startParts(parts, options, instance, life));
  } catch (error) {
    await close();
    throw error;
  }
  return { client: parts.deps.client, gateway, failed, close };
}

/** Interactions routed, the features' gateway events attached, the shards' trouble logged. */
function attachClientEvents({ deps, features }: WorkerParts): void {
  const { client, logger } = deps;
  client.on(Events.InteractionCreate, (interaction) => {
    void routeInteraction(interaction, features, deps);
  });
  features.attachGateway(deps);
  client.on(Events.Error, (error) => logger.error(errorFields(error), 'discord client error'));
  client.on(Events.ShardError, (error, shardId) =>
    logger.warn({ ...errorFields(error), shardId }, 'shard error'),
  );
  client.on(Events.ShardDisconnect, (event, shardId) =>
    logger.warn({ code: event.code, shardId }, 'shard disconnected'),
  );
  client.on(Events.ShardResume, (shardId, replayed) => logger.info({ shardId, replayed }, 'shard resumed'));
}

/**
 * The start, in order: the Redis prefix bound, metrics served, the bot's user known, the
 * shards' leases claimed (connecting first when this process holds them), the schedules kept,
 * the job worker listening. Returns the gateway's connection (at once when already connected).
 */
async function startParts(
  parts: WorkerParts,
  options: StartWorkerOptions,
  instance: string,
  life: Lifecycle,
): Promise<{ gateway: Promise<void> }> {
  const { deps, features, bullConnection } = parts;
  const { config, db, redis, client, logger, metrics } = deps;
  // Refuses to start on a prefix another deployment's database owns.
  await bindRedisPrefix(db, redis, config.redisPrefix);
  // ...and binds it again whenever Redis comes back (empty, if it keeps nothing on disk). Had
  // another deployment taken it meanwhile, both would share it: this one stops, as at start.
  parts.stopRebinding = keepRedisPrefixBound(db, redis, config.redisPrefix, {
    log: logger,
    taken: (error) => {
      logger.error(errorFields(error), 'the Redis prefix was taken by another deployment; stopping');
      life.reportFailure(error);
      void life.close();
    },
  });
  parts.metricsServer = await metrics?.listen();
  // Jobs an older version left in its single queue go to their shards' queues.
  parts.stopLegacyDrain = await keepDrainingLegacyQueue(deps, bullConnection, config.jobLockDurationMs);
  client.rest.setToken(config.discordBotToken);
  await knowBotUser(client);
  // One process per shard: a second one configured alike waits for the shards.
  const claim = shardLeases(redis, config.shards ?? { ids: [0], count: 1 }, {
    token: instance,
    ttlMs: config.jobLockDurationMs,
    logger,
    perProcess: config.shardsPerProcess,
    lost: (shardId) => {
      life.reportFailure(new Error(`another worker process took over shard ${shardId}`));
      void life.close();
    },
  });
  parts.leases = claim;
  // Jobs follow their shards: a process takes the jobs of the shards it holds (their queues),
  // once connected, so they read the gateway cache. Holding them, it connects first and is
  // fully started once it takes their jobs. Else it takes no job until the holder's lease
  // lapses, then connects and takes the shards' jobs.
  const jobWorkers = new ShardJobWorkers(deps, bullConnection, features.jobs, instance);
  parts.jobWorkers = jobWorkers;
  const holding = await claim.tryClaim();
  if (holding) await connectGateway(parts, claim);
  // The schedulers kept are those of the shards whose jobs this process takes.
  const takeShards = async () => {
    await jobWorkers.consume(claim.shardIds());
    // A failed sync is tried again at the next check (its marker is not set).
    await features
      .syncSchedules(deps, jobWorkers.shards(), true)
      .catch((error: unknown) =>
        logger.warn(errorFields(error), 'job schedulers not checked; trying again later'),
      );
  };
  if (holding) await takeShards();
  parts.scheduleKeeper = keepSchedules({
    sync: (full) => features.syncSchedules(deps, jobWorkers.shards(), full),
    connections: [bullConnection, redis],
    checkEveryMs: options.scheduleCheckMs ?? SCHEDULE_CHECK_MS,
    logger,
  });
  const gateway = holding
    ? Promise.resolve()
    : connectGateway(parts, claim)
        .then(takeShards)
        .catch(async (error: unknown) => {
          if (life.closing()) return;
          logger.error(errorFields(error), 'shards taken over but failed to connect; stopping');
          life.reportFailure(error instanceof Error ? error : new Error(String(error)));
          await life.close();
        });
  return { gateway };
}

/** Waits for the shards' leases, then connects them and registers the slash commands. */
async function connectGateway({ deps, features }: WorkerParts, claim: ShardLeases): Promise<void> {
  const { config, client, logger } = deps;
  await claim.claim();
  if (config.shards?.ids === 'auto') {
    // The shards claimed in Redis: discord.js reads them at login.
    client.options.shards = claim.shardIds();
    client.options.shardCount = config.shards.count;
  }
  const ready = once(client, Events.ClientReady);
  // 4014: a privileged intent is off in the Developer Portal. discord.js only says "Used
  // disallowed intents", so say what to enable and where (each time, a later reconnect too)
  // and fail the start with that sentence.
  const refusal = disallowedIntentsMessage(config.discordClientId);
  let refusalLogged = false;
  const logRefusal = (shardId?: number) => {
    refusalLogged = true;
    logger.error({ shardId, closeCode: GatewayCloseCodes.DisallowedIntents }, refusal);
  };
  client.on(Events.ShardDisconnect, (event, shardId) => {
    if (event.code === GatewayCloseCodes.DisallowedIntents) logRefusal(shardId);
  });
  try {
    await client.login(config.discordBotToken);
    await ready;
  } catch (error) {
    if (!refusalLogged && !(error instanceof Error && /disallowed intents/i.test(error.message))) throw error;
    if (!refusalLogged) logRefusal();
    throw new Error(refusal, { cause: error });
  }
  logger.info(
    { user: client.user?.tag, guilds: client.guilds.cache.size, shards: claim.shardIds() },
    'discord client ready',
  );
  await registerSlashCommands(deps, features.commands);
  await features.start(deps);
}

/** Stops taking jobs, disconnects from Discord, hands the shards on, then closes the rest. */
async function shutDown(parts: WorkerParts): Promise<void> {
  const { deps, features, database, bullConnection } = parts;
  const { client, logger, queue, redis } = deps;
  logger.info('worker stopping');
  parts.stopRebinding?.();
  parts.scheduleKeeper?.stop();
  parts.stopLegacyDrain?.();
  // Stop taking jobs first; close() waits for the active ones to finish.
  await parts.jobWorkers
    ?.close()
    .catch((error: unknown) => logger.error(errorFields(error), 'job worker close failed'));
  await client.destroy().catch((error: unknown) => logger.error(errorFields(error), 'client destroy failed'));
  // The gateway is closed: another process may run these shards now.
  await parts.leases
    ?.release()
    .catch((error: unknown) => logger.warn(errorFields(error), 'shard lease release failed'));
  // No job runs and no event arrives any more: what features buffered can be flushed now.
  await features.shutdown(deps);
  await parts.metricsServer?.close();
  await queue.close().catch((error: unknown) => logger.error(errorFields(error), 'queue close failed'));
  await Promise.allSettled([redis.quit(), bullConnection.quit(), database.close()]);
  logger.info('worker stopped');
}
