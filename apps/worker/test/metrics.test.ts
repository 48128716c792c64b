import { LEVELING_SETUP_CHANNEL } from '@spacecadet/db/queries/leveling';
import { levelingSettings } from '@spacecadet/db/schema';
import { type PrometheusSample, parsePrometheusSamples } from '@spacecadet/runtime/testing';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { levelingSetups } from '../src/features/leveling/setup.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  type Harness,
  jobQueue,
  postStationColorPanel,
  SANDBOX_IDS,
  STATION,
  setupChangesHeard,
  startHarness,
  waitFor,
} from './helpers.ts';

const TOKEN = 'worker-metrics-token-for-tests';
const { roles: rolesChannel, general } = SANDBOX_IDS.channels;
const { nia, mo } = SANDBOX_IDS.users;

describe('worker /metrics', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let metricsUrl: string;
  let panelMessageId: string;
  const logs: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => logs.push(JSON.parse(line)) });

  const scrape = async (): Promise<PrometheusSample[]> => {
    const response = await fetch(metricsUrl, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    return parsePrometheusSamples(await response.text());
  };
  const value = (samples: PrometheusSample[], name: string, labels: Record<string, string> = {}) =>
    samples.find(
      (sample) =>
        sample.name === name && Object.entries(labels).every(([key, want]) => sample.labels[key] === want),
    )?.value;
  /** Scrapes until `name{labels}` reaches at least `atLeast`; returns that scrape. */
  const scrapeUntil = (name: string, labels: Record<string, string>, atLeast: number) =>
    waitFor(`${name}${JSON.stringify(labels)} >= ${atLeast}`, async () => {
      const samples = await scrape();
      return (value(samples, name, labels) ?? 0) >= atLeast ? samples : undefined;
    });
  const click = (customId: string) =>
    control(harness.sandbox).click({
      guild_id: STATION,
      channel_id: rolesChannel,
      message_id: panelMessageId,
      user_id: nia,
      custom_id: customId,
    });

  beforeAll(async () => {
    harness = await startHarness();
    // Port 0: the worker logs where it listens.
    worker = await startWorker(harness.config({ METRICS_PORT: '0', METRICS_TOKEN: TOKEN }), { logger });
    const listening = logs.find((line) => line.msg === 'metrics listening');
    metricsUrl = String(listening?.url);
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);

    panelMessageId = await postStationColorPanel(harness);
  });
  afterAll(async () => {
    await worker?.close();
    await harness?.close();
  });

  it('refuses a scrape without the token or with a wrong one', async () => {
    expect((await fetch(metricsUrl)).status).toBe(401);
    expect((await fetch(metricsUrl, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
  });

  it('counts and times jobs by name and outcome', async () => {
    const samples = await scrape();
    for (const job of ['color-roles.generate', 'color-roles.post-panel']) {
      expect(value(samples, 'jobs_total', { job_name: job, outcome: 'completed' })).toBe(1);
      expect(value(samples, 'job_duration_seconds_count', { job_name: job })).toBe(1);
      expect(value(samples, 'job_duration_seconds_sum', { job_name: job })).toBeGreaterThan(0);
    }
    expect(value(samples, 'jobs_total', { outcome: 'failed' })).toBeUndefined();
  });

  it('tells a retried attempt from a job that failed for good', async () => {
    const jobs = jobQueue(harness);
    const { db } = harness.database;
    // A broken table: every attempt crashes, the first two are retried.
    await db.execute(sql`ALTER TABLE color_panels RENAME TO color_panels_away`);
    try {
      const outcome = await jobs.finished((await jobs.add('color-roles.post-panel')).id ?? '');
      expect(outcome.state).toBe('failed');
    } finally {
      await db.execute(sql`ALTER TABLE color_panels_away RENAME TO color_panels`);
      await jobs.close();
    }
    const samples = await scrapeUntil(
      'jobs_total',
      { job_name: 'color-roles.post-panel', outcome: 'failed' },
      1,
    );
    expect(value(samples, 'jobs_total', { job_name: 'color-roles.post-panel', outcome: 'retried' })).toBe(2);
    expect(value(samples, 'jobs_total', { job_name: 'color-roles.post-panel', outcome: 'failed' })).toBe(1);
    expect(value(samples, 'job_duration_seconds_count', { job_name: 'color-roles.post-panel' })).toBe(4);
  });

  it('labels a job name no handler knows as unknown', async () => {
    const jobs = jobQueue(harness);
    try {
      const job = await jobs.queue.add(`made-up.${Date.now()}`, { guild_id: STATION, requested_by: null });
      expect((await jobs.finished(job.id ?? '')).state).toBe('failed');
    } finally {
      await jobs.close();
    }
    const samples = await scrapeUntil('jobs_total', { job_name: 'unknown', outcome: 'failed' }, 1);
    expect(samples.some((sample) => sample.labels.job_name?.startsWith('made-up.'))).toBe(false);
  });

  it("times an interaction's first answer from its snowflake, by the kind of answer", async () => {
    const kinds: Record<number, string> = {
      4: 'reply',
      5: 'deferred_reply',
      6: 'deferred_update',
      7: 'update',
    };
    const before = await scrape();
    const result = await click('color:pick:Red');
    expect(result.responded).toBe(true);
    const kind = kinds[result.response?.type ?? 0] ?? `unexpected answer type ${result.response?.type}`;
    const count = (value(before, 'interaction_answer_seconds_count', { kind }) ?? 0) + 1;
    const samples = await scrapeUntil('interaction_answer_seconds_count', { kind }, count);
    const scrapedAt = Date.now();
    const measuredMs =
      ((value(samples, 'interaction_answer_seconds_sum', { kind }) ?? 0) -
        (value(before, 'interaction_answer_seconds_sum', { kind }) ?? 0)) *
      1000;
    // From the snowflake: at least until the sandbox took the answer, at most until it was scraped.
    const record = harness.sandbox.world.interactions.get(result.interaction_id);
    const created = record?.created_ms ?? Number.NaN;
    expect(measuredMs).toBeGreaterThanOrEqual((record?.responded_ms ?? Number.NaN) - created - 1);
    expect(measuredMs).toBeLessThanOrEqual(scrapedAt - created + 1);
    expect(value(samples, 'interaction_answer_seconds_bucket', { kind, le: '+Inf' })).toBe(count);
  });

  it("counts Discord's 429s by scope", async () => {
    expect(value(await scrape(), 'discord_rest_rate_limited_total', { scope: 'user' })).toBeUndefined();
    await control(harness.sandbox).fault({
      method: 'PUT',
      path: `/guilds/${STATION}/members/${nia}/roles/`,
      status: 429,
      count: 1,
      retry_after: 1,
    });
    expect((await click('color:pick:Blue')).responded).toBe(true);
    await scrapeUntil('discord_rest_rate_limited_total', { scope: 'user' }, 1);
  });

  it('counts chat messages leveling looked at: awarded, or on cooldown', async () => {
    await harness.database.db.insert(levelingSettings).values({
      guildId: STATION,
      enabled: true,
      xpMin: 5,
      xpMax: 5,
      messageCooldownSec: 60,
      xpMultiplier: 1,
    });
    // The worker hears the change by NOTIFY.
    await setupChangesHeard(harness, levelingSetups, LEVELING_SETUP_CHANNEL);
    const sandbox = control(harness.sandbox);
    for (const content of ['first', 'second, within the cooldown']) {
      await sandbox.postMessage({ guild_id: STATION, channel_id: general, author_id: mo, content });
    }
    const samples = await scrapeUntil('xp_messages_total', { outcome: 'cooldown' }, 1);
    expect(value(samples, 'xp_messages_total', { outcome: 'awarded' })).toBe(1);
    expect(value(samples, 'xp_messages_total', { outcome: 'cooldown' })).toBe(1);
  });

  it('reports shard status, queue depth and process metrics', async () => {
    const samples = await scrape();
    expect(value(samples, 'gateway_shard_up', { shard: '0' })).toBe(1);
    expect(samples.filter((sample) => sample.name === 'gateway_shard_up')).toHaveLength(1);
    expect(value(samples, 'queue_jobs', { state: 'waiting' })).toBe(0);
    expect(value(samples, 'queue_jobs', { state: 'active' })).toBe(0);
    expect(value(samples, 'spacecadet_worker_process_cpu_seconds_total')).toBeGreaterThan(0);
  });

  it('counts the job scheduler checks and the rows they read, as the log lines say', async () => {
    const checks = () => logs.filter((line) => line.msg === 'job schedulers checked');
    const rowsLogged = () => checks().reduce((sum, line) => sum + Number(line.rowsRead), 0);
    // The shard's first check, at start, is a full sync.
    expect(checks()[0]?.fullShards).toEqual([0]);
    const before = rowsLogged();
    const samples = await scrapeUntil('job_schedule_checks_total', { sync: 'full' }, 1);
    // A check may come between the scrape and the count of the log lines, never before both.
    expect(value(samples, 'job_schedule_rows_read_total')).toBeGreaterThanOrEqual(before);
    expect(value(samples, 'job_schedule_rows_read_total')).toBeLessThanOrEqual(rowsLogged());
  });

  it('closes the listener with the worker', async () => {
    await worker.close();
    await expect(fetch(metricsUrl)).rejects.toThrow();
  });
});
