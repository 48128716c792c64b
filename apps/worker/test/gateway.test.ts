import { once } from 'node:events';
import { botGuilds } from '@spacecadet/db/schema';
import { Events, type Message } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardIdForGuild } from '../src/features/presence/bot-guilds.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  FAR_ORBIT,
  fixtureWithFarOrbit,
  type Harness,
  SANDBOX_IDS,
  startHarness,
  waitFor,
} from './helpers.ts';

const { station, quiet, orbit } = SANDBOX_IDS.guilds;

describe('gateway', () => {
  let harness: Harness;
  const workers: RunningWorker[] = [];

  beforeAll(async () => {
    harness = await startHarness(fixtureWithFarOrbit());
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.close()));
    await harness.close();
  });

  it('resumes after a forced close and loses no event sent while it was away', async () => {
    const worker = await startWorker(harness.config());
    workers.push(worker);
    const sandbox = control(harness.sandbox);
    const seen: Message[] = [];
    worker.client.on(Events.MessageCreate, (message) => seen.push(message));
    const resumed = once(worker.client, Events.ShardResume);

    // Hold the reconnect so the events below happen while the bot is disconnected.
    await sandbox.closeGateway({ code: 4000, hold: true });
    const { id } = await sandbox.postMessage({
      guild_id: station,
      channel_id: SANDBOX_IDS.channels.general,
      author_id: SANDBOX_IDS.users.nia,
      content: 'sent while the bot was away',
    });
    expect(await sandbox.installBot(quiet)).toBeLessThan(400);
    await fetch(`${harness.sandbox.url}/_sandbox/gateway/release`, { method: 'POST' });

    await resumed;
    await waitFor('the missed message', () => seen.find((message) => message.id === id));
    await waitFor('the missed guild in bot_guilds', async () => {
      const rows = await harness.database.db.select().from(botGuilds);
      return rows.some((row) => row.guildId === quiet);
    });
    expect(worker.client.guilds.cache.has(quiet)).toBe(true);
    // Messages are not kept in memory: the cache stays empty however much members chat.
    const general = worker.client.channels.cache.get(SANDBOX_IDS.channels.general);
    expect(general && 'messages' in general ? general.messages.cache.size : -1).toBe(0);
    await worker.close();
    workers.splice(workers.indexOf(worker), 1);
  });

  it('runs two shards in two processes, each receiving only its guilds', async () => {
    const [shard0, shard1] = await Promise.all(
      [0, 1].map((id) => startWorker(harness.config({ SHARD_IDS: String(id), SHARD_COUNT: '2' }))),
    );
    if (!shard0 || !shard1) throw new Error('workers did not start');
    workers.push(shard0, shard1);
    const expected = (shard: number) =>
      [station, quiet, orbit, FAR_ORBIT.guild].filter((guild) => shardIdForGuild(guild, 2) === shard).sort();
    expect([...shard0.client.guilds.cache.keys()].sort()).toEqual(expected(0));
    expect([...shard1.client.guilds.cache.keys()].sort()).toEqual(expected(1));
    expect(expected(1)).toEqual([FAR_ORBIT.guild]);

    // A member message in each guild reaches only the shard that owns it.
    const received = new Map<number, string[]>([
      [0, []],
      [1, []],
    ]);
    shard0.client.on(Events.MessageCreate, (message) => received.get(0)?.push(message.guildId ?? ''));
    shard1.client.on(Events.MessageCreate, (message) => received.get(1)?.push(message.guildId ?? ''));
    const sandbox = control(harness.sandbox);
    await sandbox.postMessage({
      guild_id: station,
      channel_id: SANDBOX_IDS.channels.general,
      author_id: SANDBOX_IDS.users.nia,
      content: 'hello station',
    });
    await sandbox.postMessage({
      guild_id: FAR_ORBIT.guild,
      channel_id: FAR_ORBIT.channel,
      author_id: SANDBOX_IDS.users.rex,
      content: 'hello far orbit',
    });
    await waitFor(
      'both messages',
      () => (received.get(0)?.length ?? 0) + (received.get(1)?.length ?? 0) === 2,
    );
    expect(received.get(0)).toEqual([station]);
    expect(received.get(1)).toEqual([FAR_ORBIT.guild]);
  });
});
