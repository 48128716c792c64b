import { createTestDatabase, type TestDatabase } from '@spacecadet/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { type Harness, startHarness } from './helpers.ts';

describe('two deployments on one Redis prefix', () => {
  let harness: Harness;
  let other: TestDatabase;
  let worker: RunningWorker | undefined;

  beforeAll(async () => {
    [harness, other] = await Promise.all([startHarness(), createTestDatabase('other_deployment')]);
  });
  afterAll(async () => {
    await worker?.close();
    await Promise.allSettled([other?.close(), harness?.close()]);
  });

  it('the second one’s worker refuses to start, saying why', async () => {
    worker = await startWorker(harness.config());
    await expect(startWorker(harness.config({ DATABASE_URL: other.url }))).rejects.toThrow(
      /REDIS_PREFIX ".+" belongs to another deployment/,
    );
  });
});
