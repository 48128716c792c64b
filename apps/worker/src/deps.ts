import type { GuildJobPayload, JobResult } from '@spacecadet/contract';
import type { Db } from '@spacecadet/db';
import type { JobQueues } from '@spacecadet/queue/job-queues';
import type { Queue } from 'bullmq';
import type { Client } from 'discord.js';
import type { Redis } from 'ioredis';
import type { WorkerConfig } from './env.ts';
import type { Logger } from './logger.ts';
import type { WorkerMetrics } from './metrics.ts';

/**
 * The job queue as the worker writes to it: schedulers, and follow-up jobs a feature queues.
 * Names are strings because BullMQ types scheduler ids with the job-name type.
 */
export type WorkerQueue = Queue<GuildJobPayload, JobResult, string>;
/** The job queues, one per shard: a guild's jobs and schedulers go to `forGuild(guildId)`. */
export type WorkerQueues = JobQueues<WorkerQueue>;

/** What handlers (jobs, events, interactions) work with; built once per process by startWorker. */
export interface WorkerDeps {
  config: WorkerConfig;
  logger: Logger;
  db: Db;
  /** App keys (warnings, locks, cooldowns): the client adds `${REDIS_PREFIX}:` (ioredis `keyPrefix`). */
  redis: Redis;
  client: Client;
  queue: WorkerQueues;
  /** Prometheus metrics; null when METRICS_PORT is unset. */
  metrics: WorkerMetrics | null;
}
