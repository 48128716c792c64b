import type { Db } from '@spacecadet/db';
import type { Client } from 'discord.js';
import type { Redis } from 'ioredis';
import type { WorkerConfig } from './env.ts';
import type { Logger } from './logger.ts';

/** What handlers (jobs, events, interactions) work with; built once per process by startWorker. */
export interface WorkerDeps {
  config: WorkerConfig;
  logger: Logger;
  db: Db;
  /** App keys (warnings, cooldowns), all under `${config.redisPrefix}:`. */
  redis: Redis;
  client: Client;
}
