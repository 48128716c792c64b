import type { ApiConfig } from '../env.ts';
import { DiscordClient, DiscordError } from '../services/discord.ts';

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
  // The Discord layer wraps a request that got no answer; the reason is its cause's.
  if (error instanceof DiscordError && error.status === 0 && error.cause) return reasonOf(error.cause);
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

/** The Discord client the doctor asks with: every call bounded by CHECK_TIMEOUT_MS. */
export function doctorClient(config: ApiConfig, proxyBases: readonly string[] | null = null): DiscordClient {
  return new DiscordClient({ ...config.discord, proxyBases, timeoutMs: CHECK_TIMEOUT_MS });
}

/**
 * How a Discord call failed: `{status}` when Discord answered with an error status, `{reason}`
 * when it did not answer (or answered something unreadable).
 */
export function discordFailure(error: unknown): { status: number } | { reason: string } {
  if (error instanceof DiscordError && error.status !== 0 && error.status !== 200) {
    return { status: error.status };
  }
  return { reason: reasonOf(error) };
}
