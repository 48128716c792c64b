/**
 * Discord's global rate limit: a bot token may make `perSecond` requests a second across all
 * routes (50 for most bots). Interaction callbacks and interaction webhooks (the follow-ups and
 * `@original` edits of `/webhooks/:app/:token/...`) are not bound to it; neither are requests
 * made without the bot token.
 *
 * A window opens with the first counted request after the previous one closed and lasts one
 * second; a request over the limit is refused with a global 429 and not counted, as a client
 * that honours `retry_after` (discord.js counts the same way, plus its 50 ms offset) never sees.
 * Off (null) unless the server is started with `globalRateLimit`, `SANDBOX_GLOBAL_RATE_LIMIT`
 * is set, or a test turns it on with `PUT /_sandbox/global-rate-limit`.
 */
export class GlobalRateLimit {
  private limit: number | null;
  private windowEndsAt = 0;
  private used = 0;

  constructor(private readonly configured: number | null) {
    this.limit = configured;
  }

  get perSecond(): number | null {
    return this.limit;
  }

  /** Changes the limit and starts a fresh window. */
  set(perSecond: number | null): void {
    this.limit = perSecond;
    this.windowEndsAt = 0;
    this.used = 0;
  }

  /** Back to the limit the server was started with (a reset of the world does this). */
  restore(): void {
    this.set(this.configured);
  }

  /** Counts one request made at `now`: 0 if allowed, else the milliseconds until the window closes. */
  take(now: number): number {
    if (this.limit === null) return 0;
    if (now >= this.windowEndsAt) {
      this.windowEndsAt = now + 1000;
      this.used = 0;
    }
    if (this.used >= this.limit) return this.windowEndsAt - now;
    this.used += 1;
    return 0;
  }
}

/** Interaction callbacks and interaction webhooks: not bound to the global limit on Discord. */
export function exemptFromGlobalLimit(path: string): boolean {
  return /^\/interactions\/\d+\/[^/]+\/callback$/.test(path) || /^\/webhooks\/\d+\/[^/]+(\/|$)/.test(path);
}

/**
 * Discord's per-route buckets for the bot token: each bucket (a method and route template, per
 * major parameter: channel, guild or webhook) allows `limit` requests per window. Reported in the
 * `X-RateLimit-*` headers always; enforced only when switched on (`routeRateLimits`,
 * `SANDBOX_ROUTE_RATE_LIMITS=1`, `PUT /_sandbox/route-rate-limits {enforce}`), so benchmarks
 * measure our code rather than waits. Off, `remaining` never drops below 1.
 *
 * One bucket is enforced on its own switch, on unless turned off: creating messages, 5 per 5 s
 * per channel (`channelMessageLimit`, `SANDBOX_CHANNEL_MESSAGE_LIMIT=0`, `PUT
 * /_sandbox/route-rate-limits {channel_messages}`). It is the limit a welcome or level-up flood
 * meets first on Discord, and clients that follow the headers (discord.js, the proxy) wait for it
 * rather than see a 429.
 */
export class RouteRateLimits {
  private enforcing: boolean;
  private messages: boolean;
  private readonly windows = new Map<string, { resetAt: number; used: number }>();

  constructor(
    private readonly configured: boolean,
    private readonly configuredMessages = true,
  ) {
    this.enforcing = configured;
    this.messages = configuredMessages;
  }

  get enforce(): boolean {
    return this.enforcing;
  }

  /** Whether the per-channel message bucket is enforced (also when `enforce` is). */
  get channelMessages(): boolean {
    return this.messages;
  }

  /** Switches enforcement of every bucket and starts every bucket afresh. */
  set(enforce: boolean): void {
    this.enforcing = enforce;
    this.windows.clear();
  }

  /** Switches enforcement of the per-channel message bucket and starts every bucket afresh. */
  setChannelMessages(enforce: boolean): void {
    this.messages = enforce;
    this.windows.clear();
  }

  restore(): void {
    this.messages = this.configuredMessages;
    this.set(this.configured);
  }

  /**
   * Counts one request on bucket `key` at `now` (a refused one is not counted, as on Discord).
   * `limited` only when the bucket is enforced (all are, or it is the channel message bucket and
   * that one is) and spent.
   */
  take(
    key: string,
    limit: number,
    windowMs: number,
    now: number,
    counted: boolean,
    channelMessage = false,
  ): { limited: boolean; remaining: number; resetAt: number } {
    const enforced = this.enforcing || (channelMessage && this.messages);
    let win = this.windows.get(key);
    if (!win || win.resetAt <= now) {
      win = { resetAt: now + windowMs, used: 0 };
      this.windows.set(key, win);
    }
    if (enforced && counted && win.used >= limit) {
      return { limited: true, remaining: 0, resetAt: win.resetAt };
    }
    win.used += 1;
    const remaining = limit - win.used;
    return {
      limited: false,
      remaining: enforced ? Math.max(0, remaining) : Math.max(1, remaining),
      resetAt: win.resetAt,
    };
  }
}

/**
 * Discord's invalid-request count: 401, 403 and 429 answers (a 429 of scope `shared` aside) in
 * the last 10 minutes; at 10,000 Discord bans the IP for an hour. The sandbox counts those it
 * gives to requests made with a bot token, so a test can see how many a run cost.
 */
export class InvalidRequestCount {
  static readonly WINDOW_MS = 10 * 60 * 1000;
  private times: number[] = [];

  record(now: number): void {
    this.times.push(now);
  }

  count(now: number): number {
    const since = now - InvalidRequestCount.WINDOW_MS;
    let expired = 0;
    while (expired < this.times.length && (this.times[expired] ?? 0) <= since) expired += 1;
    if (expired > 0) this.times = this.times.slice(expired);
    return this.times.length;
  }

  clear(): void {
    this.times = [];
  }
}
