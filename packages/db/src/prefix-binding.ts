import { prefixDatabaseKey } from '@spacecadet/contract';
import { sql } from 'drizzle-orm';
import type { Cluster, Redis } from 'ioredis';
import type { Db } from './client.ts';

/** Another deployment's database already owns this Redis prefix. */
export class RedisPrefixTakenError extends Error {
  override name = 'RedisPrefixTakenError';
}

/**
 * Binds the Redis prefix to this process's database, or checks it is bound to it: the first
 * process to start records the database's identity (the random id its migration made, and its
 * name) under the prefix, and every later API or worker process compares. Two deployments
 * (staging and production) on one Redis with the same REDIS_PREFIX would share cooldowns and
 * write each other's buffered XP into the wrong database; the second one is refused instead.
 * `redis` adds the prefix itself (ioredis `keyPrefix`).
 */
export async function bindRedisPrefix(db: Db, redis: Redis | Cluster, redisPrefix: string): Promise<void> {
  const found = await db.execute<{ id: string; name: string }>(
    sql`select id, current_database() as name from deployment limit 1`,
  );
  const ours = found.rows[0];
  if (!ours) throw new Error('the database has no deployment row: run `pnpm db:migrate`');
  const value = `${ours.id} ${ours.name}`;
  if ((await redis.set(prefixDatabaseKey(), value, 'NX')) === 'OK') return;
  const bound = (await redis.get(prefixDatabaseKey())) ?? '';
  const [boundId = '', boundName = '?'] = bound.split(' ');
  if (boundId === ours.id) return;
  throw new RedisPrefixTakenError(
    `REDIS_PREFIX "${redisPrefix}" belongs to another deployment: it is bound to database "${boundName}" (id ${boundId}), ` +
      `but this process uses database "${ours.name}" (id ${ours.id}). Give each deployment its own REDIS_PREFIX ` +
      `(or its own Redis); if this database really replaced the other one, delete the key "${redisPrefix}:${prefixDatabaseKey()}".`,
  );
}

/** What `keepRedisPrefixBound` reports through (pino and Fastify's logger both fit). */
export interface PrefixBindingLogger {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

/** How long a failed re-bind (Postgres down, Redis gone again) waits before it tries again. */
const REBIND_RETRY_MS = 2_000;

/**
 * Binds the prefix again on every reconnect of `redis` (ioredis `ready`): a Redis restarted
 * without persistence comes back without the binding, and until something wrote it again
 * another deployment starting on the same prefix would take it. A running API or worker writes
 * it back as soon as it is connected again, so the second deployment is still refused. A
 * re-bind that fails for want of Postgres or Redis is tried again; if another deployment got
 * there first, `taken` is told (two deployments now share the prefix: the caller stops or
 * says so). Call it once the first binding succeeded; the returned function stops it.
 */
export function keepRedisPrefixBound(
  db: Db,
  redis: Redis | Cluster,
  redisPrefix: string,
  options: { log: PrefixBindingLogger; taken: (error: RedisPrefixTakenError) => void; retryMs?: number },
): () => void {
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const rebind = async () => {
    clearTimeout(retry);
    if (stopped || redis.status !== 'ready') return;
    try {
      await bindRedisPrefix(db, redis, redisPrefix);
      options.log.info({ redisPrefix }, 'Redis prefix bound to this database again after Redis reconnected');
    } catch (error) {
      if (stopped) return;
      if (error instanceof RedisPrefixTakenError) {
        stopped = true;
        options.taken(error);
        return;
      }
      options.log.warn(
        { err: error, redisPrefix },
        'could not bind the Redis prefix again after Redis reconnected; trying again',
      );
      retry = setTimeout(() => void rebind(), options.retryMs ?? REBIND_RETRY_MS);
      retry.unref();
    }
  };
  const onReady = () => void rebind();
  redis.on('ready', onReady);
  return () => {
    stopped = true;
    clearTimeout(retry);
    redis.off('ready', onReady);
  };
}
