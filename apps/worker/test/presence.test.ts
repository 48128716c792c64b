import { once } from 'node:events';
import { SLASH_COMMANDS } from '@spacecadet/core';
import { botGuilds, memberXp } from '@spacecadet/db/schema';
import { Events } from 'discord.js';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { control, type Harness, SANDBOX_IDS, startHarness, waitFor } from './helpers.ts';

const { station, quiet, orbit } = SANDBOX_IDS.guilds;

describe('bot presence (bot_guilds) with the real discord.js client', () => {
  let harness: Harness;
  let worker: RunningWorker | undefined;

  beforeAll(async () => {
    harness = await startHarness();
    // A guild the bot left while it was offline: READY must clear it.
    await harness.database.db
      .insert(botGuilds)
      .values({ guildId: '300000000000000099', name: 'Gone', shardId: 0 });
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
  });

  const rows = async () =>
    (await harness.database.db.select({ id: botGuilds.guildId }).from(botGuilds)).map((row) => row.id).sort();

  it('logs in and records exactly the guilds the bot is in', async () => {
    worker = await startWorker(harness.config());
    expect(worker.client.isReady()).toBe(true);
    expect([...worker.client.guilds.cache.keys()].sort()).toEqual([station, orbit].sort());
    await waitFor('bot_guilds to match READY', async () => {
      const ids = await rows();
      return ids.length === 2 && ids.includes(station) && ids.includes(orbit) ? ids : undefined;
    });
    expect(await rows()).not.toContain(quiet);
  });

  it('registers its slash commands', async () => {
    const names = await waitFor('global commands', () => {
      const global = harness.sandbox.state().commands.global;
      return global.length > 0 ? global.map((command) => command.name).sort() : undefined;
    });
    // Every command of the feature list (today /colors, /leaderboard, /rank, /xp), once.
    expect(names).toEqual(SLASH_COMMANDS.map((command) => command.name).sort());
    expect(names).toEqual(expect.arrayContaining(['colors', 'leaderboard', 'rank', 'xp']));
  });

  it('adds Quiet Quarters when it is installed through the invite flow', async () => {
    const status = await control(harness.sandbox).installBot(quiet);
    expect(status).toBeLessThan(400);
    await waitFor('Quiet Quarters in bot_guilds', async () => (await rows()).includes(quiet));
    expect(worker?.client.guilds.cache.has(quiet)).toBe(true);
  });

  it('removes a guild the bot leaves', async () => {
    await control(harness.sandbox).botRest('DELETE', `/users/@me/guilds/${quiet}`);
    await waitFor('Quiet Quarters gone from bot_guilds', async () => !(await rows()).includes(quiet));
  });

  it('marks a member who leaves, and unmarks them when they come back', async () => {
    const nia = SANDBOX_IDS.users.nia;
    await harness.database.db.insert(memberXp).values({ guildId: station, userId: nia, xp: 120, level: 1 });
    const leftAt = async () =>
      (
        await harness.database.db
          .select({ leftAt: memberXp.leftAt })
          .from(memberXp)
          .where(and(eq(memberXp.guildId, station), eq(memberXp.userId, nia)))
      )[0]?.leftAt;
    const sandboxMember = `${harness.sandbox.url}/_sandbox/guilds/${station}/members/${nia}`;
    await fetch(sandboxMember, { method: 'DELETE' });
    await waitFor('nia marked as a leaver', async () => (await leftAt()) instanceof Date);
    await fetch(sandboxMember, { method: 'PUT' });
    await waitFor('nia back', async () => (await leftAt()) === null);
  });

  it('forgets a guild it was removed from while a drop that could not resume hid the GUILD_DELETE', async () => {
    const client = worker?.client;
    if (!client) throw new Error('worker not running');
    const sandbox = control(harness.sandbox);
    await waitFor('Other Orbit in bot_guilds', async () => (await rows()).includes(orbit));
    const readyAgain = once(client, Events.ShardReady);
    // 4009 ends the session: the bot must identify again, and events meanwhile are lost.
    await sandbox.closeGateway({ code: 4009, hold: true });
    const kicked = await fetch(`${harness.sandbox.url}/_sandbox/guilds/${orbit}/members/${SANDBOX_IDS.bot}`, {
      method: 'DELETE',
    });
    expect(kicked.status).toBe(200);
    await fetch(`${harness.sandbox.url}/_sandbox/gateway/release`, { method: 'POST' });
    await readyAgain;
    await waitFor('Other Orbit gone from bot_guilds', async () => !(await rows()).includes(orbit));
    expect(client.guilds.cache.has(orbit)).toBe(false);
    expect(client.channels.cache.has(SANDBOX_IDS.channels.orbitHangar)).toBe(false);
    expect(await rows()).toContain(station);
  });

  it('closes gracefully: the gateway session ends', async () => {
    await worker?.close();
    expect(worker?.client.isReady()).toBe(false);
    await waitFor('no gateway session', () => harness.sandbox.state().gateway.connected_sessions === 0);
    worker = undefined;
  });
});
