import type { Db } from '@spacecadet/db';
import type { Redis } from 'ioredis';
import type { ApiConfig } from '../env.ts';
import type { TokenCipher } from './crypto.ts';
import type { DiscordClient } from './discord.ts';
import type { GuildAccessService } from './guild-access.ts';
import type { GuildResources } from './guild-resources.ts';
import type { GuildJobQueues } from './jobs.ts';
import type { ReplicaReads } from './read-replica.ts';
import type { ReplicaCache } from './replica-cache.ts';
import type { SessionContext, SessionService } from './sessions.ts';

/** Everything a route needs from the outside world, built once per app by buildApp. */
export interface AppServices {
  config: ApiConfig;
  /** The primary: every write, and every read that is not one of the heavy ones below. */
  db: Db;
  /**
   * DATABASE_READ_URL's handle (the primary's when unset). Not for routes: they read through
   * `reads`, which picks this one only when it has replayed what the reader wrote.
   */
  readDb: Db;
  /** The leaderboards, History, seasons and exports: on the read replica when it may serve them. */
  reads: ReplicaReads;
  /** Keys are prefixed with `${REDIS_PREFIX}:` by the client itself. */
  redis: Redis;
  /** The job queues, one per shard: `forGuild` is the one a guild's jobs go to. */
  queue: GuildJobQueues;
  discord: DiscordClient;
  /** Seals the Discord tokens kept at rest (sign-ins, Linked Roles). */
  cipher: TokenCipher;
  sessions: SessionService;
  /** In-process copies of hot reads, dropped on every replica when a change is announced. */
  replicaCache: ReplicaCache;
  guildAccess: GuildAccessService;
  /** The guild's channels, roles and members, for pickers and the body-id check. */
  guildResources: GuildResources;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
  }
  interface FastifyRequest {
    session: SessionContext | null;
  }
}
