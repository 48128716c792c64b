import {
  xpBatchesKey,
  xpDirtyGuildsKey,
  xpPendingKey,
  xpSlotGroup,
  xpUnpricedGuildsKey,
  xpUnpricedKey,
} from '@spacecadet/contract';
import { levelingSettings, memberXp } from '@spacecadet/db/schema';
import { and, eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { control, type Harness, SANDBOX_IDS, STATION, startHarness, storedKey, waitFor } from './helpers.ts';
import { hostAndPort, startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

const { ada, mo, nia, rex } = SANDBOX_IDS.users;
const ORBIT = SANDBOX_IDS.guilds.orbit;
const general = SANDBOX_IDS.channels.general;
const hangar = SANDBOX_IDS.channels.orbitHangar;

describe('XP through a PostgreSQL outage', () => {
  let harness: Harness;
  let proxy: TcpProxy;
  let worker: RunningWorker;
  let redis: Redis;

  const member = async (guildId: string, userId: string) => {
    const [row] = await harness.database.db
      .select()
      .from(memberXp)
      .where(and(eq(memberXp.guildId, guildId), eq(memberXp.userId, userId)));
    return row;
  };
  /** Nothing of XP left in Redis: every message counted is in Postgres. */
  const bufferEmpty = async () => {
    const key = (k: string) => storedKey(harness, k);
    const counts = await Promise.all([
      redis.exists(key(xpPendingKey(STATION)), key(xpPendingKey(ORBIT))),
      redis.exists(key(xpUnpricedKey(ORBIT)), key(xpUnpricedKey(STATION))),
      ...[STATION, ORBIT].map((g) => redis.scard(key(xpDirtyGuildsKey(xpSlotGroup(g))))),
      ...[STATION, ORBIT].map((g) => redis.zcard(key(xpBatchesKey(xpSlotGroup(g))))),
      ...[STATION, ORBIT].map((g) => redis.zcard(key(xpUnpricedGuildsKey(xpSlotGroup(g))))),
    ]);
    return counts.every((count) => count === 0);
  };

  beforeAll(async () => {
    harness = await startHarness();
    proxy = await startTcpProxy(hostAndPort(harness.database.url, 5432));
    redis = new Redis(harness.redis.url);
    await harness.database.db.insert(levelingSettings).values([
      { guildId: STATION, enabled: true, xpMin: 10, xpMax: 10, messageCooldownSec: 0 },
      { guildId: ORBIT, enabled: true, xpMin: 3, xpMax: 3, messageCooldownSec: 0 },
    ]);
    worker = await startWorker(harness.config({ DATABASE_URL: proxy.through(harness.database.url) }));
  });
  afterAll(async () => {
    await worker?.close();
    redis?.disconnect();
    await proxy?.close();
    await harness?.close();
  });

  it('loses no message and counts none twice over a 10 s outage; a change made meanwhile applies after', async () => {
    const sandbox = control(harness.sandbox);
    const post = (guildId: string, channelId: string, userId: string) =>
      sandbox.postMessage({ guild_id: guildId, channel_id: channelId, author_id: userId, content: 'hi' });
    // Sandbox Station's setup is in the worker's memory; Other Orbit's has never been read.
    await post(STATION, general, ada);
    await waitFor('ada’s first XP', async () => (await member(STATION, ada))?.xp === 10);

    proxy.cut();
    const posters = [
      [STATION, general, ada],
      [STATION, general, nia],
      [ORBIT, hangar, rex],
      [ORBIT, hangar, mo],
    ] as const;
    let rounds = 0;
    const outageEnds = Date.now() + 10_000;
    while (Date.now() < outageEnds) {
      for (const [guildId, channelId, userId] of posters) await post(guildId, channelId, userId);
      rounds += 1;
    }
    // An admin's change while the worker cannot hear of it.
    await harness.database.db
      .update(levelingSettings)
      .set({ xpMin: 25, xpMax: 25 })
      .where(eq(levelingSettings.guildId, STATION));
    proxy.restore();

    const expected = [
      [STATION, ada, rounds + 1, 10 * (rounds + 1)],
      [STATION, nia, rounds, 10 * rounds],
      [ORBIT, rex, rounds, 3 * rounds],
      [ORBIT, mo, rounds, 3 * rounds],
    ] as const;
    await waitFor(
      'every message of the outage in Postgres',
      async () => {
        for (const [guildId, userId, messages] of expected) {
          const found = (await member(guildId, userId))?.messageCount ?? 0;
          if (found < messages) throw new Error(`${userId} in ${guildId}: ${found} of ${messages} messages`);
        }
        return bufferEmpty();
      },
      30_000,
    );
    for (const [guildId, userId, messages, xp] of expected) {
      expect(await member(guildId, userId), `${userId} in ${guildId}`).toMatchObject({
        messageCount: messages,
        xp,
      });
    }

    // The change made during the outage is read again once the worker listens again.
    const before = (await member(STATION, nia))?.xp ?? 0;
    await waitFor('a message of nia to earn the new 25 XP', async () => {
      const xp = (await member(STATION, nia))?.xp ?? 0;
      await post(STATION, general, nia);
      const after = await waitFor('the message stored', async () => {
        const now = (await member(STATION, nia))?.xp ?? 0;
        return now > xp ? now : undefined;
      });
      return after - xp === 25;
    });
    expect(((await member(STATION, nia))?.xp ?? 0) - before).toBeGreaterThanOrEqual(25);
  }, 90_000);
});
