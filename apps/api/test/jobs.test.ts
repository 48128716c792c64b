import {
  guildChannelsCacheKey,
  type JobStatus,
  jobFailureReason,
  jobQueueName,
  routePath,
  routes,
  workerConnectionName,
} from '@spacecadet/contract';
import { colorGroups, colorShades, colors, guildConfigs } from '@spacecadet/db';
import { waitFor } from '@spacecadet/testing';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerServices } from '../src/plugins/services.ts';
import { CHANNELS, GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

let h: Harness;
let ada: string;
let nia: string;
let rex: string;

beforeAll(async () => {
  h = await startHarness();
  [ada, nia, rex] = await Promise.all([signIn(h, USERS.ada), signIn(h, USERS.nia), signIn(h, USERS.rex)]);
});
afterAll(async () => {
  await h?.close();
});

function post(url: string, authorization = ada) {
  return h.app.inject({ method: 'POST', url, headers: { authorization } });
}
function get(url: string, authorization = ada) {
  return h.app.inject({ url, headers: { authorization } });
}

function pollJob(jobId: string, until: (status: JobStatus) => boolean): Promise<JobStatus> {
  let status: JobStatus | undefined;
  return waitFor(
    () => `job ${jobId} to move on; stuck in ${JSON.stringify(status)}`,
    async () => {
      status = (await get(`/api/jobs/${jobId}`)).json<JobStatus>();
      return until(status) ? status : undefined;
    },
    { timeoutMs: 10_000, intervalMs: 50 },
  );
}

// First in the file: the queue holds no other job yet, so the workers below take only this one.
describe('a job whose worker stopped', () => {
  it('reports recovering until another worker has run it, and a new click joins it', async () => {
    const url = routePath(routes.syncLevelingRoles, { guildId: GUILDS.station });
    const jobId = (await post(url)).json<{ job_id: string }>().job_id;
    const prefix = `${h.redis.prefix}:bull`;
    const dyingConnection = new Redis(h.redis.url, { maxRetriesPerRequest: null });
    const survivorConnection = new Redis(h.redis.url, { maxRetriesPerRequest: null });
    // A worker that takes the job and dies: fetched by hand, its lock is never renewed.
    const dying = new Worker(jobQueueName(0), null, {
      connection: dyingConnection,
      prefix,
      lockDuration: 300,
    });
    let survivor: Worker | undefined;
    let finish = () => {};
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    try {
      const taken: Job | undefined = await dying.getNextJob('dead-worker-token');
      expect(taken?.id).toBe(jobId);
      await taken?.updateProgress(30);
      expect((await get(`/api/jobs/${jobId}`)).json()).toMatchObject({
        state: 'active',
        progress: 30,
        recovering: false,
      });

      // Its lock runs out: nobody is running the job any more.
      const stuck = await pollJob(jobId, (status) => status.recovering);
      expect(stuck).toMatchObject({ state: 'active', progress: 30 });
      // Asking again joins the job being recovered instead of queuing a second run.
      expect((await post(url)).json()).toEqual({ job_id: jobId });

      // Another worker's stalled check finds it and runs it again.
      survivor = new Worker(
        jobQueueName(0),
        async () => {
          await gate;
          return { ok: true, summary: 'Synced' };
        },
        { connection: survivorConnection, prefix, stalledInterval: 100 },
      );
      const rerun = await pollJob(jobId, (status) => status.state === 'active' && status.progress === 30);
      expect(rerun.recovering).toBe(true);
      await waitForStalledTakeover(jobId);
      expect((await get(`/api/jobs/${jobId}`)).json()).toMatchObject({ recovering: true });
      finish();
      const done = await pollJob(jobId, (status) => status.state === 'completed');
      expect(done).toMatchObject({ recovering: false, result: { summary: 'Synced' } });
    } finally {
      finish();
      await survivor?.close();
      await dying.close();
      dyingConnection.disconnect();
      survivorConnection.disconnect();
    }
  });
});

describe('a job whose worker process died', () => {
  it('reports recovering as soon as the process is gone, before its lock lapses', async () => {
    const url = routePath(routes.syncLevelingRoles, { guildId: GUILDS.station });
    const jobId = (await post(url)).json<{ job_id: string }>().job_id;
    // A worker process as the worker app runs it: its connections and BullMQ worker named
    // after its instance. Its lock outlasts the test: only its absence from Redis can tell.
    const instance = `dying-${process.pid}`;
    const connection = new Redis(h.redis.url, {
      maxRetriesPerRequest: null,
      connectionName: workerConnectionName(h.redis.prefix, instance),
    });
    const dying = new Worker(jobQueueName(0), null, {
      connection,
      prefix: `${h.redis.prefix}:bull`,
      lockDuration: 120_000,
      name: instance,
    });
    try {
      const taken: Job | undefined = await dying.getNextJob('dying-token');
      expect(taken?.id).toBe(jobId);
      expect((await get(`/api/jobs/${jobId}`)).json()).toMatchObject({ state: 'active', recovering: false });

      // Killed: the OS closes every connection of the process at once.
      await dying.disconnect();
      connection.disconnect();
      const stuck = await pollJob(jobId, (status) => status.recovering);
      expect(stuck).toMatchObject({ state: 'active' });
      expect(await h.app.services.queue.forShard(0).getJobState(jobId)).toBe('active');
    } finally {
      connection.disconnect();
      await dying.close(true);
      // Let later tests queue this job again: drop the dead run's lock and the job.
      const client = await h.app.services.queue.forShard(0).getBackend().client;
      await client.del(`${h.app.services.queue.forShard(0).toKey(jobId)}:lock`);
      await h.app.services.queue.forShard(0).remove(jobId);
    }
  });
});

/** Polls `check` until it returns a value, or fails at the deadline. */
function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  return waitFor(what, check, { timeoutMs: 10_000 });
}

