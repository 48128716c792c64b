/** Polling with a deadline: what a test does to await a state another process or loop reaches. */

export interface WaitForOptions {
  /** When to give up. Generous by default: it only catches what never happens on a busy machine. */
  timeoutMs?: number;
  /** The pause between two checks. */
  intervalMs?: number;
}

/**
 * Polls until `check` returns a value other than undefined/false and resolves with it, or rejects
 * at the deadline with an error naming `what` (and the last error `check` threw: a check that
 * throws is tried again, as what it reads may not exist yet). `what` may be a function, called at
 * the deadline, to name what the check last saw as well.
 */
export async function waitFor<T>(
  what: string | (() => string),
  check: () => Promise<T | undefined | false> | T | undefined | false,
  /** The options, or only the timeout in ms. */
  options: WaitForOptions | number = {},
): Promise<T> {
  const { timeoutMs = 60_000, intervalMs = 25 } =
    typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  const awaited = typeof what === 'function' ? what() : what;
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${awaited}${last ? `: ${String(last)}` : ''}`);
}
