/**
 * The doctor's Redis check: reachable, jobs kept across a restart (AOF or RDB snapshots), and
 * never evicted (`maxmemory-policy noeviction`, which BullMQ needs). A managed Redis that refuses
 * CONFIG cannot be checked: that is a ✗ saying where to set both.
 */
import { createRedisClient, type RedisClient, type RedisClusterSeed } from '@spacecadet/runtime/redis-client';
import { Cluster, type Redis } from 'ioredis';
import { CHECK_TIMEOUT_MS, type CheckLine, fail, pass, reasonOf } from './check.ts';

function redactRedis(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

async function configOf(redis: Redis, name: string): Promise<string> {
  const answer = (await redis.config('GET', name)) as string[];
  return answer[1] ?? '';
}

/** `maxmemory-policy`, `appendonly`, `save` of the first node found lacking, else of the first. */
async function leastDurable(nodes: readonly Redis[]): Promise<string[]> {
  const each = await Promise.all(
    nodes.map((node) =>
      Promise.all(['maxmemory-policy', 'appendonly', 'save'].map((name) => configOf(node, name))),
    ),
  );
  const lacking = each.find(
    ([policy, appendonly, save]) =>
      policy !== 'noeviction' || (appendonly !== 'yes' && (save ?? '').trim() === ''),
  );
  return lacking ?? each[0] ?? ['', '', ''];
}

/**
 * A doctor check's own connection to Redis or the cluster: connected by the caller, no retries
 * and no reconnects (a check that cannot reach Redis says so at once), errors left to the caller.
 */
export function checkClient(redisUrl: string, clusterNodes: readonly RedisClusterSeed[] | null): RedisClient {
  const redis = createRedisClient(redisUrl, clusterNodes, {
    lazyConnect: true,
    connectTimeout: CHECK_TIMEOUT_MS,
    commandTimeout: CHECK_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  return redis;
}

/**
 * `clusterNodes` (REDIS_CLUSTER_NODES): the settings are read from every master, since each
 * keeps its own part of the queue.
 */
export async function checkRedis(
  redisUrl: string,
  clusterNodes: readonly RedisClusterSeed[] | null = null,
): Promise<CheckLine[]> {
  const where = clusterNodes?.length
    ? `cluster ${clusterNodes.map((node) => `${node.host}:${node.port}`).join(',')}`
    : redactRedis(redisUrl);
  const redis = checkClient(redisUrl, clusterNodes);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    return [fail(`Redis at ${where} unreachable (${reasonOf(error)})`, 'Start Redis or correct REDIS_URL.')];
  }
  try {
    let settings: string[];
    try {
      settings = await leastDurable(redis instanceof Cluster ? redis.nodes('master') : [redis]);
    } catch {
      return [
        fail(
          `Redis at ${where} reachable, but refuses CONFIG GET (a managed Redis?), so persistence and eviction cannot be checked`,
          "Set `maxmemory-policy noeviction` and persistence (AOF or snapshots) in your Redis provider's settings.",
        ),
      ];
    }
    const [policy = '', appendonly = '', save = ''] = settings;
    const lines: CheckLine[] = [pass(`Redis at ${where} reachable`)];
    if (appendonly === 'yes') lines.push(pass('Redis persistence: appendonly (AOF) on'));
    else if (save.trim() !== '') lines.push(pass(`Redis persistence: RDB snapshots (save ${save})`));
    else {
      lines.push(
        fail(
          'Redis persistence off (appendonly no, no save schedule)',
          'Start Redis with `--appendonly yes` (or an RDB `save` schedule) so queued jobs survive a restart.',
        ),
      );
    }
    if (policy === 'noeviction') lines.push(pass('Redis maxmemory-policy noeviction'));
    else {
      lines.push(
        fail(
          `Redis maxmemory-policy is ${policy}`,
          'Set `maxmemory-policy noeviction` (redis.conf or `--maxmemory-policy noeviction`): BullMQ loses jobs to eviction.',
        ),
      );
    }
    return lines;
  } finally {
    redis.disconnect();
  }
}
