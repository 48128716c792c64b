/**
 * Issue 40 §2 end to end: the whole product on a real three-master Redis Cluster (Debian's
 * redis-server, persistent: appendonly with fsync on every write). The API, two workers on
 * different shards (shard 1 in this process, shard 0, where the sandbox's guilds live, in a process
 * of its own as deployed) and the Discord proxy (its own process, its lease in the cluster) all
 * run with REDIS_CLUSTER_NODES. An admin signed in through the sandbox's OAuth2 drives them
 * through the API: colour roles generated and posted and members' clicks, XP from chat up to a
 * level-up, a personality-roles refresh; then a master is killed and started again in place and
 * no job of a shard queue on it is lost.
 */
import {
  bullPrefix,
  jobIdFor,
  jobQueueName,
  redisKeyPrefix,
  shardLeaseKey,
  shardOfGuild,
} from '@spacecadet/contract';
import { memberXp } from '@spacecadet/db/schema';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { startRedisCluster, type TestRedisCluster } from '@spacecadet/runtime/testing';
import { waitFor } from '@spacecadet/testing';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickComponent, memberRolesAmong, panelButtons, waitForBotPresence } from './bench/discord-load.ts';
import { drained, MeasuredChild, producerQueue } from './bench/lib.ts';
import { runJobThroughApi, type Stack, startStack } from './bench/stack.ts';
import { inheritedEnv } from './env.ts';

const station = SANDBOX_IDS.guilds.station;
const { ada, mo, nia } = SANDBOX_IDS.users;
const { general, roles: rolesChannel, levelUps } = SANDBOX_IDS.channels;
const SHARDS = 2;
/** Generous: this machine runs other tests beside this one. */
const STEP_MS = 120_000;
const TEST_MS = 240_000;

let cluster: TestRedisCluster;
let stack: Stack;
let childWorker: MeasuredChild | undefined;
const childLog: string[] = [];
let admin: string;
/** A client of the test's own on the cluster, under the stack's key prefix. */
let redis: Cluster;

beforeAll(async () => {
  cluster = await startRedisCluster({ persistent: true });
  stack = await startStack({
    withWorker: true,
    redisClusterNodes: cluster.nodesEnv,
    env: { SHARD_COUNT: String(SHARDS), SHARD_IDS: '1' },
    // A functional test: every click answered, on a busy machine too (the latency is a bench's).
    interactionTimeoutMs: 20_000,
  });
  childWorker = MeasuredChild.worker(
    { ...inheritedEnv(), ...stack.env, SHARD_IDS: '0', LOG_LEVEL: 'info' },
    (line) => childLog.push(line),
  );
  await waitFor(
    'the child worker to sync shard 0’s guilds',
    async () =>
      childLog.some((line) => line.includes('bot_guilds synced for shard') && line.includes('"shardId":0')),
    STEP_MS,
  );
  redis = new Cluster(cluster.nodes, { keyPrefix: redisKeyPrefix(stack.redis.prefix) });
  admin = await stack.signIn(ada);
  await waitForBotPresence(stack, admin, station);
}, TEST_MS);

afterAll(async () => {
  redis?.disconnect();
  await childWorker?.stop();
  await stack?.close();
  await cluster?.stop();
}, TEST_MS);

