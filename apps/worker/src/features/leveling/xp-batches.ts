import { randomUUID } from 'node:crypto';
import {
  guildOfXpBatch,
  XP_SLOT_GROUPS,
  xpBatchesKey,
  xpBatchId,
  xpBatchKey,
  xpDirtyGuildsKey,
  xpPendingKey,
  xpSlotGroup,
} from '@spacecadet/contract';
import type { BufferedXp } from '@spacecadet/db/queries/member-xp';
import type { RedisClient } from '@spacecadet/runtime/redis-client';
import { scripts } from './xp-buffer.ts';

/**
 * The XP buffer's batches, as the flush takes them: a guild's buffered XP moved out under a
 * batch id (`xp-buffer.ts`'s take script), a dead writer's batch taken over, read back for
 * Postgres, and dropped once written.
 */

export interface XpBatch {
  id: string;
  guildId: string;
}

/**
 * Guilds with buffered XP, about `count` (up to XP_SLOT_GROUPS - 1 more, as every group's share
 * is rounded up), each now claimed by this caller and so to be flushed by it: from every slot
 * group's dirty set, starting at a random one so no group waits behind the others. Every group
 * is asked at once for its share (one round trip, not one per group, which cost a flush an
 * event-loop turn each under a busy chat); groups that had more are asked again in turn.
 */
export async function takeDirtyGuilds(redis: RedisClient, count: number): Promise<string[]> {
  const first = Math.floor(Math.random() * XP_SLOT_GROUPS);
  const keys = Array.from({ length: XP_SLOT_GROUPS }, (_, step) =>
    xpDirtyGuildsKey((first + step) % XP_SLOT_GROUPS),
  );
  const share = Math.ceil(count / XP_SLOT_GROUPS);
  const popped = await Promise.all(keys.map((key) => redis.spop(key, share)));
  const taken = popped.flat();
  // A group that gave its whole share may hold more.
  for (const [g, key] of keys.entries()) {
    if (taken.length >= count) break;
    if ((popped[g]?.length ?? 0) === share) taken.push(...(await redis.spop(key, count - taken.length)));
  }
  return taken;
}

/** Moves the guild's buffered XP into a new batch; null when there was none. */
export async function takeGuildBatch(
  redis: RedisClient,
  guildId: string,
  now: number,
): Promise<XpBatch | null> {
  const id = xpBatchId(guildId, randomUUID());
  const batches = xpBatchesKey(xpSlotGroup(guildId));
  const taken = await scripts(redis).xpTake(xpPendingKey(guildId), xpBatchKey(id), batches, id, now);
  return taken === 1 ? { id, guildId } : null;
}

/** Batches taken more than `staleMs` ago and never finished: their writer died or failed. */
export async function takeOverStaleBatches(
  redis: RedisClient,
  now: number,
  staleMs: number,
  limit: number,
): Promise<XpBatch[]> {
  // Every group's set read at once: one round trip (there is rarely anything stale).
  const keys = Array.from({ length: XP_SLOT_GROUPS }, (_, group) => xpBatchesKey(group));
  const stales = await Promise.all(
    keys.map((key) => redis.zrangebyscore(key, '-inf', now - staleMs, 'WITHSCORES', 'LIMIT', 0, limit)),
  );
  const taken: XpBatch[] = [];
  for (const [group, stale] of stales.entries()) {
    for (let i = 0; i + 1 < stale.length && taken.length < limit; i += 2) {
      const id = stale[i] as string;
      const guildId = guildOfXpBatch(id);
      if (
        guildId &&
        (await scripts(redis).xpTakeOver(keys[group] as string, id, stale[i + 1] as string, now)) === 1
      ) {
        taken.push({ id, guildId });
      }
    }
  }
  return taken;
}

/** The members' XP in a batch (empty when it is gone). */
export async function readBatch(redis: RedisClient, batch: XpBatch): Promise<BufferedXp[]> {
  const fields = await redis.hgetall(xpBatchKey(batch.id));
  const members = new Map<string, BufferedXp>();
  const skipped = new Map<string, number>();
  for (const [field, value] of Object.entries(fields)) {
    const split = field.lastIndexOf(':');
    const userId = field.slice(0, split);
    let member = members.get(userId);
    if (!member) {
      member = { userId, xp: 0, messages: 0, earned: 0, username: null, avatar: null, channelId: null };
      skipped.set(userId, 0);
      members.set(userId, member);
    }
    const kind = field.slice(split + 1);
    if (kind === 'x') member.xp = Number(value);
    else if (kind === 'm') member.messages = Number(value);
    else if (kind === 's') skipped.set(userId, Number(value));
    else if (kind === 'v') member.voiceMinutes = Number(value);
    else if (kind === 'n') [member.username, member.avatar, member.channelId] = parseName(value);
  }
  // `:s` counts the messages that earned nothing (a batch buffered before it existed counted
  // only messages that earned, all in `:m`).
  for (const member of members.values()) member.earned = member.messages - (skipped.get(member.userId) ?? 0);
  return [...members.values()];
}

/** `[name, avatar, channel]`; the channel is absent in batches buffered before it was kept. */
function parseName(value: string): [string | null, string | null, string | null] {
  const text = (part: unknown) => (typeof part === 'string' ? part : null);
  try {
    const [username, avatar, channelId] = JSON.parse(value) as [unknown, unknown, unknown];
    return [text(username), text(avatar), text(channelId) || null];
  } catch {
    return [null, null, null];
  }
}

/** The batch is in Postgres (or was already): forget it. */
export async function finishBatch(redis: RedisClient, batch: XpBatch): Promise<void> {
  await redis
    .multi()
    .del(xpBatchKey(batch.id))
    .zrem(xpBatchesKey(xpSlotGroup(batch.guildId)), batch.id)
    .exec();
}