/** Until the job was moved back by a stalled check and a worker holds it again. */
async function waitForStalledTakeover(jobId: string): Promise<void> {
  await until(`job ${jobId} to be taken over`, async () => {
    const job = await h.app.services.queue.forShard(0).getJob(jobId);
    return job && job.stalledCounter > 0 && job.attemptsStarted >= 2 ? true : undefined;
  });
}

describe('Redis durability check at start', () => {
  it('logs what the Redis settings mean for queued jobs', async () => {
    const lines: Array<{ level: number; msg: string }> = [];
    const app = Fastify({
      logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
    });
    try {
      await registerServices(app, h.config);
      const admin = new Redis(h.redis.url);
      const [, appendonly] = (await admin.config('GET', 'appendonly')) as string[];
      const [, save] = (await admin.config('GET', 'save')) as string[];
      admin.disconnect();
      const persisted = appendonly === 'yes' || (save ?? '').trim() !== '';
      const line = await until('the durability log line', () =>
        lines.find((entry) => /Redis (can lose|keeps) queued jobs/.test(entry.msg)),
      );
      if (persisted) {
        expect(line.msg).toMatch(/^Redis keeps queued jobs/);
      } else {
        expect(line.level).toBe(40);
        expect(line.msg).toMatch(/^Redis can lose queued jobs: persistence is off/);
      }
    } finally {
      await app.close();
    }
  });
});

describe('action routes enqueue jobs', () => {
  const generate = `/api/guilds/${GUILDS.station}/color-roles/generate-roles`;
  const jobId = `color-roles.generate.${GUILDS.station}`;

  it('answers 202 with a deterministic id, and a double click joins the same job', async () => {
    const [first, second] = await Promise.all([post(generate), post(generate)]);
    expect(first.statusCode).toBe(202);
    expect(first.json()).toEqual({ job_id: jobId });
    expect(second.json()).toEqual({ job_id: jobId });
    const third = await post(generate);
    expect(third.json()).toEqual({ job_id: jobId });
    const counts = await h.app.services.queue.forShard(0).getJobCounts('waiting');
    expect(counts.waiting).toBe(1);
  });

  it('reports the job to managers of its guild only', async () => {
    const status = await get(`/api/jobs/${jobId}`);
    expect(status.statusCode).toBe(200);
    expect(status.json()).toEqual({
      id: jobId,
      name: 'color-roles.generate',
      guild_id: GUILDS.station,
      state: 'waiting',
      progress: 0,
      error: null,
      recovering: false,
      waiting_for_discord: false,
    });
    expect((await get(`/api/jobs/${jobId}`, nia)).statusCode).toBe(403);
    expect((await get(`/api/jobs/${jobId}`, rex)).statusCode).toBe(403);
    expect((await get(`/api/jobs/color-roles.reset.${GUILDS.station}`)).statusCode).toBe(404);
    expect((await get('/api/jobs/not-ours')).statusCode).toBe(404);
  });

  it('answers 409 bot_not_in_guild where the bot is absent', async () => {
    for (const action of ['generate-roles', 'post-panel', 'reset']) {
      const response = await post(`/api/guilds/${GUILDS.quiet}/color-roles/${action}`);
      expect(response.statusCode, action).toBe(409);
      expect(response.json()).toEqual({ error: 'bot_not_in_guild', message: 'Bot not in guild' });
    }
    const channels = await get(`/api/guilds/${GUILDS.quiet}/channels`);
    expect(channels.statusCode).toBe(409);
  });

  it('shows progress and result, then replaces a finished job when asked again', async () => {
    const connection = new Redis(h.redis.url, { maxRetriesPerRequest: null });
    const worker = new Worker(
      jobQueueName(0),
      async (job) => {
        await job.updateProgress(40);
        return { ok: true, summary: 'Created 3 roles', created: 3 };
      },
      { connection, prefix: `${h.redis.prefix}:bull` },
    );
    try {
      const done = await pollJob(jobId, (s) => s.state === 'completed');
      expect(done).toMatchObject({ progress: 100, result: { ok: true, created: 3 }, error: null });
      await worker.close();
      const again = await post(`/api/guilds/${GUILDS.station}/color-roles/generate-roles`);
      expect(again.json()).toEqual({ job_id: jobId });
      expect((await get(`/api/jobs/${jobId}`)).json().state).toBe('waiting');
    } finally {
      await worker.close();
      connection.disconnect();
    }
  });
});

