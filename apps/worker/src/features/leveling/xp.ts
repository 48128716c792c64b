import { activeBoostMultiplier, utcDay, xpForMessage } from '@spacecadet/core';
import { pruneAppliedXpBatches, writeXpBatch } from '@spacecadet/db/queries/member-xp';
import {
  Events,
  GatewayDispatchEvents,
  type GatewayMessageCreateDispatchData,
  MessageType,
} from 'discord.js';
import type { Redis } from 'ioredis';
import type { WorkerDeps } from '../../deps.ts';
import { errorFields } from '../../logger.ts';
import { onGateway } from '../feature.ts';
import { celebrateLevelUps } from './level-up.ts';
import { levelingSetups } from './setup.ts';
import {
  awardMessageXp,
  finishBatch,
  readBatch,
  takeDirtyGuilds,
  takeGuildBatch,
  takeOverStaleBatches,
  type XpBatch,
} from './xp-buffer.ts';

/** Buffered XP reaches Postgres within this (the spec allows a second). */
export const XP_FLUSH_INTERVAL_MS = 500;
/** A batch not written this long after it was taken is taken over by any process. */
const STALE_BATCH_MS = 10_000;
const GUILDS_PER_FLUSH = 500;
const CONCURRENT_WRITES = 6;
const PRUNE_BATCH_IDS_EVERY_MS = 60_000;
const BATCH_IDS_KEPT_MS = 3_600_000;

/** Members' own messages earn XP; replies count, system messages (joins, boosts, pins) do not. */
const CHAT_MESSAGE_TYPES: ReadonlySet<number> = new Set([MessageType.Default, MessageType.Reply]);

/**
 * A guild member's message earns `round(xp_per_message * multiplier * boost)` at most once per
 * cooldown, while leveling is enabled. Read from the raw packet: the member's roles (for role
 * boosts) come with it, and the worker caches no members. Bots, webhooks, system messages and
 * DMs earn nothing.
 */
export async function countMessageXp(
  deps: WorkerDeps,
  awards: Redis,
  message: GatewayMessageCreateDispatchData,
): Promise<void> {
  const guildId = message.guild_id;
  const author = message.author;
  if (!guildId || author.bot || author.system || message.webhook_id || !message.member) return;
  if (!CHAT_MESSAGE_TYPES.has(message.type)) return;
  const { settings, boosts } = await levelingSetups.get(deps, guildId);
  if (!settings.enabled) return;
  const boost = activeBoostMultiplier(boosts, {
    userId: author.id,
    roleIds: message.member.roles,
    now: new Date(),
  });
  const xp = xpForMessage({ xpPerMessage: settings.xpPerMessage, multiplier: settings.xpMultiplier, boost });
  if (xp <= 0) return;
  const awarded = await awardMessageXp(awards, {
    guildId,
    userId: author.id,
    xp,
    cooldownSec: settings.messageCooldownSec,
    username: message.member.nick ?? author.global_name ?? author.username,
    avatar: author.avatar,
  });
  deps.metrics?.xpMessage(awarded);
}

/**
 * Awards go over their own Redis connection with auto-pipelining: a busy gateway's messages
 * leave in one write per event-loop turn instead of one each, and the flusher (on the shared
 * connection) never queues behind thousands of them.
 */
const awardConnections = new WeakMap<WorkerDeps, Redis>();

function awardConnection(deps: WorkerDeps): Redis {
  let connection = awardConnections.get(deps);
  if (!connection) {
    connection = deps.redis.duplicate({ enableAutoPipelining: true });
    connection.on('error', (error) => deps.logger.warn(errorFields(error), 'redis connection error'));
    awardConnections.set(deps, connection);
  }
  return connection;
}

/**
 * Writes buffered XP to Postgres every XP_FLUSH_INTERVAL_MS: every process flushes whatever
 * guilds have XP waiting (whichever process counted it), takes over batches whose writer died,
 * and on shutdown flushes until nothing is left.
 */
class XpFlusher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private lastPrune = Date.now();
  private readonly celebrations = new Set<Promise<void>>();

  constructor(private readonly deps: WorkerDeps) {}

  start(): void {
    this.timer ??= setInterval(() => this.tick(), XP_FLUSH_INTERVAL_MS);
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.flush()
      .then(() => undefined)
      .catch((error: unknown) => this.deps.logger.warn(errorFields(error), 'xp flush failed; retrying'))
      .finally(() => {
        this.running = null;
      });
  }

  /** One pass; returns how many batches it wrote. */
  async flush(): Promise<number> {
    const { redis } = this.deps;
    const now = Date.now();
    const guilds = await takeDirtyGuilds(redis, GUILDS_PER_FLUSH);
    const batches: XpBatch[] = await takeOverStaleBatches(redis, now, STALE_BATCH_MS, 50);
    const taken = await Promise.all(guilds.map((guildId) => takeGuildBatch(redis, guildId, now)));
    for (const batch of taken) if (batch) batches.push(batch);
    const queue = [...batches];
    const writer = async () => {
      for (let batch = queue.shift(); batch; batch = queue.shift()) await this.write(batch);
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENT_WRITES, queue.length) }, writer));
    if (now - this.lastPrune > PRUNE_BATCH_IDS_EVERY_MS) {
      this.lastPrune = now;
      await pruneAppliedXpBatches(this.deps.db, new Date(now - BATCH_IDS_KEPT_MS));
    }
    return batches.length;
  }

  private async write(batch: XpBatch): Promise<void> {
    const members = await readBatch(this.deps.redis, batch);
    const { levelUps } = await writeXpBatch(this.deps.db, {
      batchId: batch.id,
      guildId: batch.guildId,
      day: utcDay(new Date()),
      members,
    });
    await finishBatch(this.deps.redis, batch);
    if (levelUps.length === 0) return;
    const celebration = celebrateLevelUps(this.deps, batch.guildId, levelUps)
      .catch((error: unknown) =>
        this.deps.logger.warn(
          { ...errorFields(error), guildId: batch.guildId },
          'level-up announcement failed',
        ),
      )
      .finally(() => this.celebrations.delete(celebration));
    this.celebrations.add(celebration);
  }

  /** Stops the timer and writes everything buffered (no message arrives any more). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    // Another process's buffered guilds are flushed too: whoever stops last leaves nothing.
    for (let pass = 0; pass < 20; pass++) {
      if ((await this.flush()) === 0) break;
    }
    await Promise.allSettled([...this.celebrations]);
  }
}

const flushers = new WeakMap<WorkerDeps, XpFlusher>();

function flusherOf(deps: WorkerDeps): XpFlusher {
  let flusher = flushers.get(deps);
  if (!flusher) {
    flusher = new XpFlusher(deps);
    flushers.set(deps, flusher);
  }
  return flusher;
}

export const xpEvents = [
  onGateway(Events.ClientReady, 'start counting XP', (deps) => {
    levelingSetups.listen(deps);
    flusherOf(deps).start();
  }),
  onGateway('raw', 'count XP for a message', (deps, packet) => {
    if (packet.t === GatewayDispatchEvents.MessageCreate) {
      return countMessageXp(deps, awardConnection(deps), packet.d);
    }
  }),
];

/** The feature's shutdown: buffered XP goes to Postgres before it closes. */
export async function flushXpOnShutdown(deps: WorkerDeps): Promise<void> {
  // No message arrives any more (the gateway closed before shutdown hooks run).
  await awardConnections.get(deps)?.quit();
  awardConnections.delete(deps);
  await flushers.get(deps)?.stop();
  flushers.delete(deps);
  await levelingSetups.close(deps);
}
