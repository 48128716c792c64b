/**
 * Discord's invalid-request limit: 10,000 answers of 401, 403 or 429 to one IP in 10 minutes
 * ban it for an hour. The proxy counts the ones it receives over a sliding window and stops
 * forwarding at `budget` (a margin under Discord's figure), until enough of them leave the window.
 */
export const INVALID_REQUEST_WINDOW_MS = 10 * 60 * 1000;

/** Statuses Discord counts as invalid (a 429 with `X-RateLimit-Scope: shared` is not counted). */
export function isInvalidAnswer(status: number, scope: string | null): boolean {
  return status === 401 || status === 403 || (status === 429 && scope !== 'shared');
}

export class InvalidRequestBudget {
  /** When each counted answer arrived, oldest first. */
  private readonly times: number[] = [];
  private head = 0;

  constructor(
    readonly budget: number,
    private readonly windowMs = INVALID_REQUEST_WINDOW_MS,
  ) {}

  private expire(now: number): void {
    while (this.head < this.times.length && (this.times[this.head] ?? 0) <= now - this.windowMs)
      this.head += 1;
    // Compact now and then so the array does not grow for ever.
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times.splice(0, this.head);
      this.head = 0;
    }
  }

  record(now: number): void {
    this.times.push(now);
  }

  count(now: number): number {
    this.expire(now);
    return this.times.length - this.head;
  }

  /** 0 while requests may go out, else the milliseconds until the count falls under the budget. */
  waitMs(now: number): number {
    const count = this.count(now);
    if (count < this.budget) return 0;
    // The count is under budget once the (count - budget + 1) oldest answers have left the window.
    const freeing = this.times[this.head + count - this.budget] ?? now;
    return Math.max(1, freeing + this.windowMs - now);
  }
}
