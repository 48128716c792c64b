import { utcDay } from '@spacecadet/core';
import { type PendingLevelUp, pruneAppliedXpBatches, writeXpBatches } from '@spacecadet/db/queries/member-xp';
import type { Redis } from 'ioredis';
import type { WorkerDeps } from '../../deps.ts';
import { errorFields } from '../../logger.ts';
import { deliverDueLevelUps, deliverLevelUps, LEVEL_UP_LEASE_MS } from './level-up.ts';
import {
  finishBatch,
  readBatch,
  takeDirtyGuilds,
  takeGuildBatch,
  takeOverStaleBatches,
  type XpBatch,
} from './xp-batches.ts';
import { awardConnection, priceUnpriced } from './xp-count.ts';
import { hasLegacyXpSets, moveLegacyXp } from './xp-upgrade.ts';

/**
 * Flushing XP: the Redis buffer's batches written to PostgreSQL every half second by every
 * process, batches of a dead writer taken over, failed writes kept and retried, level-ups
 * handed to their delivery. Counting (`xp-count.ts`) fills the buffer.
 */

/** Buffered XP reaches Postgres within this: a SIGKILL loses at most a second of XP. */
export const XP_FLUSH_INTERVAL_MS = 500;
/** A batch not written this long after it was taken is taken over by any process. */
const STALE_BATCH_MS = 10_000;
const GUILDS_PER_FLUSH = 500;
const CONCURRENT_WRITES = 6;
/**
 * Guilds' batches written in one transaction at most: a flush over thousands of guilds costs a
 * few commits, not one per guild (each with its round trips), which made XP slower per guild.
 */
const BATCHES_PER_WRITE = 100;
const PRUNE_BATCH_IDS_EVERY_MS = 60_000;
/** How often a process looks for level-ups another process recorded but did not deliver. */
const DUE_LEVEL_UPS_EVERY_MS = 2_000;
const BATCH_IDS_KEPT_MS = 3_600_000;
/** How often a flusher looks again for XP old workers (before the slot tags) left behind. */
const LEGACY_CHECK_EVERY_MS = 60_000;

/**
 * Writes buffered XP to Postgres every XP_FLUSH_INTERVAL_MS: every process flushes whatever
 * guilds have XP waiting (whichever process counted it), takes over batches whose writer died,
 * prices messages kept during an outage, and on shutdown flushes until nothing is left.
 *
 * A batch whose write fails (Postgres down) is kept and written again on the next pass, before
 * anything else; while it fails, new XP stays in the guilds' buffers in Redis (one hash per
 * guild however long the outage), and is written once Postgres is back. No batch is dropped.
 */
class XpFlusher {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private running: Promise<void> | null = null;
  private lastPrune = Date.now();
  private lastDueLevelUps = 0;
  private sweeping = false;
  /** When the old (untagged) XP layout was last looked for; 0: never, so the first pass does. */
  private lastLegacyCheck = 0;
  private readonly celebrations = new Set<Promise<void>>();
  /** Batches taken out of Redis whose write failed, by id: written again first. */
  private readonly retrying = new Map<string, XpBatch>();

  constructor(
    private readonly deps: WorkerDeps,
    private readonly awards: Redis,
  ) {}