describe('the API, two workers and the proxy on a Redis Cluster', () => {
  it('both workers hold their shard’s lease in the cluster', async () => {
    for (const shard of [0, 1])
      expect(await redis.exists(shardLeaseKey(shard, SHARDS)), `shard ${shard}`).toBe(1);
  });

  it(
    'generates and posts the colour panel, and members who click get their colours',
    async () => {
      await stack.api('PUT', `/api/guilds/${station}/color-roles/channel`, admin, {
        channel_id: rolesChannel,
      });
      await runJobThroughApi(stack, admin, `/api/guilds/${station}/color-roles/generate-roles`);
      await runJobThroughApi(stack, admin, `/api/guilds/${station}/color-roles/post-panel`);
      const { messageId, buttons } = await panelButtons(stack, admin, station, rolesChannel);
      const colorRoles = new Set(buttons.map((button) => button.roleId));
      const picks = [nia, mo, ada].map((userId, i) => ({ userId, button: buttons[i % buttons.length] }));
      for (const { userId, button } of picks) {
        const click = await clickComponent(stack, {
          guildId: station,
          channelId: rolesChannel,
          messageId,
          userId,
          customId: button?.customId,
        });
        expect(click.ok, `${userId}'s click`).toBe(true);
      }
      await waitFor(
        'every member who clicked to wear the colour picked',
        async () =>
          picks.every(
            ({ userId, button }) =>
              memberRolesAmong(stack, station, userId, colorRoles).join() === button?.roleId,
          ),
        STEP_MS,
      );
    },
    TEST_MS,
  );

  it(
    'counts XP from chat to a level-up: stored in Postgres, announced and rewarded with its role',
    async () => {
      await stack.api('PUT', `/api/guilds/${station}/leveling`, admin, {
        enabled: true,
        // The default curve's level 1 is at 100 XP: two messages.
        xp_per_message: 60,
        message_cooldown_sec: 0,
        announcement_channel: levelUps,
      });
      // A reward for level 1: the API stores it, Sync Roles (a job) creates its role in Discord.
      await stack.api('POST', `/api/guilds/${station}/leveling/roles`, admin, {
        role_name: 'Cluster Cadet',
        level_required: 1,
      });
      await runJobThroughApi(stack, admin, `/api/guilds/${station}/leveling/tasks/refresh`);
      const stationState = () => stack.sandbox.state().guilds.find((guild) => guild.id === station);
      const levelOf = async () =>
        (await stack.database.db.select().from(memberXp)).find(
          (row) => row.guildId === station && row.userId === nia,
        );
      // A message each poll: the worker may hear of the settings after the first one.
      const reached = await waitFor(
        'Nia’s chat to take her to level 1 in Postgres',
        async () => {
          const row = await levelOf();
          if (row && row.level >= 1) return row;
          await fetch(`${stack.sandbox.url}/_sandbox/messages`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              guild_id: station,
              channel_id: general,
              author_id: nia,
              content: 'hello',
            }),
          });
          return undefined;
        },
        { timeoutMs: STEP_MS, intervalMs: 500 },
      );
      expect(reached.xp % 60).toBe(0);
      expect(reached.xp).toBeGreaterThanOrEqual(120);
      const announcement = await waitFor(
        'the level-up announced in #level-ups',
        async () =>
          stationState()
            ?.channels.find((channel) => channel.id === levelUps)
            ?.messages.find((message) => message.content.includes(nia)),
        STEP_MS,
      );
      expect(announcement.content).toContain('level 1');
      await waitFor(
        'Nia to wear the level 1 reward',
        async () => {
          const reward = stationState()?.roles.find((role) => role.name === 'Cluster Cadet');
          const member = stationState()?.members.find((candidate) => candidate.user_id === nia);
          return reward && member?.roles.includes(reward.id);
        },
        STEP_MS,
      );
    },
    TEST_MS,
  );

  it(
    'refreshes personality roles that are in place without a Discord write',
    async () => {
      await stack.api('POST', `/api/guilds/${station}/personality-roles/init`, admin, {
        channel_id: rolesChannel,
      });
      await runJobThroughApi(stack, admin, `/api/guilds/${station}/personality-roles/generate-roles`);
      await runJobThroughApi(stack, admin, `/api/guilds/${station}/personality-roles/post-panel`);
      const producer = producerQueue(stack.redis.url, stack.redis.prefix, SHARDS, cluster.nodes);
      try {
        // The follow-ups of the post (its reconcile, the schedule's first run) are done.
        await drained(producer.queue, STEP_MS);
        const before = stack.sandbox.world.requests.at(-1)?.seq ?? 0;
        const jobId = jobIdFor('personality-roles.refresh', station);
        await stack.api('POST', `/api/guilds/${station}/tasks/personality-roles/refresh`, admin);
        const job = await waitFor(
          'the refresh to complete',
          async () => {
            const status = await stack.api<{ state: string; result?: { summary?: string } }>(
              'GET',
              `/api/jobs/${encodeURIComponent(jobId)}`,
              admin,
            );
            return status.state === 'completed' || status.state === 'failed' ? status : undefined;
          },
          STEP_MS,
        );
        expect(job.state).toBe('completed');
        expect(job.result?.summary).toBe('Everything was in place.');
        const writes = stack.sandbox.world.requests.filter(
          (request) => request.seq > before && request.method !== 'GET',
        );
        expect(writes.map((request) => `${request.method} ${request.path}`)).toEqual([]);
      } finally {
        await producer.close();
      }
    },
    TEST_MS,
  );

  it(
    'loses no queued job when a master with a shard queue is killed and started again',
    async () => {
      const shard = 0;
      // The master that holds shard 0's queue: every key of it shares the `{0}` slot.
      const slot = Number(
        await redis.cluster('KEYSLOT', `${bullPrefix(stack.redis.prefix)}:${jobQueueName(shard)}:wait`),
      );
      const owner = redis.slots[slot]?.[0];
      const port = Number(owner?.split(':')[1]);
      expect(cluster.nodes.map((node) => node.port)).toContain(port);
      const producer = producerQueue(stack.redis.url, stack.redis.prefix, SHARDS, cluster.nodes);
      try {
        // Made-up guilds on each shard: deleting their (absent) data is a job that needs no Discord.
        const guilds = Array.from({ length: 12 }, (_, i) => guildOnShard(i % SHARDS, i));
        expect(guilds.map((guild) => shardOfGuild(guild, SHARDS))).toContain(shard);
        // Paused, so the jobs are still queued (waiting, or delayed) when the master dies.
        await producer.queue.pause();
        await producer.queue.addBulk(
          guilds.map((guildId, i) => ({
            name: 'guild-data.delete',
            data: { guild_id: guildId, requested_by: null, request_id: `cluster-restart-${i}` },
            opts: { jobId: jobIdFor('guild-data.delete', guildId), ...(i % 3 === 0 ? { delay: 1_000 } : {}) },
          })),
        );
        const ids = guilds.map((guildId) => jobIdFor('guild-data.delete', guildId));
        const restartedPid = await cluster.restart(port);
        expect(restartedPid).toBeGreaterThan(0);
        const found = await Promise.all(
          ids.map(async (id) => ((await producer.queue.getJob(id)) ? id : null)),
        );
        expect(found).toEqual(ids);
        await producer.queue.resume();
        const outcomes = await waitFor(
          'every queued job to run to completion on the workers',
          async () => {
            const jobs = await Promise.all(ids.map((id) => producer.queue.getJob(id)));
            return jobs.every((job) => job?.finishedOn) ? jobs : undefined;
          },
          STEP_MS,
        );
        expect(outcomes.map((job) => job?.failedReason ?? 'completed')).toEqual(ids.map(() => 'completed'));
      } finally {
        await producer.close();
      }
    },
    TEST_MS,
  );
});

/** A snowflake-shaped guild id that routes to `shard` of SHARDS (`(id >> 22) % SHARDS`), `n` apart. */
function guildOnShard(shard: number, n: number): string {
  const base = (400_000_000_000_000_000n >> 22n) + BigInt(n * SHARDS);
  const high = base - (base % BigInt(SHARDS)) + BigInt(shard);
  return String((high << 22n) + 7n);
}
