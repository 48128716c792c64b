import { xpBatchesKey, xpDirtyGuildsKey, xpPendingKey, xpSlotGroup } from '@spacecadet/contract';
import { minuteEndAtOrBefore, VOICE_MINUTE_MS } from '@spacecadet/core';
import { LEVELING_SETUP_CHANNEL } from '@spacecadet/db/queries/leveling';
import { levelingSettings, memberDailyXp, memberXp } from '@spacecadet/db/schema';
import type { Client, GatewayDispatchPayload } from 'discord.js';
import { and, eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { FEATURES } from '../src/features/index.ts';
import { levelingSetups } from '../src/features/leveling/setup.ts';
import type { MinuteClock } from '../src/features/voice-xp/clock.ts';
import { voiceXpFeatureWith } from '../src/features/voice-xp/index.ts';
import { control, type Harness, setupChangesHeard, storedKey, waitFor } from './helpers.ts';

/**
 * Voice XP tests' minutes: the worker's voice XP runs on this clock instead of the wall clock,
 * and a test ends a minute when it wants (`nextMinute`), waiting for its credit.
 */
export function testMinuteClock() {
  let now = minuteEndAtOrBefore(Date.now()) + VOICE_MINUTE_MS / 2;
  const ticks = new Set<(minuteEnd: number) => Promise<void>>();
  let lastEnd = 0;
  const run = async (minuteEnd: number) => {
    await Promise.all([...ticks].map((tick) => tick(minuteEnd)));
  };
  const clock: MinuteClock = {
    now: () => now,
    everyMinute(tick) {
      ticks.add(tick);
      return () => ticks.delete(tick);
    },
  };
  return {
    clock,
    /** Ends the current minute: every running worker credits it. */
    async nextMinute(): Promise<void> {
      lastEnd = minuteEndAtOrBefore(now) + VOICE_MINUTE_MS;
      now = lastEnd + 1;
      await run(lastEnd);
    },
    /** Ends the last minute again (a tick that runs twice). */
    repeatMinute: () => run(lastEnd),
    /** Time passes with no worker ticking (it was stopped). */
    skip(ms: number) {
      now += ms;
    },
  };
}

/** Every feature, with voice XP on the test's clock. */
export function featuresOn(clock: MinuteClock) {
  return FEATURES.map((feature) => (feature.name === 'voice-xp' ? voiceXpFeatureWith(clock) : feature));
}

/** A member joins, moves, mutes or leaves voice; resolves once the worker received it. */
export async function inVoice(
  harness: Harness,
  client: Client,
  body: {
    guild_id: string;
    user_id: string;
    channel_id: string | null;
    self_mute?: boolean;
    self_deaf?: boolean;
  },
): Promise<void> {
  let heard = false;
  // The voice feature's own raw listener was added first: once this one runs, it has the change.
  const listener = (packet: GatewayDispatchPayload) => {
    if (packet.t === 'VOICE_STATE_UPDATE' && packet.d.user_id === body.user_id) heard = true;
  };
  client.on('raw', listener);
  try {
    await control(harness.sandbox).call('POST', '/_sandbox/voice', body);
    await waitFor(`the worker to hear ${body.user_id} in voice`, () => heard || undefined);
  } finally {
    client.off('raw', listener);
  }
}

/** Leveling's stored numbers, and the XP buffer drained to Postgres. */
export function voiceStore(harness: Harness) {
  const db = harness.database.db;
  return {
    async settings(guildId: string, settings: Partial<typeof levelingSettings.$inferInsert>) {
      await db
        .insert(levelingSettings)
        .values({ guildId, ...settings })
        .onConflictDoUpdate({ target: levelingSettings.guildId, set: settings });
      await setupChangesHeard(harness, levelingSetups, LEVELING_SETUP_CHANNEL);
    },
    async member(guildId: string, userId: string) {
      const [row] = await db
        .select()
        .from(memberXp)
        .where(and(eq(memberXp.guildId, guildId), eq(memberXp.userId, userId)));
      const days = await db
        .select()
        .from(memberDailyXp)
        .where(and(eq(memberDailyXp.guildId, guildId), eq(memberDailyXp.userId, userId)));
      return {
        xp: row?.xp ?? 0,
        level: row?.level ?? 0,
        voiceMinutes: days.reduce((sum, day) => sum + day.voiceMinutes, 0),
      };
    },
    async clear() {
      await db.delete(memberXp);
      await db.delete(memberDailyXp);
    },
    /** Waits until every credited minute is in Postgres (nothing buffered or in flight in Redis). */
    async drained(guildId: string): Promise<void> {
      const redis = new Redis(harness.redis.url);
      try {
        await waitFor('the XP buffer to reach Postgres', async () => {
          const [pending, batches, dirty] = await Promise.all([
            redis.exists(storedKey(harness, xpPendingKey(guildId))),
            redis.zcard(storedKey(harness, xpBatchesKey(xpSlotGroup(guildId)))),
            redis.scard(storedKey(harness, xpDirtyGuildsKey(xpSlotGroup(guildId)))),
          ]);
          return pending === 0 && batches === 0 && dirty === 0 ? true : undefined;
        });
      } finally {
        redis.disconnect();
      }
    },
  };
}
