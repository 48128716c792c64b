import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';

/**
 * The processes' Redis connections, to one Redis (REDIS_URL) or to a Redis Cluster
 * (REDIS_CLUSTER_NODES). Both answer the same commands; what a cluster adds is that a script, a
 * MULTI or a multi-key command must name keys of one hash slot (the key builders in
 * `packages/contract/src/redis-keys.ts` put a `{…}` tag where one call spans several keys), and
 * that SCAN walks one node only (`scanAllNodes` walks every master).
 */

/** A connection of ours: a single Redis or a cluster, used the same way. */
export type RedisClient = Redis | Cluster;

/** The connection options we use (ioredis' reply mapping stays the default). */
export type ClientOptions = Omit<RedisOptions, 'replyMapping'>;

export interface RedisClusterSeed {
  host: string;
  port: number;
}

/**
 * REDIS_URL's user, password, TLS and database, as ioredis options. For a cluster every node is
 * reached with the same credentials and TLS; the database number does not apply (a cluster has
 * only database 0).
 */
function urlOptions(url: string): ClientOptions {
  const parsed = new URL(url);
  const options: ClientOptions = {};
  if (parsed.username) options.username = decodeURIComponent(parsed.username);
  if (parsed.password) options.password = decodeURIComponent(parsed.password);
  if (parsed.protocol === 'rediss:') options.tls = {};
  return options;
}

/**
 * A client for `url`'s Redis, or, when `clusterNodes` is set, a cluster client seeded with them
 * (the `options` go to every node's connection, `keyPrefix` included). The cluster client keeps
 * `enableOfflineQueue`, `maxRetriesPerRequest` and `lazyConnect` at its own level as well, so
 * a caller that fails fast while Redis is down does so on a cluster too.
 */
export function createRedisClient(
  url: string,
  clusterNodes: readonly RedisClusterSeed[] | null | undefined,
  options: ClientOptions = {},
): RedisClient {
  if (!clusterNodes || clusterNodes.length === 0) return new Redis(url, options);
  const { enableOfflineQueue, lazyConnect, retryStrategy, readOnly: _readOnly, ...nodeOptions } = options;
  // MOVED/ASK and a topology change are followed rather than failing the command.
  const cluster: Omit<ClusterOptions, 'redisOptions'> = { maxRedirections: 16 };
  if (enableOfflineQueue !== undefined) cluster.enableOfflineQueue = enableOfflineQueue;
  if (lazyConnect !== undefined) cluster.lazyConnect = lazyConnect;
  // A cluster reconnects as a whole: the caller's per-connection strategy applies to it.
  if (retryStrategy) cluster.clusterRetryStrategy = (times) => retryStrategy(times);
  return new Cluster(
    clusterNodes.map((node) => ({ host: node.host, port: node.port })),
    { ...cluster, redisOptions: { ...urlOptions(url), ...nodeOptions } },
  );
}

/** The `keyPrefix` a connection adds to keys (SCAN patterns are not prefixed by ioredis). */
export function keyPrefixOf(redis: RedisClient): string {
  const options = redis instanceof Cluster ? redis.options.redisOptions : redis.options;
  return options?.keyPrefix ?? '';
}

/**
 * Every key matching `pattern` (already prefixed, as SCAN wants it): on a cluster, on every
 * master, since SCAN walks the node it is sent to only. `each` gets the keys of one SCAN page,
 * with the prefix; a batch may repeat a key SCAN returned twice.
 */
export async function scanAllNodes(
  redis: RedisClient,
  pattern: string,
  count: number,
  each: (keys: string[]) => Promise<void> | void,
): Promise<void> {
  const nodes = redis instanceof Cluster ? redis.nodes('master') : [redis];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, found] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', count);
      cursor = next;
      if (found.length > 0) await each(found);
    } while (cursor !== '0');
  }
}