describe('a failed job', () => {
  it('reports its error, and asking again queues it anew', async () => {
    const url = `/api/guilds/${GUILDS.station}/color-roles/reset`;
    const jobId = (await post(url)).json<{ job_id: string }>().job_id;
    expect(jobId).toBe(`color-roles.reset.${GUILDS.station}`);
    const connection = new Redis(h.redis.url, { maxRetriesPerRequest: null });
    const worker = new Worker(
      jobQueueName(0),
      async (job) => {
        if (job.name !== 'color-roles.reset') return { ok: true, summary: 'not this one' };
        throw new UnrecoverableError('Missing Permissions');
      },
      { connection, prefix: `${h.redis.prefix}:bull` },
    );
    try {
      const failed = await pollJob(jobId, (s) => s.state === 'failed');
      expect(failed).toMatchObject({ state: 'failed', error: 'Missing Permissions' });
      expect(failed.error_code).toBeUndefined();
    } finally {
      await worker.close();
      connection.disconnect();
    }
    expect((await post(url)).json()).toEqual({ job_id: jobId });
    expect((await get(`/api/jobs/${jobId}`)).json()).toMatchObject({ state: 'waiting', error: null });
  });

  it('shows the admin the message of a coded failure and keeps the code apart', async () => {
    const jobId = (await post(`/api/guilds/${GUILDS.station}/color-roles/generate-roles`)).json<{
      job_id: string;
    }>().job_id;
    const connection = new Redis(h.redis.url, { maxRetriesPerRequest: null });
    const worker = new Worker(
      jobQueueName(0),
      async () => {
        throw new UnrecoverableError(jobFailureReason('role_cap_reached', 'This server has 250 roles.'));
      },
      { connection, prefix: `${h.redis.prefix}:bull` },
    );
    try {
      const failed = await pollJob(jobId, (s) => s.state === 'failed');
      expect(failed).toMatchObject({ error: 'This server has 250 roles.', error_code: 'role_cap_reached' });
    } finally {
      await worker.close();
      connection.disconnect();
    }
  });
});