  /**
   * Passes start XP_FLUSH_INTERVAL_MS apart, or right after the last one when it took longer:
   * a fixed interval skipped the tick a long pass overlapped and left up to an interval idle
   * after it, while the chat's XP waited.
   */
  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => this.tick(), XP_FLUSH_INTERVAL_MS);
  }

  private tick(): void {
    const started = Date.now();
    this.running = this.flush()
      .then(() => undefined)
      .catch((error: unknown) => this.deps.logger.warn(errorFields(error), 'xp flush failed; retrying'))
      .finally(() => {
        this.running = null;
        if (this.stopped) return;
        const wait = Math.max(0, XP_FLUSH_INTERVAL_MS - (Date.now() - started));
        this.timer = setTimeout(() => this.tick(), wait);
      });
  }

  /** One pass; returns how many batches it wrote (or tried to: a failed one counts, for stop). */
  async flush(): Promise<number> {
    const { redis } = this.deps;
    const now = Date.now();
    if (this.retrying.size > 0) {
      const retried = await this.writeAll([...this.retrying.values()]);
      // Postgres still fails: leave the rest buffered in Redis until it is back.
      if (this.retrying.size > 0) return retried;
    }
    await this.adoptLegacyXp(now);
    await priceUnpriced(this.deps, this.awards);
    const guilds = await takeDirtyGuilds(redis, GUILDS_PER_FLUSH);
    const batches: XpBatch[] = await takeOverStaleBatches(redis, now, STALE_BATCH_MS, 50);
    const taken = await Promise.all(guilds.map((guildId) => takeGuildBatch(redis, guildId, now)));
    for (const batch of taken) if (batch) batches.push(batch);
    const written = await this.writeAll(batches);
    if (!this.sweeping && now - this.lastDueLevelUps > DUE_LEVEL_UPS_EVERY_MS) {
      // Level-ups whose deliverer died after writing their batch.
      this.lastDueLevelUps = now;
      this.sweeping = true;
      this.celebrate(
        deliverDueLevelUps(this.deps).finally(() => {
          this.sweeping = false;
        }),
      );
    }
    if (now - this.lastPrune > PRUNE_BATCH_IDS_EVERY_MS) {
      this.lastPrune = now;
      await pruneAppliedXpBatches(this.deps.db, new Date(now - BATCH_IDS_KEPT_MS));
    }
    return written;
  }

  /**
   * XP buffered under the names of before the slot tags (an upgrade): moved under the new names
   * before this pass takes anything, so it is flushed with the rest. A full look (SCAN) at the
   * first pass; then, as long as old workers may still be running, a cheap check of the old
   * sets every LEGACY_CHECK_EVERY_MS.
   */
  private async adoptLegacyXp(now: number): Promise<void> {
    const first = this.lastLegacyCheck === 0;
    if (!first && now - this.lastLegacyCheck < LEGACY_CHECK_EVERY_MS) return;
    this.lastLegacyCheck = now;
    const { redis, logger } = this.deps;
    if (!first && !(await hasLegacyXpSets(redis))) return;
    const moved = await moveLegacyXp(redis);
    if (moved.pending + moved.batches + moved.unpriced > 0) {
      logger.info({ ...moved }, 'XP buffered under the old key names moved under the new ones');
    }
  }

  /**
   * Writes the batches, many per transaction and a few transactions at once; the batches of a
   * failed one are kept in `retrying`.
   */
  private async writeAll(batches: readonly XpBatch[]): Promise<number> {
    // Spread over the writers, so a small flush still writes in parallel.
    const size = Math.max(1, Math.min(BATCHES_PER_WRITE, Math.ceil(batches.length / CONCURRENT_WRITES)));
    const queue: XpBatch[][] = [];
    for (let start = 0; start < batches.length; start += size) queue.push(batches.slice(start, start + size));
    let failure: unknown = null;
    const writer = async () => {
      for (let chunk = queue.shift(); chunk; chunk = queue.shift()) {
        try {
          await this.write(chunk);
          for (const batch of chunk) this.retrying.delete(batch.id);
        } catch (error) {
          for (const batch of chunk) this.retrying.set(batch.id, batch);
          failure = error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENT_WRITES, queue.length) }, writer));
    if (failure !== null) {
      this.deps.logger.warn(
        { ...errorFields(failure), batches: this.retrying.size },
        'xp batch not written; kept and retried (its XP stays in Redis)',
      );
    }
    return batches.length;
  }

  private async write(batches: readonly XpBatch[]): Promise<void> {
    const { redis } = this.deps;
    const read = await Promise.all(
      batches.map(async (batch) => ({
        batchId: batch.id,
        guildId: batch.guildId,
        members: await readBatch(redis, batch),
      })),
    );
    const { levelUps } = await writeXpBatches(this.deps.db, {
      batches: read,
      day: utcDay(new Date()),
      levelUpLeaseMs: LEVEL_UP_LEASE_MS,
    });
    await Promise.all(batches.map((batch) => finishBatch(redis, batch)));
    const byGuild = new Map<string, PendingLevelUp[]>();
    for (const up of levelUps) {
      const recorded = byGuild.get(up.guildId) ?? [];
      recorded.push({
        guildId: up.guildId,
        userId: up.userId,
        level: up.level,
        previousLevel: up.previousLevel,
        channelId: up.channelId,
        username: up.username,
        announcing: false,
        recordedAt: up.recordedAt,
      });
      byGuild.set(up.guildId, recorded);
    }
    for (const [guildId, recorded] of byGuild) this.celebrate(deliverLevelUps(this.deps, guildId, recorded));
  }

  private celebrate(delivery: Promise<unknown>): void {
    const celebration = delivery
      .then(() => undefined)
      .catch((error: unknown) =>
        this.deps.logger.warn(errorFields(error), 'level-up announcement failed; retried after its lease'),
      )
      .finally(() => this.celebrations.delete(celebration));
    this.celebrations.add(celebration);
  }

  /** Stops the timer and writes everything buffered (no message arrives any more). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    // Another process's buffered guilds are flushed too: whoever stops last leaves nothing.
    for (let pass = 0; pass < 20; pass++) {
      if ((await this.flush().catch(() => 1)) === 0) break;
    }
    await Promise.allSettled([...this.celebrations]);
  }
}

const flushers = new WeakMap<WorkerDeps, XpFlusher>();

export function flusherOf(deps: WorkerDeps): XpFlusher {
  let flusher = flushers.get(deps);
  if (!flusher) {
    flusher = new XpFlusher(deps, awardConnection(deps));
    flushers.set(deps, flusher);
  }
  return flusher;
}

/** Stops the process's flusher after writing everything buffered. */
export async function stopXpFlusher(deps: WorkerDeps): Promise<void> {
  await flushers.get(deps)?.stop();
  flushers.delete(deps);
}
