import { setTimeout as sleep } from 'node:timers/promises';
import { identifyBucketKey } from '@spacecadet/contract';
import type { RedisClient } from '@spacecadet/runtime/redis-client';
import type { WebSocketOptions } from 'discord.js';

// @discordjs/ws's types as discord.js's `ws` option names them (no direct dependency on it).
type BuildIdentifyThrottler = NonNullable<WebSocketOptions['buildIdentifyThrottler']>;
type WebSocketManager = Parameters<BuildIdentifyThrottler>[0];
type IIdentifyThrottler = Awaited<ReturnType<BuildIdentifyThrottler>>;

/**
 * Added to the interval on the Redis slot: the IDENTIFY leaves a moment after the slot is taken
 * and may reach Discord later than the next process's does, which must not land inside the
 * window. (discord.js's in-process throttler adds up to 1.5 s for the same reason.)
 */
export function identifyMarginMs(intervalMs: number): number {
  return Math.min(500, Math.max(100, Math.round(intervalMs / 5)));
}

/**
 * Discord lets each rate-limit bucket (`shard_id % max_concurrency`) IDENTIFY once per 5
 * seconds per bot, whichever process sends it; discord.js's own throttler only knows its own
 * process's shards, so workers starting together (compose `--scale`, a rolling restart) would
 * be answered with Invalid Session and retry blindly. This one takes the bucket's slot in Redis
 * (SET NX with a TTL of the interval) before each IDENTIFY, and otherwise waits for the slot's
 * TTL to run out, so every process identifies in turn.
 */
export class RedisIdentifyThrottler implements IIdentifyThrottler {
  constructor(
    private readonly redis: RedisClient,
    private readonly maxConcurrency: number,
    private readonly intervalMs: number,
    /** Stored as the slot's value, so `redis-cli` shows who identified last. */
    private readonly token: string,
  ) {}

  async waitForIdentify(shardId: number, signal: AbortSignal): Promise<void> {
    const key = identifyBucketKey(shardId % this.maxConcurrency);
    const ttl = this.intervalMs + identifyMarginMs(this.intervalMs);
    for (;;) {
      signal.throwIfAborted();
      if ((await this.redis.set(key, this.token, 'PX', ttl, 'NX')) === 'OK') return;
      // -2: gone meanwhile, try at once; -1 (no TTL, set by hand): wait a whole interval.
      const left = await this.redis.pttl(key);
      const wait = left === -2 ? 0 : left === -1 ? ttl : left;
      // A little spread, so processes woken together do not all hit Redis at the same instant.
      await sleep(wait + Math.floor(Math.random() * 20), undefined, { signal });
    }
  }
}

/**
 * `ws.buildIdentifyThrottler` for discord.js: reads `max_concurrency` from `GET /gateway/bot`,
 * as discord.js's default does, and coordinates through Redis.
 */
export function redisIdentifyThrottler(
  redis: RedisClient,
  intervalMs: number,
  token: string,
): BuildIdentifyThrottler {
  return async (manager: WebSocketManager): Promise<IIdentifyThrottler> => {
    const info = await manager.fetchGatewayInformation();
    return new RedisIdentifyThrottler(redis, info.session_start_limit.max_concurrency, intervalMs, token);
  };
}
