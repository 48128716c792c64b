import { activeBoostMultiplier, earnsNoXp, utcDay, xpForMessage } from '@spacecadet/core';
import { type PendingLevelUp, pruneAppliedXpBatches, writeXpBatches } from '@spacecadet/db/queries/member-xp';
import {
  Events,
  GatewayDispatchEvents,
  type GatewayMessageCreateDispatchData,
  MessageType,
  SnowflakeUtil,
} from 'discord.js';
import type { Redis } from 'ioredis';
import type { WorkerDeps } from '../../deps.ts';
import { errorFields } from '../../logger.ts';
import { onGateway } from '../feature.ts';
import { deliverDueLevelUps, deliverLevelUps, LEVEL_UP_LEASE_MS } from './level-up.ts';
import { type LevelingSetup, levelingSetups } from './setup.ts';
import {
  awardMessageXp,
  awardUnpriced,
  defineXpScripts,
  finishBatch,
  hasUnpriced,
  keepUnpriced,
  type MessageXp,
  readBatch,
  readUnpriced,
  releaseUnpricedGuild,
  takeDirtyGuilds,
  takeGuildBatch,
  takeOverStaleBatches,
  takeUnpricedGuilds,
  type UnpricedMessage,
  type XpBatch,
} from './xp-buffer.ts';

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

/** Members' own messages earn XP; replies count, system messages (joins, boosts, pins) do not. */
const CHAT_MESSAGE_TYPES: ReadonlySet<number> = new Set([MessageType.Default, MessageType.Reply]);

/** A guild's setup read that takes longer than this leaves the message to be priced later. */
const SETUP_READ_TIMEOUT_MS = 3_000;
/** Unpriced messages priced per script call, and how long a process keeps a guild to price. */
const UNPRICED_PER_CALL = 500;
const UNPRICED_LEASE_MS = 30_000;
/**
 * Guilds a flush prices at most, and at once: their setups are read together (the cache
 * batches its misses), so a backlog of thousands of guilds drains in seconds, not minutes.
 */
const UNPRICED_GUILDS_PER_FLUSH = 1_000;
const CONCURRENT_PRICINGS = 50;

/**
 * Per process, the guilds whose messages it left unpriced (their setup could not be read) and
 * how many: while any wait in Redis, the guild's later messages queue behind them, so messages
 * are counted in order (the cooldown compares each with the one counted before it).
 */
const unpricedGuilds = new WeakMap<WorkerDeps, Map<string, number>>();

function unpricedOf(deps: WorkerDeps): Map<string, number> {
  let guilds = unpricedGuilds.get(deps);
  if (!guilds) {
    guilds = new Map();
    unpricedGuilds.set(deps, guilds);
  }
  return guilds;
}

/**
 * What a message counts for under the guild's setup: its XP (0 in a no-XP channel, from a
 * member holding a no-XP role, or with a boost of 0: then it starts no cooldown either), and
 * always a message of the day for the overview. Null when leveling is off: nothing is counted.
 */
function priceMessage(
  { settings, boosts }: LevelingSetup,
  guildId: string,
  message: UnpricedMessage,
): MessageXp | null {
  if (!settings.enabled) return null;
  const channelId = message.channelId ?? '';
  let xp = 0;
  if (!earnsNoXp(settings, { channelId, roleIds: message.roles })) {
    const boost = activeBoostMultiplier(boosts, {
      userId: message.userId,
      roleIds: message.roles,
      now: new Date(message.time),
      ...(message.channelId ? { channelId: message.channelId } : {}),
    });
    xp = xpForMessage({ xpPerMessage: settings.xpPerMessage, multiplier: settings.xpMultiplier, boost });
  }
  return {
    guildId,
    userId: message.userId,
    channelId,
    xp,
    cooldownSec: settings.messageCooldownSec,
    time: message.time,
    username: message.username,
    avatar: message.avatar,
  };
}

function setupWithin(deps: WorkerDeps, guildId: string): Promise<LevelingSetup> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('leveling setup read timed out')), SETUP_READ_TIMEOUT_MS);
  });
  return Promise.race([levelingSetups.get(deps, guildId), timeout]).finally(() => clearTimeout(timer));
}

