import { activeBoostMultiplier, earnsNoXp, rollMessageXp, xpForMessage } from '@spacecadet/core';
import { type GatewayMessageCreateDispatchData, MessageType, SnowflakeUtil } from 'discord.js';
import type { Redis } from 'ioredis';
import type { WorkerDeps } from '../../deps.ts';
import { errorFields } from '../../logger.ts';
import { type LevelingSetup, levelingSetups } from './setup.ts';
import {
  awardMessageXp,
  awardUnpriced,
  defineXpScripts,
  hasUnpriced,
  keepUnpriced,
  type MessageXp,
  readUnpriced,
  releaseUnpricedGuild,
  takeUnpricedGuilds,
  type UnpricedMessage,
} from './xp-buffer.ts';

/**
 * Counting XP: a chat message priced under its guild's setup (XP, cooldown, the day's message)
 * and awarded into the Redis buffer, or kept in Redis while the setup cannot be read and priced
 * later. The flush (`xp-flush.ts`) writes the buffer to PostgreSQL.
 */

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
    xp = xpForMessage({
      xpPerMessage: rollMessageXp(settings.xpMin, settings.xpMax),
      multiplier: settings.xpMultiplier,
      boost,
    });
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
  // The kept copy at once (nearly every message): no timer and no promise per message.
  let setup: LevelingSetup | null = unpriced.has(guildId)
    ? null
    : (levelingSetups.peek(deps, guildId) ?? null);
  if (!setup && !unpriced.has(guildId)) {
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
export async function priceUnpriced(deps: WorkerDeps, awards: Redis): Promise<void> {
  // Taken over the shared connection: on the award connection the look queued behind a busy
  // chat's awards every pass. Only the pricing below keeps to the awards' order.
  const queue = await takeUnpricedGuilds(
    deps.redis,
    Date.now(),
    UNPRICED_LEASE_MS,
    UNPRICED_GUILDS_PER_FLUSH,
  );
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

export function awardConnection(deps: WorkerDeps): Redis {
  let connection = awardConnections.get(deps);
  if (!connection) {
    connection = deps.redis.duplicate({ enableAutoPipelining: true });
    defineXpScripts(connection);
    connection.on('error', (error) => deps.logger.warn(errorFields(error), 'redis connection error'));
    awardConnections.set(deps, connection);
  }
  return connection;
}

/** Closes the process's award connection (shutdown, once nothing is counted any more). */
export async function closeAwardConnection(deps: WorkerDeps): Promise<void> {
  await awardConnections.get(deps)?.quit();
  awardConnections.delete(deps);
}
