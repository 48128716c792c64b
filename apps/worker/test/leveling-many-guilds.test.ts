import { XP_SLOT_GROUPS, xpUnpricedGuildsKey } from '@spacecadet/contract';
import { levelingSettings, memberXp } from '@spacecadet/db/schema';
import { SANDBOX_IDS, type SandboxFixture } from '@spacecadet/discord-sandbox';
// The sandbox's own message posting (what its `/_sandbox/messages` route runs), the module
// instance its server uses: a burst in one turn, which HTTP posts one by one cannot make.
import { buildMessage, postMessage } from '@spacecadet/discord-sandbox/testing';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { levelingSetups } from '../src/features/leveling/setup.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { fixtureWithFarOrbit, type Harness, startHarness, storedKey, waitFor } from './helpers.ts';

/** Enough guilds that one read each would queue deep in the worker's pool of 10 connections. */
const GUILDS = 300;
const { rex } = SANDBOX_IDS.users;

/** GUILDS copies of Other Orbit (the bot and Rex in each, one text channel). */
function manyGuilds(): { fixture: SandboxFixture; guilds: Array<{ guildId: string; channelId: string }> } {
  const fixture = fixtureWithFarOrbit();
  const orbit = fixture.guilds.find((guild) => guild.id === SANDBOX_IDS.guilds.orbit);
  const [everyone, botRole] = orbit?.roles ?? [];
  const [hangar] = orbit?.channels ?? [];
  if (!orbit || !everyone || !botRole || !hangar)
    throw new Error('fixture changed: Other Orbit not as expected');
  const guilds: Array<{ guildId: string; channelId: string }> = [];
  for (let i = 0; i < GUILDS; i++) {
    const base = 400_000_000_000_000_000n + BigInt(i) * 10n;
    const guildId = String(base);
    const channelId = String(base + 1n);
    const botRoleId = String(base + 2n);
    guilds.push({ guildId, channelId });
    fixture.guilds.push({
      ...orbit,
      id: guildId,
      name: `Orbit ${i}`,
      roles: [
        { ...everyone, id: guildId },
        { ...botRole, id: botRoleId },
      ],
      channels: [{ ...hangar, id: channelId, guild_id: guildId }],
      emojis: [],
      members: orbit.members.map((member) =>
        member.user_id === SANDBOX_IDS.bot ? { ...member, roles: [botRoleId] } : { ...member, roles: [] },
      ),
    });
  }
  return { fixture, guilds };
}

describe('chat across many guilds at once', () => {
  let harness: Harness;
  let worker: RunningWorker | undefined;
  const { fixture, guilds } = manyGuilds();

  beforeAll(async () => {
    harness = await startHarness(fixture);
    await harness.database.db.insert(levelingSettings).values(
      guilds.map(({ guildId }) => ({
        guildId,
        enabled: true,
        xpMin: 10,
        xpMax: 10,
        messageCooldownSec: 0,
      })),
    );
  });
  afterAll(async () => {
    await worker?.close();
    await harness?.close();
  });

  it("counts every cold guild's first message, reading their setups together", async () => {
    worker = await startWorker(harness.config());
    await worker.gateway;
    const redis = new Redis(harness.redis.url);
    const before = { ...levelingSetups.reads };
    try {
      // Every guild's first message in one burst (as a busy shard receives them): every one
      // misses the setup cache. Posted the way the sandbox's message route does, in one go.
      const world = harness.sandbox.world;
      for (const { guildId, channelId } of guilds) {
        const guild = world.guilds.get(guildId);
        if (!guild) throw new Error(`the sandbox has no guild ${guildId}`);
        postMessage(
          world,
          guild,
          buildMessage(world, { channel_id: channelId, author_id: rex, content: 'hello' }),
        );
      }
      const counted = await waitFor(`all ${GUILDS} guilds' messages in Postgres`, async () => {
        const [row] = await harness.database.db
          .select({
            guilds: sql<number>`count(distinct ${memberXp.guildId})::int`,
            xp: sql<number>`sum(${memberXp.xp})::int`,
          })
          .from(memberXp);
        if ((row?.guilds ?? 0) < GUILDS) throw new Error(`${row?.guilds ?? 0} guilds counted`);
        return row;
      });
      expect(counted).toEqual({ guilds: GUILDS, xp: GUILDS * 10 });
      // Priced on arrival: none was kept in Redis for a setup read that failed or timed out.
      const groups = Array.from({ length: XP_SLOT_GROUPS }, (_, group) => group);
      const unpriced = await Promise.all(
        groups.map((g) => redis.zcard(storedKey(harness, xpUnpricedGuildsKey(g)))),
      );
      expect(unpriced.reduce((sum, n) => sum + n, 0)).toBe(0);
      const reads = {
        queries: levelingSetups.reads.queries - before.queries,
        guilds: levelingSetups.reads.guilds - before.guilds,
      };
      // Each guild read once, in a few batched reads rather than one (two queries) per guild.
      expect(reads.guilds).toBe(GUILDS);
      expect(reads.queries).toBeLessThanOrEqual(GUILDS / 10);
    } finally {
      redis.disconnect();
    }
  });
});
