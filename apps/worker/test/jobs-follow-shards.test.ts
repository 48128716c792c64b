/**
 * Jobs follow their shards: with SHARD_COUNT=2 each guild's jobs go to its shard's queue and
 * run on the process holding that shard, so a personality refresh reads the gateway cache (no
 * REST read of the guild's roles or members); a standby takes no job until it takes a shard
 * over, then runs that shard's jobs.
 */
import { jobQueueName, shardLeaseKey, shardOfGuild } from '@spacecadet/contract';
import { seedPersonalityCatalog } from '@spacecadet/db/queries/personality-roles';
import { personalityConfigs } from '@spacecadet/db/schema';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseShardLease } from '../src/shard-lease-holders.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  FAR_ORBIT,
  fixtureWithFarOrbit,
  type Harness,
  jobQueue,
  SANDBOX_IDS,
  STATION,
  startHarness,
  storedKey,
} from './helpers.ts';

const SHARDS = 2;
/** Station on shard 0 of 2, Far Orbit on shard 1: one guild per shard. */
const GUILDS = [
  { guildId: STATION, channelId: SANDBOX_IDS.channels.roles },
  { guildId: FAR_ORBIT.guild, channelId: FAR_ORBIT.channel },
];

let harness: Harness;
let jobs: ReturnType<typeof jobQueue>;
let redis: Redis;
const workers: RunningWorker[] = [];

beforeAll(async () => {
  harness = await startHarness(fixtureWithFarOrbit());
  jobs = jobQueue(harness, SHARDS);
  redis = new Redis(harness.redis.url);
  await harness.database.db.transaction(async (tx) => {
    for (const { guildId, channelId } of GUILDS) {
      await tx.insert(personalityConfigs).values({ guildId, assignChannelId: channelId, configured: true });
      await seedPersonalityCatalog(tx, guildId);
    }
  });
});
afterAll(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.close()));
  await jobs?.close();
  redis?.disconnect();
  await harness?.close();
});

async function start(): Promise<RunningWorker> {
  const worker = await startWorker(harness.config({ SHARD_IDS: 'auto', SHARD_COUNT: String(SHARDS) }));
  workers.push(worker);
  return worker;
}

/** The process (its instance name) holding the shard's lease: what BullMQ names on the jobs it runs. */
async function holderOf(shard: number): Promise<string> {
  const lease = parseShardLease(await redis.get(storedKey(harness, shardLeaseKey(shard, SHARDS))));
  if (!lease) throw new Error(`shard ${shard} has no holder`);
  return lease.holder;
}

/** The REST reads of the guild's roles or members the sandbox answered since `since` requests. */
function rosterReads(guildId: string, since: number): string[] {
  return harness.sandbox.world.requests
    .slice(since)
    .map((request) => `${request.method} ${request.path}`)
    .filter((request) => new RegExp(`^GET .*/guilds/${guildId}/(roles|members)`).test(request));
}

/** Runs the job for the guild; answers the process that ran it. */
async function run(name: Parameters<typeof jobs.add>[0], guildId: string): Promise<string | undefined> {
  const job = await jobs.add(name, guildId);
  const done = await jobs.finished(job.id ?? '');
  expect(done.state, `${name} for ${guildId}: ${done.error}`).toBe('completed');
  return done.job.processedBy;
}

describe('jobs follow their shards', () => {
  it("run each guild's jobs on its shard's process, with no REST read, and move with a taken-over shard", async () => {
    expect(GUILDS.map(({ guildId }) => shardOfGuild(guildId, SHARDS))).toEqual([0, 1]);
    const [first, second] = await Promise.all([start(), start()]);
    if (!first || !second) throw new Error('workers did not start');
    for (const { guildId } of GUILDS) {
      const holder = await holderOf(shardOfGuild(guildId, SHARDS));
      expect(await run('personality-roles.generate', guildId)).toBe(holder);
      expect(await run('personality-roles.post', guildId)).toBe(holder);
      const since = harness.sandbox.world.requests.length;
      expect(await run('personality-roles.refresh', guildId)).toBe(holder);
      expect(rosterReads(guildId, since)).toEqual([]);
    }
    // Each job went to its guild's shard's queue only.
    expect(await jobs.queues.forShard(1).getJobState(`personality-roles.refresh.${STATION}`)).toBe('unknown');

    // A third process finds both shards held: a standby, it takes no job.
    const third = await start();
    expect([...third.client.ws.shards.keys()]).toEqual([]);
    const stoppedShard = 1;
    const stopping = workers.find((worker) => [...worker.client.ws.shards.keys()].includes(stoppedShard));
    await stopping?.close();
    await third.gateway;
    expect([...third.client.ws.shards.keys()]).toEqual([stoppedShard]);
    const [moved] = GUILDS.filter(({ guildId }) => shardOfGuild(guildId, SHARDS) === stoppedShard);
    if (!moved) throw new Error('no guild on the stopped shard');
    const newHolder = await holderOf(stoppedShard);
    const since = harness.sandbox.world.requests.length;
    const ranOn = await run('personality-roles.refresh', moved.guildId);
    expect(ranOn).toBe(newHolder);
    expect(rosterReads(moved.guildId, since)).toEqual([]);
    expect(jobQueueName(stoppedShard)).toBe('spacecadet-jobs-{1}');
  }, 120_000);
});
