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
