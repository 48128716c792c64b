import type { Redis } from 'ioredis';

/**
 * Whether Redis keeps the job queue safe: BullMQ jobs live only in Redis, so a Redis that
 * restarts without persistence forgets every queued job, and one that evicts keys under memory
 * pressure drops jobs (or their locks) at random. The API and the worker both check this at
 * start (and on every reconnect) with `watchRedisDurability`, so the rule lives here once.
 */

/** What Redis answered; null where it refused (managed Redis often forbids CONFIG). */
export interface RedisDurabilityFacts {
  /** CONFIG GET answers by parameter name (`appendonly`, `save`, `maxmemory-policy`). */
  config: Readonly<Record<string, string | null>>;
  /** The raw text of `INFO persistence` + `INFO memory`, or null when refused. */
  info: string | null;
}

export interface RedisDurability {
  /** Ways jobs can be lost, one sentence each; empty when none was found. */
  problems: string[];
  /** Settings that could not be read, so could not be checked. */
  unchecked: string[];
}

const REQUIRED_POLICY = 'noeviction';

/** `key:value` lines of an INFO answer. */
export function parseRedisInfo(info: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of info.split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0 && !line.startsWith('#')) fields.set(line.slice(0, at), line.slice(at + 1).trim());
  }
  return fields;
}

/** Pure: the verdict for what CONFIG GET and INFO answered. */
export function assessRedisDurability(facts: RedisDurabilityFacts): RedisDurability {
  const info = facts.info === null ? new Map<string, string>() : parseRedisInfo(facts.info);
  const problems: string[] = [];
  const unchecked: string[] = [];

  const policy = facts.config['maxmemory-policy'] ?? info.get('maxmemory_policy') ?? null;
  if (policy === null) unchecked.push('maxmemory-policy');
  else if (policy !== REQUIRED_POLICY) {
    problems.push(
      `maxmemory-policy is ${policy}: under memory pressure Redis evicts keys, including queued jobs and their locks (BullMQ needs ${REQUIRED_POLICY})`,
    );
  }

  const appendonly = facts.config.appendonly ?? null;
  const aofEnabled = info.get('aof_enabled') ?? null;
  const aof = appendonly !== null ? appendonly === 'yes' : aofEnabled !== null ? aofEnabled === '1' : null;
  const save = facts.config.save ?? null;
  const snapshots = save === null ? null : save.trim() !== '';
  if (aof === true || snapshots === true) {
    // Persisted one way or the other.
  } else if (aof === false && snapshots === false) {
    problems.push(
      'persistence is off (appendonly no, save ""): a Redis restart loses every queued job and its progress',
    );
  } else {
    if (aof === null) unchecked.push('appendonly');
    if (snapshots === null) unchecked.push('save');
  }
  return { problems, unchecked };
}

/** Reads what `assessRedisDurability` needs; a refused command leaves its answers null. */
export async function readRedisDurabilityFacts(redis: Redis): Promise<RedisDurabilityFacts> {
  // One parameter per CONFIG GET: Redis before 7 takes a single pattern.
  const names = ['appendonly', 'save', 'maxmemory-policy'] as const;
  const answers = await Promise.all(
    names.map(async (name) => {
      try {
        const reply = (await redis.config('GET', name)) as unknown;
        if (!Array.isArray(reply)) return null;
        const at = reply.findIndex((entry) => String(entry).toLowerCase() === name);
        return at >= 0 && at + 1 < reply.length ? String(reply[at + 1]) : null;
      } catch {
        return null;
      }
    }),
  );
  const sections = await Promise.all(
    ['persistence', 'memory'].map((section) => redis.info(section).catch(() => null)),
  );
  const info = sections.every((section) => section === null)
    ? null
    : sections.filter((section) => section !== null).join('\n');
  return { config: Object.fromEntries(names.map((name, i) => [name, answers[i] ?? null])), info };
}

/** Pino's and Fastify's loggers both fit. */
export interface DurabilityLogger {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

export const REDIS_DURABILITY_ADVICE =
  'Run Redis with appendonly yes (or save snapshots) and maxmemory-policy noeviction; see "Operating it" in the README.';

/** Logs the verdict: a warning when jobs could be lost or the settings could not be read. */
export function logRedisDurability(log: DurabilityLogger, verdict: RedisDurability): void {
  if (verdict.problems.length > 0) {
    log.warn(
      {
        redisProblems: verdict.problems,
        ...(verdict.unchecked.length ? { unchecked: verdict.unchecked } : {}),
      },
      `Redis can lose queued jobs: ${verdict.problems.join('; ')}. ${REDIS_DURABILITY_ADVICE}`,
    );
  } else if (verdict.unchecked.length > 0) {
    log.warn(
      { unchecked: verdict.unchecked },
      `Could not check whether Redis keeps queued jobs (${verdict.unchecked.join(', ')} not readable, e.g. CONFIG refused by a managed Redis). ${REDIS_DURABILITY_ADVICE}`,
    );
  } else {
    log.info({}, 'Redis keeps queued jobs across restarts (persistence on, maxmemory-policy noeviction)');
  }
}

/**
 * Reads, judges and logs once. Never throws: settings it could not read are reported as
 * unchecked. Null (and nothing logged) when the connection closed meanwhile.
 */
export async function checkRedisDurability(
  redis: Redis,
  log: DurabilityLogger,
): Promise<RedisDurability | null> {
  let verdict: RedisDurability;
  try {
    verdict = assessRedisDurability(await readRedisDurabilityFacts(redis));
  } catch {
    verdict = assessRedisDurability({ config: {}, info: null });
  }
  // Closed or lost meanwhile (e.g. shutting down): the answers say nothing about the settings,
  // and the next 'ready' checks again.
  if (redis.status !== 'ready') return null;
  logRedisDurability(log, verdict);
  return verdict;
}

/**
 * Checks on every (re)connect of `redis`: at start, and again after Redis restarted (which is
 * when a Redis without persistence has just lost the queue). Call it right after creating the
 * client, before it is ready.
 */
export function watchRedisDurability(redis: Redis, log: DurabilityLogger): void {
  redis.on('ready', () => {
    void checkRedisDurability(redis, log);
  });
}
