import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** How often a replica adds its counts to Redis and learns the other replicas'. */
export const RATE_LIMIT_SYNC_MS = 100;

/**
 * Adds `ARGV[1]` to a window's counter, starting the window (`ARGV[2]` ms) on its first count;
 * answers the total across replicas and the window's remaining time.
 */
const ADD_SCRIPT = `
local total = redis.call('INCRBY', KEYS[1], ARGV[1])
if total == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]); ttl = tonumber(ARGV[2]) end
return {total, ttl}
`;

interface Counter {
  /** Total across replicas as Redis last answered, including our counts it acknowledged. */
  known: number;
  /** Counted here since the last sync began, not yet sent. */
  pending: number;
  /** Sent in a sync Redis has not answered yet. */
  sending: number;
  windowMs: number;
  endsAt: number;
}

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

type AddCommand = (key: string, add: number, windowMs: number) => Promise<[number, number]>;

/**
 * The counts behind @fastify/rate-limit, answered from memory and shared through Redis.
 *
 * The plugin's own Redis store makes one Redis call per request, the largest cost of a cached
 * read. Here a request only counts in memory; every RATE_LIMIT_SYNC_MS each replica adds what it
 * counted to the window's Redis counter (one pipelined call per active key) and learns the
 * total, so a limit holds across replicas, each seeing the others' requests within one sync.
 * Redis failing changes nothing for the caller: counting goes on in memory (the plugin's
 * `skipOnError` spirit) and catches up with Redis when it is back.
 */
class CounterSync {
  private readonly counters = new Map<string, Counter>();
  private timer: NodeJS.Timeout | null = null;
  private readonly add: AddCommand;
  private closed = false;

  constructor(
    redis: Redis,
    private readonly log: Pick<FastifyBaseLogger, 'debug'>,
  ) {
    if (!('rateLimitAdd' in redis)) redis.defineCommand('rateLimitAdd', { numberOfKeys: 1, lua: ADD_SCRIPT });
    this.add = (key, add, windowMs) =>
      (redis as unknown as { rateLimitAdd: AddCommand }).rateLimitAdd(key, add, windowMs);
  }

  count(key: string, windowMs: number, increment: boolean): { current: number; ttl: number } {
    const now = Date.now();
    let counter = this.counters.get(key);
    if (counter === undefined || counter.endsAt <= now) {
      counter = { known: 0, pending: 0, sending: 0, windowMs, endsAt: now + windowMs };
      this.counters.set(key, counter);
    }
    if (increment) {
      counter.pending += 1;
      this.timer ??= this.closed ? null : setTimeout(() => void this.sync(), RATE_LIMIT_SYNC_MS).unref();
    }
    return { current: counter.known + counter.sending + counter.pending, ttl: counter.endsAt - now };
  }

  private async sync(): Promise<void> {
    this.timer = null;
    const now = Date.now();
    const sends: Promise<void>[] = [];
    for (const [key, counter] of this.counters) {
      if (counter.pending === 0) {
        if (counter.endsAt <= now && counter.sending === 0) this.counters.delete(key);
        continue;
      }
      const sent = counter.pending;
      counter.pending = 0;
      counter.sending += sent;
      sends.push(
        this.add(key, sent, counter.windowMs).then(
          ([total, ttl]) => {
            counter.sending -= sent;
            counter.known = total;
            counter.endsAt = Date.now() + ttl;
          },
          (error: unknown) => {
            counter.sending -= sent;
            counter.known += sent;
            this.log.debug({ err: error }, 'rate limit counts not synced with Redis; counting locally');
          },
        ),
      );
    }
    await Promise.all(sends);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * A @fastify/rate-limit `store` class over one CounterSync: the plugin builds it with its global
 * settings, and `child` for each route with its own limit (keys kept apart by the route).
 */
export function syncedRateLimitStore(redis: Redis, namespace: string, log: Pick<FastifyBaseLogger, 'debug'>) {
  const counters = new CounterSync(redis, log);

  class SyncedStore {
    constructor(
      _settings: unknown,
      private readonly prefix = namespace,
    ) {}

    incr(key: string, callback: Callback, timeWindow: number): void {
      callback(null, counters.count(this.prefix + key, timeWindow, true));
    }

    read(key: string, callback: Callback, timeWindow: number): void {
      callback(null, counters.count(this.prefix + key, timeWindow, false));
    }

    /** `routeInfo` is the route (the plugin's types leave it out; its own Redis store reads it too). */
    child(routeOptions: unknown): SyncedStore {
      const { routeInfo } = routeOptions as { routeInfo: { method?: string; url?: string } };
      return new SyncedStore(null, `${this.prefix}${routeInfo.method ?? ''}${routeInfo.url ?? ''}-`);
    }
  }

  return { Store: SyncedStore, close: () => counters.close() };
}
