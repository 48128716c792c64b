import { randomUUID } from 'node:crypto';
import { discordProxyLeaseKey } from '@spacecadet/contract';
import type { RedisClient } from '@spacecadet/runtime/redis-client';
import type { Logger } from 'pino';

/**
 * Which of several proxies is the active one, the one that holds the token's limits and sends to
 * Discord: the holder of a lease in Redis. Only one process may send, or the token's limits are
 * counted twice; the others stand by and forward to the holder, and the first to find the lease
 * lapsed takes it.
 */

// KEYS[1]: the lease. ARGV[1]: our value, ARGV[2]: TTL ms. Takes the lease when nobody holds it,
// renews it when we do, in one step, so two standbys never both take it. Returns the holder's value.
const TAKE_OR_RENEW = `
local holder = redis.call('GET', KEYS[1])
if not holder or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return ARGV[1]
end
return holder`;

// KEYS[1]: the lease. ARGV[1]: our value. Frees it if still ours (a clean stop hands over at once).
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`;

/** What the lease says now: this process sends (`active`), forwards to `url`, or does not know. */
export type LeaseView =
  | { role: 'active'; since: number }
  | { role: 'standby'; url: string }
  | { role: 'unknown' };

export interface ProxyLease {
  /** The current view; `active` only while the last renewal is younger than the TTL. */
  view(): LeaseView;
  /** Resolves at the next change of view (or after `timeoutMs`). */
  changed(timeoutMs: number): Promise<void>;
  /** Stops renewing and frees the lease if held. */
  close(): Promise<void>;
}

export interface ProxyLeaseOptions {
  redis: RedisClient;
  /** The URL other proxies forward to while this one is active (its `/api`). */
  url: string;
  /** 3 s: a dead holder is replaced within TTL + one renewal interval (TTL / 3) < 5 s. */
  ttlMs: number;
  logger: Logger;
  /** Called when this process becomes active (before any request is sent as active). */
  onActive: () => void;
  /** Called when it stops being active (lease taken or not renewed in time). */
  onStandby: () => void;
}

export const DEFAULT_LEASE_TTL_MS = 3_000;

/**
 * Takes or renews the lease every third of its TTL. A holder that could not renew for a whole
 * TTL (Redis unreachable, the process stalled) stops sending before the lease can lapse in Redis
 * and another take it: its last confirmed renewal was asked before Redis stamped the expiry, so
 * its own deadline comes first. Resolves after the first try, so the view is known at start.
 */
export async function startProxyLease(options: ProxyLeaseOptions): Promise<ProxyLease> {
  const { redis, ttlMs, logger } = options;
  const key = discordProxyLeaseKey();
  const value = JSON.stringify({ url: options.url, token: randomUUID() });
  const every = Math.max(50, Math.floor(ttlMs / 3));
  let view: LeaseView = { role: 'unknown' };
  let renewedAt = 0;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let waiters: Array<() => void> = [];

  const set = (next: LeaseView) => {
    const was = view;
    view = next;
    const same =
      was.role === next.role && (was.role !== 'standby' || next.role !== 'standby' || was.url === next.url);
    if (same) return;
    if (next.role === 'active') {
      logger.warn({ url: options.url }, 'this Discord proxy is now the active one: it holds the limits');
      options.onActive();
    } else if (was.role === 'active') {
      logger.warn({ view: next }, 'this Discord proxy is no longer the active one');
      options.onStandby();
    }
    if (next.role === 'standby')
      logger.info({ active: next.url }, 'standing by: forwarding to the active proxy');
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };

  const holderUrl = (holder: string): string | null => {
    try {
      const parsed = JSON.parse(holder) as { url?: unknown };
      return typeof parsed.url === 'string' ? parsed.url : null;
    } catch {
      return null;
    }
  };

  const tick = async () => {
    const askedAt = Date.now();
    try {
      const holder = (await redis.eval(TAKE_OR_RENEW, 1, key, value, String(ttlMs))) as string;
      if (closed) return;
      if (holder === value) {
        renewedAt = askedAt;
        set(view.role === 'active' ? view : { role: 'active', since: Date.now() });
      } else {
        const url = holderUrl(holder);
        set(url === null ? { role: 'unknown' } : { role: 'standby', url });
      }
    } catch (error) {
      logger.warn({ err: error }, 'the Discord proxy lease could not be read or renewed');
      if (view.role === 'active' && Date.now() - renewedAt >= ttlMs) set({ role: 'unknown' });
      else if (view.role === 'standby') set({ role: 'unknown' });
    }
  };

  const loop = async () => {
    await tick();
    if (!closed) timer = setTimeout(loop, every);
  };
  await loop();

  return {
    view() {
      // The renewal timer may run late (a busy event loop): the deadline is checked here too.
      if (view.role === 'active' && Date.now() - renewedAt >= ttlMs) set({ role: 'unknown' });
      return view;
    },
    changed(timeoutMs) {
      return new Promise((resolve) => {
        const wake = () => {
          clearTimeout(timeout);
          resolve();
        };
        const timeout = setTimeout(() => {
          waiters = waiters.filter((w) => w !== wake);
          resolve();
        }, timeoutMs);
        waiters.push(wake);
      });
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      const wasActive = view.role === 'active';
      set({ role: 'unknown' });
      if (wasActive) await redis.eval(RELEASE, 1, key, value).catch(() => {});
    },
  };
}