describe('channels', () => {
  it('lists text channels through the bot token, sorted by position', async () => {
    const response = await get(`/api/guilds/${GUILDS.station}/channels`);
    expect(response.statusCode).toBe(200);
    const ids = response.json<{ channels: Array<{ id: string }> }>().channels.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining([CHANNELS.general, CHANNELS.roles, CHANNELS.levelUps]));
    expect(ids).not.toContain(CHANNELS.stationCategory);
    expect(ids).not.toContain(CHANNELS.stationLounge);
  });

  it('with kind=any lists the voice channels too, marked voice (no-XP channels may be any)', async () => {
    const response = await get(`/api/guilds/${GUILDS.station}/channels?kind=any`);
    expect(response.statusCode).toBe(200);
    const channels = response.json<{ channels: Array<{ id: string; voice?: boolean }> }>().channels;
    const voice = channels.filter((c) => c.voice).map((c) => c.id);
    expect(voice).toEqual([CHANNELS.stationLounge, CHANNELS.stationBriefing, CHANNELS.stationAfk]);
    expect(channels.find((c) => c.id === CHANNELS.general)?.voice).toBeUndefined();
    expect(channels.map((c) => c.id)).not.toContain(CHANNELS.stationCategory);
    const refused = await get(`/api/guilds/${GUILDS.station}/channels?kind=voice`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('kind must be text or any');
  });

  it('serves from the cache, and maps Discord refusing the bot to 409 and failing to 502', async () => {
    const url = `/api/guilds/${GUILDS.station}/channels`;
    const fault = (status: number) =>
      fetch(`${h.sandbox.url}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ method: 'GET', path: `/guilds/${GUILDS.station}/channels`, status, count: 1 }),
      });
    await fault(500);
    expect((await get(url)).statusCode).toBe(200);
    await h.app.services.redis.del(guildChannelsCacheKey(GUILDS.station));
    expect((await get(url)).json()).toEqual({ error: 'discord_request_failed', message: expect.any(String) });
    await fault(404);
    expect((await get(url)).json()).toEqual({ error: 'bot_not_in_guild', message: 'Bot not in guild' });
    expect((await get(url)).statusCode).toBe(200);
  });
});

describe('color roles palette', () => {
  it('returns groups, colors and shades in position order with the mode from config', async () => {
    const db = h.database.db;
    const [naturals, rainbow] = await db
      .insert(colorGroups)
      .values([
        { guildId: GUILDS.station, name: 'Naturals', position: 1 },
        { guildId: GUILDS.station, name: 'Rainbow', position: 0, isExpanded: false },
      ])
      .returning();
    if (!naturals || !rainbow) throw new Error('seed failed');
    const [blue, red] = await db
      .insert(colors)
      .values([
        { guildId: GUILDS.station, groupId: rainbow.id, name: 'Blue', hexCode: '#0000FF', position: 1 },
        {
          guildId: GUILDS.station,
          groupId: rainbow.id,
          name: 'Red',
          hexCode: '#FF0000',
          position: 0,
          roleId: '9',
        },
      ])
      .returning();
    if (!blue || !red) throw new Error('seed failed');
    await db.insert(colorShades).values([
      {
        guildId: GUILDS.station,
        colorId: red.id,
        name: 'Dark Red',
        hexCode: '#8B0000',
        position: 1,
        roleId: '11',
      },
      { guildId: GUILDS.station, colorId: red.id, name: 'Light Red', hexCode: '#FF7F7F', position: 0 },
    ]);
    await db.insert(guildConfigs).values({ guildId: GUILDS.station, data: { color_roles_mode: 'shades' } });

    const warning = 'I can\'t give members the role "Red": my role must be above it.';
    // Written as the worker does: a plain client and the full key.
    const raw = new Redis(h.redis.url);
    await raw.hset(`${h.redis.prefix}:color-warnings:${GUILDS.station}`, '9', warning);
    raw.disconnect();

    const response = await get(`/api/guilds/${GUILDS.station}/color-roles`);
    expect(response.statusCode).toBe(200);
    const state = response.json();
    expect(state.mode).toBe('shades');
    expect(state.warnings).toEqual([warning]);
    expect(state.groups.map((g: { group_name: string }) => g.group_name)).toEqual(['Rainbow', 'Naturals']);
    expect(state.groups[0]).toMatchObject({
      is_expanded: false,
      colors: [
        {
          color_name: 'Red',
          role_id: '9',
          shades: [
            { shade_name: 'Light Red', role_id: null },
            { shade_name: 'Dark Red', role_id: '11' },
          ],
        },
        { color_name: 'Blue', role_id: null, shades: [] },
      ],
    });
  });

  // Last in the file: it drops a table of this file's own database.
  it('answers 501 color_roles_unavailable when the color tables are missing', async () => {
    await h.database.db.execute(sql`drop table color_shades`);
    const response = await get(`/api/guilds/${GUILDS.station}/color-roles`);
    expect(response.statusCode).toBe(501);
    expect(response.json()).toEqual({
      error: 'color_roles_unavailable',
      message: 'Server database is not configured yet for color roles.',
    });
    for (const action of ['generate-roles', 'post-panel', 'reset']) {
      const queued = await h.app.services.queue.forShard(0).getJobCounts('waiting');
      const answer = await post(`/api/guilds/${GUILDS.station}/color-roles/${action}`);
      expect(answer.statusCode, action).toBe(501);
      expect(answer.json().error).toBe('color_roles_unavailable');
      expect(await h.app.services.queue.forShard(0).getJobCounts('waiting'), action).toEqual(queued);
    }
  });
});
