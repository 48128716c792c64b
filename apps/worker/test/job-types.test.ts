/**
 * The worker's job typing: a handler is handed the contract's job name and payload and answers
 * the contract's result, and the features together handle every job name the contract lists.
 * Checked by the compiler (`expectTypeOf`).
 */
import type { GuildJobPayload, JobName, JobResult } from '@spacecadet/contract';
import { describe, expectTypeOf, it } from 'vitest';
import type { WorkerFeature } from '../src/features/feature.ts';
import type { FEATURES } from '../src/features/index.ts';
import type { JobContext, JobHandler } from '../src/jobs/types.ts';

type HandledJob = (typeof FEATURES)[number] extends infer Feature
  ? Feature extends { jobs: infer Jobs }
    ? keyof Jobs
    : never
  : never;

describe('job types', () => {
  it("hands a handler the contract's job name and payload, and takes the contract's result", () => {
    expectTypeOf<JobContext['name']>().toEqualTypeOf<JobName>();
    expectTypeOf<JobContext['payload']>().toEqualTypeOf<GuildJobPayload>();
    expectTypeOf<JobHandler>().parameter(0).toEqualTypeOf<JobContext>();
    expectTypeOf<JobHandler>().returns.toEqualTypeOf<Promise<JobResult>>();
  });

  it("keys a feature's handlers by the contract's job names", () => {
    expectTypeOf<keyof NonNullable<WorkerFeature['jobs']>>().toEqualTypeOf<JobName>();
  });

  it('handles every job name of the contract in some feature', () => {
    expectTypeOf<HandledJob>().toEqualTypeOf<JobName>();
  });
});
