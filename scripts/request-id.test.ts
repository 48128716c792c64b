/**
 * One request id from the API through the queued job to the worker's log lines: the real API and
 * the real worker on one database, Redis prefix and Discord sandbox, the worker's pino output
 * captured as it would be written.
 */
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { routePath, routes } from '@spacecadet/contract';
import { testStackEnv, waitFor } from '@spacecadet/testing';
import {
  loadWorkerConfig,
  type RunningWorker,
  type StartWorkerOptions,
  startWorker,
} from '@spacecadet/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUILDS, type Harness, signIn, startHarness, USERS } from '../apps/api/test/harness.ts';

type WorkerLogger = NonNullable<StartWorkerOptions['logger']>;
/** pino is the worker's dependency, not the repo root's: loaded from the worker's package. */
const { pino } = createRequire(new URL('../apps/worker/package.json', import.meta.url))('pino') as {
  pino: (options: { level: string }, stream: Writable) => WorkerLogger;
};

interface LogLine {
  msg: string;
  jobId?: string;
  requestId?: string;
  [field: string]: unknown;
}

let h: Harness;
let worker: RunningWorker;
let ada: string;
const lines: LogLine[] = [];

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  const config = loadWorkerConfig({ ...testStackEnv(h.database, h.redis, h.sandbox), LOG_LEVEL: 'info' });
  worker = await startWorker(config, { logger: pino({ level: 'info' }, output) });
});
afterAll(async () => {
  await worker?.close();
  await h?.close();
});

/** The worker's lines about one job, once it has logged that the job completed. */
function linesOfJob(jobId: string): Promise<LogLine[]> {
  const ofJob = () => lines.filter((line) => line.jobId === jobId);
  return waitFor(
    () => `job ${jobId} to complete: ${JSON.stringify(ofJob())}`,
    () => (ofJob().some((line) => line.msg === 'job completed') ? ofJob() : undefined),
    { timeoutMs: 20_000, intervalMs: 50 },
  );
}

describe('a job queued by an API request', () => {
  it('is logged by the worker with the request id the API answered with', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: routePath(routes.syncLevelingRoles, { guildId: GUILDS.station }),
      headers: { authorization: ada, 'x-request-id': 'support-ticket-1234' },
    });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.headers['x-request-id']).toBe('support-ticket-1234');
    const ofJob = await linesOfJob(response.json<{ job_id: string }>().job_id);
    expect(ofJob.map((line) => line.msg)).toEqual(expect.arrayContaining(['job started', 'job completed']));
    for (const line of ofJob) expect(line).toMatchObject({ requestId: 'support-ticket-1234' });
  });

  it('carries the id the API made up when the client sent none', async () => {
    // Another action, so this is a new job rather than the finished one above.
    const response = await h.app.inject({
      method: 'POST',
      url: routePath(routes.pruneLeavers, { guildId: GUILDS.station }),
      headers: { authorization: ada },
    });
    expect(response.statusCode, response.body).toBe(202);
    const requestId = response.headers['x-request-id'];
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const ofJob = await linesOfJob(response.json<{ job_id: string }>().job_id);
    for (const line of ofJob) expect(line.requestId).toBe(requestId);
  });

  it('a job no request queued (a schedule) is logged without a request id', async () => {
    const job = await h.app.services.queue
      .forGuild(GUILDS.station)
      .add(
        'leveling.daily-overview',
        { guild_id: GUILDS.station, requested_by: null },
        { jobId: 'scheduled-prune' },
      );
    const ofJob = await linesOfJob(job.id ?? '');
    expect(ofJob.length).toBeGreaterThan(1);
    for (const line of ofJob) expect(line).not.toHaveProperty('requestId');
  });
});
