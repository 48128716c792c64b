import { randomUUID } from 'node:crypto';
import { type ApiCacheDrop, decodeApiCacheDrop, encodeApiCacheDrop } from '@spacecadet/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/**
 * A Map whose entries expire, bounded: past `maxEntries` the oldest entry goes. Served only while
 * `serving()` says so. A read-through fill must not bring back what a drop removed while it was
 * reading: take `version()` before reading and `fill` with it; a fill after any drop is ignored.
 */
export class ExpiringMap<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();
  private drops = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly serving: () => boolean = () => true,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > Date.now()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Count of drops so far, to hand back to `fill`. */
  version(): number {
    return this.drops;
  }

  /** Keeps `value` unless a drop happened since `version` or nothing may be served now. */
  fill(key: K, value: V, version: number, ttlMs = this.ttlMs): void {
    if (version !== this.drops || !this.serving()) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt: Date.now() + Math.min(ttlMs, this.ttlMs) });
  }

  delete(key: K): void {
    this.drops += 1;
    this.entries.delete(key);
  }

  deleteWhere(matches: (value: V) => boolean): void {
    this.drops += 1;
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.drops += 1;
    this.entries.clear();
  }
}

/** The longest a change's request waits for the other replicas to confirm a drop. */
export const ACK_WAIT_MS = 250;

/** What an in-process copy may hold at most, and for how long. */
export interface ReplicaCacheLimits {
  ttlMs: number;
  maxEntries: number;
}

/**
 * The API's in-process copies of what every guarded request re-reads (the session, the user's
 * manageable guilds, a guild's config), kept correct across API replicas:
 *
 * - A change is announced on one Redis pub/sub channel (`apiCacheChannel`), and the request that
 *   made it answers only once every subscribed replica has said it dropped its copy (an ack on
 *   `${channel}:acks`; at most ACK_WAIT_MS, a bound for a replica that hangs). So no replica
 *   serves a copy older than a change whose request has returned.
 * - A replica whose subscriber connection is not subscribed (Redis down, reconnecting) may have
 *   missed announcements: it serves nothing from memory and keeps nothing until it is subscribed
 *   again, and then starts empty.
 * - Every entry also expires on its own (`ttlMs`), a bound for changes nobody announces.
 *
 * `ExpiringMap`s are created through `map()`, so all of them are cleared together.
 */
export class ReplicaCache {
  private live = false;
  private readonly maps: ExpiringMap<unknown, unknown>[] = [];
  private readonly handlers: Array<(drop: ApiCacheDrop) => void> = [];
  private readonly ackChannel: string;
  /** Announcements of this replica waiting for acks: token -> acks so far, and how many are due. */
  private readonly waiting = new Map<string, { acks: number; due: number; done: () => void }>();

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly channel: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.ackChannel = `${channel}:acks`;
    subscriber.on('message', (from: string, message: string) => {
      if (from === this.ackChannel) return this.acked(message);
      if (from !== channel) return;
      const decoded = decodeApiCacheDrop(message);
      if (decoded === null) this.clear();
      else for (const handle of this.handlers) handle(decoded.drop);
      if (decoded?.ack) this.publisher.publish(this.ackChannel, decoded.ack).catch(() => {});
    });
    // Subscriptions are remade by ioredis after a reconnect; until then announcements are lost.
    subscriber.on('close', () => this.goStale());
    subscriber.on('ready', () => void this.subscribe());
  }

  /** Subscribes now (and after every reconnect); memory is used only while subscribed. */
  async start(): Promise<void> {
    if (this.subscriber.status === 'ready') await this.subscribe();
  }

  /** A new in-process map, served only while subscribed, emptied with all others. */
  map<K, V>(limits: ReplicaCacheLimits, onDrop: (map: ExpiringMap<K, V>, drop: ApiCacheDrop) => void) {
    const map = new ExpiringMap<K, V>(limits.ttlMs, limits.maxEntries, () => this.live);
    this.maps.push(map as ExpiringMap<unknown, unknown>);
    this.handlers.push((drop) => onDrop(map, drop));
    return map;
  }

  /**
   * Drops the copy here and tells every replica to, before the change's request answers. A
   * Redis failure is logged, not thrown: the change itself is stored, and replicas that cannot
   * hear Redis serve nothing from memory anyway.
   */
  async announce(drop: ApiCacheDrop): Promise<void> {
    for (const handle of this.handlers) handle(drop);
    const token = randomUUID();
    let done = () => {};
    const confirmed = new Promise<void>((resolve) => {
      done = resolve;
    });
    const waiter = { acks: 0, due: Number.POSITIVE_INFINITY, done };
    this.waiting.set(token, waiter);
    const timer = setTimeout(done, ACK_WAIT_MS);
    try {
      // Every replica's subscriber connection (this one's too) got it: that many acks are due.
      waiter.due = await this.publisher.publish(this.channel, encodeApiCacheDrop(drop, token));
      if (waiter.acks >= waiter.due) done();
      await confirmed;
      if (waiter.acks < waiter.due)
        this.log.warn(
          { drop, acks: waiter.acks, due: waiter.due },
          'not every API replica confirmed a cache drop in time',
        );
    } catch (error) {
      this.log.warn({ err: error, drop }, 'could not announce a cache drop to other API replicas');
    } finally {
      clearTimeout(timer);
      this.waiting.delete(token);
    }
  }

  private acked(token: string): void {
    const waiter = this.waiting.get(token);
    if (waiter === undefined) return;
    waiter.acks += 1;
    if (waiter.acks >= waiter.due) waiter.done();
  }

  private async subscribe(): Promise<void> {
    try {
      await this.subscriber.subscribe(this.channel, this.ackChannel);
      // Whatever was kept before may predate an announcement missed while away.
      this.clear();
      this.live = true;
    } catch (error) {
      this.log.warn({ err: error }, 'API cache channel: subscribe failed; serving from Postgres and Redis');
      this.goStale();
    }
  }

  private goStale(): void {
    this.live = false;
    this.clear();
  }

  private clear(): void {
    for (const map of this.maps) map.clear();
  }
}
