import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_JOB_FAILURE } from '../src/jobs/job-worker.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { type Harness, jobQueue, startHarness } from './helpers.ts';

describe('a job that crashes on something unexpected', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;
  const logLines: string[] = [];

  beforeAll(async () => {
    harness = await startHarness();
    const logger = pino({ level: 'warn' }, { write: (line: string) => logLines.push(line) });
    worker = await startWorker(harness.config(), { logger });
    jobs = jobQueue(harness);
  });
  afterAll(async () => {
    await jobs?.close();
    await worker?.close();
    await harness.close();
  });

  it('stores a generic failure, logs the real error, and is retried', async () => {
    const { db } = harness.database;
    // A broken database: every query on the panel table fails with Postgres' own message.
    await db.execute(sql`ALTER TABLE color_panels RENAME TO color_panels_away`);
    try {
      const outcome = await jobs.finished((await jobs.add('color-roles.post-panel')).id ?? '');
      expect(outcome.state).toBe('failed');
      expect(outcome.error).toBe(INTERNAL_JOB_FAILURE);
      expect(outcome.job.attemptsMade).toBe(3);
      expect(JSON.stringify(outcome.job.stacktrace)).not.toContain('color_panels');
    } finally {
      await db.execute(sql`ALTER TABLE color_panels_away RENAME TO color_panels`);
    }
    const crashes = logLines.filter((line) => line.includes('job crashed'));
    expect(crashes).toHaveLength(3);
    expect(crashes[0]).toContain('relation \\"color_panels\\" does not exist');
  });
});
