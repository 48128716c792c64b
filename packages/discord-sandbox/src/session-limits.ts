/**
 * Discord's session start limits on a bot token, as `GET /gateway/bot` reports them in
 * `session_start_limit` and the gateway enforces them:
 *
 * - `max_concurrency`: each rate-limit bucket (`shard_id % max_concurrency`) may IDENTIFY once
 *   per 5 seconds. An IDENTIFY over that is answered with Opcode 9 Invalid Session (`d: false`)
 *   and starts no session; the client waits and identifies again.
 * - `total` (1000) session starts a day: each accepted IDENTIFY takes one from `remaining` (a
 *   RESUME takes none); the day starts with the first IDENTIFY after the previous one ended.
 *   An IDENTIFY with none left is what Discord punishes: every active session is terminated
 *   and the bot token is reset (the old one fails with 4004 and 401 from then on).
 *
 * The interval is 5 s as on Discord; tests that start many clients shorten it (or turn the
 * per-bucket check off with 0) through `PUT /_sandbox/gateway-limits`, and a reset restores
 * what the server was started with.
 */

export const DISCORD_IDENTIFY_INTERVAL_MS = 5000;
export const DISCORD_SESSION_STARTS_PER_DAY = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const RECORD_LIMIT = 2000;

export interface SessionLimitSettings {
  maxConcurrency: number;
  /** Per bucket, the least time between two IDENTIFYs; 0: not enforced. */
  identifyIntervalMs: number;
  total: number;
}

export type IdentifyOutcome = 'accepted' | 'refused' | 'exhausted';

/** One IDENTIFY the gateway answered (tokens, shards and intents already checked). */
export interface IdentifyRecord {
  at_ms: number;
  shard: [number, number];
  /** `shard_id % max_concurrency` when it arrived. */
  bucket: number;
  /** `refused`: Opcode 9 (bucket busy); `exhausted`: no session starts left, sessions ended. */
  outcome: IdentifyOutcome;
  refused: boolean;
}

export class SessionStartLimits {
  private settings: SessionLimitSettings;
  private remainingStarts: number;
  private dayEndsAt = 0;
  private readonly lastIdentify = new Map<number, number>();
  identifies: IdentifyRecord[] = [];

  constructor(private readonly configured: SessionLimitSettings) {
    this.settings = { ...configured };
    this.remainingStarts = configured.total;
  }

  get maxConcurrency(): number {
    return this.settings.maxConcurrency;
  }

  get identifyIntervalMs(): number {
    return this.settings.identifyIntervalMs;
  }

  /**
   * Changes the settings; `total` also refills `remaining`. Bucket history is kept. Starts used
   * (`remaining` below `total`) begin the day at `now` if none has begun, so `reset_after` says
   * when they come back, as Discord's does.
   */
  set(changes: Partial<SessionLimitSettings> & { remaining?: number }, now?: number): void {
    const { remaining, ...settings } = changes;
    this.settings = { ...this.settings, ...settings };
    if (settings.total !== undefined) this.remainingStarts = settings.total;
    if (remaining !== undefined) this.remainingStarts = remaining;
    if (now !== undefined && this.dayEndsAt === 0 && this.remainingStarts < this.settings.total) {
      this.dayEndsAt = now + DAY_MS;
    }
  }

  /** Back to the server's start-up settings, a full day's starts and an empty record. */
  restore(): void {
    this.settings = { ...this.configured };
    this.remainingStarts = this.configured.total;
    this.dayEndsAt = 0;
    this.lastIdentify.clear();
    this.identifies = [];
  }

  private rollDay(now: number): void {
    if (this.dayEndsAt !== 0 && now >= this.dayEndsAt) {
      this.dayEndsAt = 0;
      this.remainingStarts = this.settings.total;
    }
  }

  /** `session_start_limit` of `GET /gateway/bot`. */
  snapshot(now: number) {
    this.rollDay(now);
    return {
      total: this.settings.total,
      remaining: this.remainingStarts,
      reset_after: this.dayEndsAt === 0 ? 0 : this.dayEndsAt - now,
      max_concurrency: this.settings.maxConcurrency,
    };
  }

  /** Decides an IDENTIFY for `shard` arriving at `now`, and records it. */
  take(now: number, shard: [number, number]): IdentifyOutcome {
    this.rollDay(now);
    const bucket = shard[0] % this.settings.maxConcurrency;
    let outcome: IdentifyOutcome = 'accepted';
    const last = this.lastIdentify.get(bucket);
    if (this.remainingStarts <= 0) outcome = 'exhausted';
    else if (
      this.settings.identifyIntervalMs > 0 &&
      last !== undefined &&
      now - last < this.settings.identifyIntervalMs
    )
      outcome = 'refused';
    if (outcome === 'accepted') {
      this.lastIdentify.set(bucket, now);
      this.remainingStarts -= 1;
      if (this.dayEndsAt === 0) this.dayEndsAt = now + DAY_MS;
    }
    this.identifies.push({ at_ms: now, shard: [...shard], bucket, outcome, refused: outcome !== 'accepted' });
    if (this.identifies.length > RECORD_LIMIT) this.identifies.shift();
    return outcome;
  }

  dump(now: number) {
    return {
      ...this.snapshot(now),
      identify_interval_ms: this.settings.identifyIntervalMs,
      identifies: structuredClone(this.identifies),
    };
  }
}
