import { prefixDatabaseKey } from '@spacecadet/contract';
import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
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
export async function bindRedisPrefix(db: Db, redis: Redis, redisPrefix: string): Promise<void> {
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
