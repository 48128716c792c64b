/**
 * The proxy's pacing for Discord's global limit: at most `perSecond` requests in any one second
 * as Discord counts them, whatever that second's alignment.
 *
 * Discord opens its one-second window when the first request ARRIVES; a limiter that counts
 * seconds from when requests LEAVE (as @discordjs/rest does) starts its next second up to one
 * round trip before Discord's window ends, so a burst at full rate gets 429s. The gate bounds
 * arrivals instead: a request arrives at Discord after it is sent and before its answer comes
 * back. It keeps, for the last N = `perSecond` requests sent, the time their answer came back
 * (+∞ while in flight), and sends request k only 1000 ms after the answer of request k - N. Then
 * arrival(k) >= send(k) >= answer(k - N) + 1000 >= arrival(k - N) + 1000: no second at Discord
 * holds more than N arrivals, and the proxy sends N per second plus one round trip.
 *
 * FIFO, one timer for all waiters.
 */
export class GlobalGate {
  /** Slot k mod N: when request k - N's answer came back; +∞ while in flight, -∞ when never used. */
  private readonly answeredAt: number[];
  private next = 0;
  private readonly waiters: Array<(release: () => void) => void> = [];
  private head = 0;
  private timer: NodeJS.Timeout | null = null;
  private seed: number;

  constructor(
    readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
    /**
     * Slots counted as answered at the first `acquire`: with `perSecond / 2` the first second
     * sends half the limit (the proxy that just took over, see proxy.ts `becomeActive`).
     */
    seeded = 0,
  ) {
    if (!Number.isInteger(perSecond) || perSecond < 1)
      throw new RangeError('perSecond must be a positive integer');
    this.answeredAt = new Array<number>(perSecond).fill(Number.NEGATIVE_INFINITY);
    this.seed = Math.min(perSecond, Math.max(0, Math.floor(seeded)));
  }

  /** Requests waiting for their turn. */
  get waiting(): number {
    return this.waiters.length - this.head;
  }

  /**
   * Resolves when the request may be sent, with the function to call once its answer (or its
   * failure) came back. Until then its slot counts as in flight.
   */
  acquire(): Promise<() => void> {
    if (this.seed > 0) {
      // The seeded slots are the last ones taken, so the free ones go first.
      const at = this.now();
      for (let i = this.answeredAt.length - this.seed; i < this.answeredAt.length; i += 1)
        this.answeredAt[i] = at;
      this.seed = 0;
    }
    if (this.waiting === 0 && this.readyAt() <= this.now()) return Promise.resolve(this.take());
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      if (this.waiting === 1) this.schedule();
    });
  }

  /** When the next slot frees: its request's answer plus one second (+∞ while it is in flight). */
  private readyAt(): number {
    return (this.answeredAt[this.next] ?? Number.NEGATIVE_INFINITY) + 1000;
  }

  private take(): () => void {
    const slot = this.next;
    this.answeredAt[slot] = Number.POSITIVE_INFINITY;
    this.next = (this.next + 1) % this.answeredAt.length;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.answeredAt[slot] = this.now();
      // Only the answer of the slot next in line can let a waiter go.
      if (slot === this.next && this.waiting > 0) this.schedule();
    };
  }

  private drain = (): void => {
    this.timer = null;
    while (this.waiting > 0 && this.readyAt() <= this.now()) {
      const resolve = this.waiters[this.head];
      this.waiters[this.head] = undefined as never;
      this.head += 1;
      resolve?.(this.take());
    }
    if (this.head > 1024 && this.head * 2 > this.waiters.length) {
      this.waiters.splice(0, this.head);
      this.head = 0;
    }
    this.schedule();
  };

  private schedule(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.waiting === 0) return;
    const at = this.readyAt();
    // In flight: its release schedules again.
    if (at === Number.POSITIVE_INFINITY) return;
    this.timer = setTimeout(this.drain, Math.max(0, Math.ceil(at - this.now())));
  }
}

/** Interaction callbacks and interaction webhooks: Discord does not count them in the global limit. */
export function exemptFromGlobalLimit(route: string): boolean {
  return /^\/interactions\/\d+\/[^/]+\/callback$/.test(route) || /^\/webhooks\/\d+\/[^/]+(\/|$)/.test(route);
}
