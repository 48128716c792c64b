import { voiceMinuteKey, xpDirtyGuildsKey, xpPendingKey, xpSlotGroup } from '@spacecadet/contract';
import { activeBoostMultiplier, VOICE_MINUTE_MS, voiceMinuteEarners, voiceMinuteXp } from '@spacecadet/core';
import type { RedisClient } from '@spacecadet/runtime/redis-client';
import { Status } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { errorFields } from '../../logger.ts';
import { levelingSetups } from '../leveling/setup.ts';
import type { VoiceMember, VoiceRoster } from './roster.ts';

/**
 * A minute's voice XP, credited into leveling's XP buffer (`xp-buffer.ts`): each earner's XP in
 * `<user>:x`, one voice minute in `<user>:v`, their name and voice channel in `<user>:n` (a
 * level crossed in voice is announced there, as a chat level-up in the message's channel). The
 * flush writes it to Postgres with the chat XP, so level-ups and rewards follow as for chat.
 */

/** A claimed minute is remembered this long: far longer than a tick can be late or repeated. */
const CLAIM_KEPT_MS = 10 * VOICE_MINUTE_MS;

// KEYS: the guild's minute, its pending hash, the dirty guilds. ARGV: claim ms, guild id, then
// per earner user id, xp, name json. Claims the minute (SET NX) and credits it in one step, so
// a minute is credited once however many ticks or processes count it. 1: credited, 0: already.
const CREDIT = `
if not redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then return 0 end
for i = 3, #ARGV, 3 do
  redis.call('HINCRBY', KEYS[2], ARGV[i] .. ':x', ARGV[i + 1])
  redis.call('HINCRBY', KEYS[2], ARGV[i] .. ':v', 1)
  redis.call('HSET', KEYS[2], ARGV[i] .. ':n', ARGV[i + 2])
end
redis.call('SADD', KEYS[3], ARGV[2])
return 1`;

type WithCredit = RedisClient & { voiceCredit(...args: Array<string | number>): Promise<number> };
const defined = new WeakSet<RedisClient>();

function withCredit(redis: RedisClient): WithCredit {
  if (!defined.has(redis)) {
    redis.defineCommand('voiceCredit', { numberOfKeys: 3, lua: CREDIT });
    defined.add(redis);
  }
  return redis as WithCredit;
}

export interface MinuteCredit {
  guildId: string;
  minuteEnd: number;
  earners: ReadonlyArray<{ member: VoiceMember; xp: number }>;
}

/** Credits one guild's minute unless some process already did; true when this call did. */
export async function creditMinute(redis: RedisClient, credit: MinuteCredit): Promise<boolean> {
  if (credit.earners.length === 0) return false;
  const args: Array<string | number> = [CLAIM_KEPT_MS, credit.guildId];
  for (const { member, xp } of credit.earners) {
    args.push(member.userId, xp, JSON.stringify([member.username, member.avatar, member.channelId]));
  }
  const keys = [
    voiceMinuteKey(credit.guildId, credit.minuteEnd),
    xpPendingKey(credit.guildId),
    xpDirtyGuildsKey(xpSlotGroup(credit.guildId)),
  ];
  return (await withCredit(redis).voiceCredit(...keys, ...args)) === 1;
}

/** One guild's earners of the minute ending at `minuteEnd`, with their XP (boosts applied). */
async function guildCredit(
  deps: WorkerDeps,
  guildId: string,
  afkChannelId: string | null,
  seats: readonly VoiceMember[],
  minuteEnd: number,
): Promise<MinuteCredit> {
  const { settings, boosts } = await levelingSetups.get(deps, guildId);
  const now = new Date(minuteEnd);
  const earners = voiceMinuteEarners(settings, afkChannelId, seats, minuteEnd).flatMap((member) => {
    const boost = activeBoostMultiplier(boosts, {
      userId: member.userId,
      roleIds: member.roleIds,
      channelId: member.channelId,
      now,
    });
    const xp = voiceMinuteXp({
      perMinute: settings.voiceXpPerMinute,
      multiplier: settings.xpMultiplier,
      boost,
    });
    return xp > 0 ? [{ member, xp }] : [];
  });
  return { guildId, minuteEnd, earners };
}

/**
 * Whether this process sees the guild's voice now: its shard is connected. While a shard is
 * down (reconnecting, resuming) members may leave or mute unseen, so its minutes are not
 * credited; a resume replays what was missed, a new session sends the guild again.
 */
function watching(deps: WorkerDeps, guildId: string): boolean {
  const guild = deps.client.guilds.cache.get(guildId);
  return guild !== undefined && deps.client.ws.shards.get(guild.shardId)?.status === Status.Ready;
}

/** Guilds credited at once: their setups come from memory, or are read together. */
const CONCURRENT_GUILDS = 50;

/**
 * Credits the minute ending at `minuteEnd` to everyone in this process's guilds who earned it.
 * A guild whose setup cannot be read (Postgres down and no copy in memory), or whose shard is
 * not connected, earns nothing for that minute; the others are credited. Answers the XP credited, for the benchmark and logs.
 */
export async function creditVoiceMinute(
  deps: WorkerDeps,
  roster: VoiceRoster,
  minuteEnd: number,
): Promise<{ guilds: number; members: number; xp: number }> {
  const queue = [...roster.occupied()];
  const done = { guilds: 0, members: 0, xp: 0 };
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [guildId, afkChannelId, seats] = next;
      if (!watching(deps, guildId)) continue;
      try {
        const credit = await guildCredit(deps, guildId, afkChannelId, seats, minuteEnd);
        if (!(await creditMinute(deps.redis, credit))) continue;
        done.guilds += 1;
        done.members += credit.earners.length;
        for (const { xp } of credit.earners) done.xp += xp;
      } catch (error) {
        deps.logger.warn({ ...errorFields(error), guildId, minuteEnd }, 'voice minute not credited');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_GUILDS, queue.length) }, worker));
  return done;
}