/**
 * A guild member's message earns `round(xp_per_message * multiplier * boost)` at most once per
 * cooldown, while leveling is enabled; nothing in a no-XP channel or from a member holding a
 * no-XP role (no cooldown starts either), but every chat message counts for the day's overview.
 * Read from the raw packet: the member's roles (for role boosts and no-XP roles) come with it,
 * and the worker caches no members. Bots, webhooks, system messages and DMs count for nothing.
 *
 * The guild's setup comes from memory, through a Postgres outage too (see guild-setup-cache);
 * a message whose guild has no copy while Postgres cannot be read is kept in Redis, in order,
 * and priced when it can be (`priceUnpriced`): no message is lost to an outage.
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
  const chat: UnpricedMessage = {
    userId: author.id,
    channelId: message.channel_id,
    roles: message.member.roles,
    time: SnowflakeUtil.timestampFrom(message.id),
    username: message.member.nick ?? author.global_name ?? author.username,
    avatar: author.avatar,
  };
  const unpriced = unpricedOf(deps);
  let setup: LevelingSetup | null = null;
  if (!unpriced.has(guildId)) {
    try {
      setup = await setupWithin(deps, guildId);
    } catch (error) {
      if (!unpriced.has(guildId)) {
        deps.logger.warn(
          { ...errorFields(error), guildId },
          'leveling setup unreadable: keeping the guild’s messages in Redis to count when Postgres is back',
        );
      }
    }
  }
  if (!setup || unpriced.has(guildId)) {
    unpriced.set(guildId, (unpriced.get(guildId) ?? 0) + 1);
    await keepUnpriced(awards, guildId, chat);
    return;
  }
  const award = priceMessage(setup, guildId, chat);
  if (!award) return;
  // Awarded first: `metrics?.xpMessage(await …)` would skip the award when metrics are off.
  const awarded = await awardMessageXp(awards, award);
  deps.metrics?.xpMessage(awarded);
}

/**
 * Prices and counts the messages kept while their guild's setup could not be read (by any
 * process), oldest first; a guild whose setup still cannot be read is left for the next pass.
 * Then forgets, for this process, the guilds with nothing left waiting.
 */
async function priceUnpriced(deps: WorkerDeps, awards: Redis): Promise<void> {
  const queue = await takeUnpricedGuilds(awards, Date.now(), UNPRICED_LEASE_MS, UNPRICED_GUILDS_PER_FLUSH);
  const pricer = async () => {
    for (let guildId = queue.shift(); guildId !== undefined; guildId = queue.shift()) {
      await priceGuildUnpriced(deps, awards, guildId);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_PRICINGS, queue.length) }, pricer));
  const unpriced = unpricedOf(deps);
  for (const [guildId, kept] of unpriced) {
    if (!(await hasUnpriced(awards, guildId)) && unpriced.get(guildId) === kept) unpriced.delete(guildId);
  }
}

/** Counts one guild's unpriced messages, oldest first; hands the guild back if its setup is unreadable. */
async function priceGuildUnpriced(deps: WorkerDeps, awards: Redis, guildId: string): Promise<void> {
  let setup: LevelingSetup;
  try {
    setup = await levelingSetups.get(deps, guildId);
  } catch {
    await releaseUnpricedGuild(awards, guildId);
    return;
  }
  for (;;) {
    const messages = await readUnpriced(awards, guildId, UNPRICED_PER_CALL);
    if (messages.length === 0) break;
    const priced = messages.flatMap((message) => priceMessage(setup, guildId, message) ?? []);
    const counted = await awardUnpriced(awards, guildId, messages.length, priced);
    deps.logger.info(
      { guildId, messages: messages.length, counted },
      'counted messages kept during an outage',
    );
  }
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
    defineXpScripts(connection);
    connection.on('error', (error) => deps.logger.warn(errorFields(error), 'redis connection error'));
    awardConnections.set(deps, connection);
  }
  return connection;
}

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
  private running: Promise<void> | null = null;
  private lastPrune = Date.now();
  private lastDueLevelUps = 0;
  private sweeping = false;
  private readonly celebrations = new Set<Promise<void>>();
  /** Batches taken out of Redis whose write failed, by id: written again first. */
  private readonly retrying = new Map<string, XpBatch>();

  constructor(
    private readonly deps: WorkerDeps,
    private readonly awards: Redis,
  ) {}

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

  /** One pass; returns how many batches it wrote (or tried to: a failed one counts, for stop). */
  async flush(): Promise<number> {
    const { redis } = this.deps;
    const now = Date.now();
    if (this.retrying.size > 0) {
      const retried = await this.writeAll([...this.retrying.values()]);
      // Postgres still fails: leave the rest buffered in Redis until it is back.
      if (this.retrying.size > 0) return retried;
    }
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
    clearInterval(this.timer);
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

function flusherOf(deps: WorkerDeps): XpFlusher {
  let flusher = flushers.get(deps);
  if (!flusher) {
    flusher = new XpFlusher(deps, awardConnection(deps));
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
  await flushers.get(deps)?.stop();
  flushers.delete(deps);
  await awardConnections.get(deps)?.quit();
  awardConnections.delete(deps);
  await levelingSetups.close(deps);
}
