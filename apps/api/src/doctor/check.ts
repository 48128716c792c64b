/**
 * One line of `pnpm doctor`: `✓ <what>` or `✗ <what> — <the fix in one sentence>`. Every network
 * check is bounded by CHECK_TIMEOUT_MS, so a dead host is a ✗ line, not a hang.
 */

export interface CheckLine {
  ok: boolean;
  what: string;
  /** The fix, one sentence; only on ✗. */
  fix?: string;
}

export const CHECK_TIMEOUT_MS = 5_000;

export const pass = (what: string): CheckLine => ({ ok: true, what });
export const fail = (what: string, fix: string): CheckLine => ({ ok: false, what, fix });

export function formatLine(line: CheckLine): string {
  return line.ok ? `✓ ${line.what}` : `✗ ${line.what} — ${line.fix ?? ''}`;
}

/** The reason an error gives, short: its message, or its code for a bare network error. */
export function reasonOf(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') {
      return `no answer within ${CHECK_TIMEOUT_MS / 1000} s`;
    }
    const cause = (error as { cause?: { code?: string } }).cause;
    if (error.message === 'fetch failed' && cause?.code) return cause.code;
    if (error.message) return error.message;
    const code = (error as { code?: string }).code;
    if (code) return code;
  }
  return String(error);
}

/** An HTTP answer: the status and the parsed JSON body (null when none or not JSON). */
export interface HttpAnswer {
  status: number;
  body: unknown;
}

/** `fetch` bounded by CHECK_TIMEOUT_MS, answering the status and JSON body. */
export async function fetchJson(url: string, init: RequestInit = {}): Promise<HttpAnswer> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: res.status, body };
}
