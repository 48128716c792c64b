import { once } from 'node:events';
import { shardOfGuild } from '@spacecadet/contract';
import { botGuilds } from '@spacecadet/db/schema';
import {
  ChannelType,
  Events,
  type GatewayDispatchPayload,
  type GatewayMessageCreateDispatchData,
} from 'discord.js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  FAR_ORBIT,
  fixtureWithFarOrbit,
  guildState,
  type Harness,
  jobQueue,
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
    // Raw packets, as the worker reads messages: discord.js emits messageCreate only for a
    // cached channel, and the worker keeps none.
    const seen: GatewayMessageCreateDispatchData[] = [];
    worker.client.on(Events.Raw, (packet: GatewayDispatchPayload) => {
      if (packet.t === 'MESSAGE_CREATE') seen.push(packet.d);
    });
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
    // Neither channels nor their messages are kept in memory, however much members chat.
    expect(worker.client.channels.cache.size).toBe(0);
    expect(worker.client.guilds.cache.get(station)?.channels.cache.size).toBe(0);
    await worker.close();
    workers.splice(workers.indexOf(worker), 1);
  });

  it('runs two shards in two processes: each guild is heard by exactly one, and each job runs once', async () => {
    // Each process logs to its own list, as two containers' logs would be kept apart.
    const completed = new Map<number, string[]>([
      [0, []],
      [1, []],
    ]);
    const loggerFor = (shard: number) =>
      pino(
        { level: 'info' },
        {
          write(line: string) {
            const entry = JSON.parse(line) as { msg?: string; jobId?: string };
            if (entry.msg === 'job completed' && entry.jobId) completed.get(shard)?.push(entry.jobId);
          },
        },
      );
    const [shard0, shard1] = await Promise.all(
      [0, 1].map((id) =>
        startWorker(harness.config({ SHARD_IDS: String(id), SHARD_COUNT: '2' }), { logger: loggerFor(id) }),
      ),
    );
    if (!shard0 || !shard1) throw new Error('workers did not start');
    workers.push(shard0, shard1);
    const guilds = [station, quiet, orbit, FAR_ORBIT.guild];
    const expected = (shard: number) => guilds.filter((guild) => shardOfGuild(guild, 2) === shard).sort();
    expect([...shard0.client.guilds.cache.keys()].sort()).toEqual(expected(0));
    expect([...shard1.client.guilds.cache.keys()].sort()).toEqual(expected(1));
    expect(expected(1)).toEqual([FAR_ORBIT.guild]);

    // Member messages in every guild: each reaches the one process that owns its guild, once.
    const received = new Map<number, Array<{ id: string; guild: string }>>([
      [0, []],
      [1, []],
    ]);
    for (const [shard, worker] of [shard0, shard1].entries()) {
      worker.client.on(Events.Raw, (packet: GatewayDispatchPayload) => {
        if (packet.t === 'MESSAGE_CREATE')
          received.get(shard)?.push({ id: packet.d.id, guild: packet.d.guild_id ?? '' });
      });
    }
    const sandbox = control(harness.sandbox);
    const say = (guildId: string, content: string) => {
      const guild = guildState(harness.sandbox, guildId);
      const channel = guild.channels.find((candidate) => candidate.type === ChannelType.GuildText);
      const author = guild.members.find((member) => member.user_id !== SANDBOX_IDS.bot);
      if (!channel || !author) throw new Error(`no text channel or member in ${guildId}`);
      return sandbox.postMessage({
        guild_id: guildId,
        channel_id: channel.id,
        author_id: author.user_id,
        content,
      });
    };
    const posted: Array<{ id: string; guild: string }> = [];
    for (let round = 0; round < 3; round += 1) {
      for (const guild of guilds) posted.push({ id: (await say(guild, `hello ${round}`)).id, guild });
    }
    // A last message per process: each gateway delivers in order, so once a process has it, any
    // earlier event meant for (or wrongly sent to) that process has arrived too.
    const lastOf = new Map<number, string>();
    for (const shard of [0, 1]) {
      const guild = expected(shard)[0] ?? '';
      lastOf.set(shard, (await say(guild, 'last one')).id);
      posted.push({ id: lastOf.get(shard) ?? '', guild });
    }
    await waitFor('the last message in each process', () =>
      [0, 1].every((shard) => received.get(shard)?.some((message) => message.id === lastOf.get(shard))),
    );
    const all = [...(received.get(0) ?? []), ...(received.get(1) ?? [])];
    expect(all.map((message) => message.id).sort()).toEqual(posted.map((message) => message.id).sort());
    for (const shard of [0, 1]) {
      expect(received.get(shard)?.every((message) => shardOfGuild(message.guild, 2) === shard)).toBe(true);
    }

    // Jobs of every guild through the real queue: any process may take any guild's job, and each
    // job runs once across both.
    const jobs = jobQueue(harness);
    try {
      const queued: string[] = [];
      for (const guild of guilds) {
        for (const name of ['personality-roles.refresh', 'leveling.sync-roles'] as const) {
          queued.push((await jobs.add(name, guild)).id ?? '');
        }
      }
      const outcomes = await Promise.all(queued.map((id) => jobs.finished(id)));
      expect(outcomes.map((outcome) => outcome.state)).toEqual(queued.map(() => 'completed'));
      // The completion log lines of both processes name every job exactly once.
      await waitFor('every completion logged', () =>
        queued.every((id) => [0, 1].some((shard) => completed.get(shard)?.includes(id))),
      );
      const ranIn = [...(completed.get(0) ?? []), ...(completed.get(1) ?? [])].filter((id) =>
        queued.includes(id),
      );
      expect(ranIn.sort()).toEqual([...queued].sort());
    } finally {
      await jobs.close();
    }
  });
});
