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
 * throws is tried again, as what it reads may not exist yet).
 */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 60_000, intervalMs = 25 }: WaitForOptions = {},
): Promise<T> {
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
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}
