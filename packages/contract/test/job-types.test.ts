/**
 * The job typing the API (which queues) and the worker (which runs) share: the job names are
 * the contract's list, every job carries the contract's payload, and ids are made from a name.
 * Checked by the compiler (`expectTypeOf`).
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import {
  type GuildJobPayload,
  type JOB_NAMES,
  JOB_PREDECESSORS,
  type JobName,
  type JobResult,
  jobIdFor,
  jobLockFeature,
  jobSchedulerIdFor,
  parseJobId,
  repairJobIdFor,
} from '../src/index.ts';

describe('job types', () => {
  it('names a job by the list of job names, and nothing else', () => {
    expectTypeOf<JobName>().toEqualTypeOf<(typeof JOB_NAMES)[number]>();
    expectTypeOf<JobName>().toEqualTypeOf<z.infer<typeof JobName>>();
    expectTypeOf<'leveling.sync-roles'>().toExtend<JobName>();
    expectTypeOf<'leveling.no-such-job'>().not.toExtend<JobName>();
  });

  it("types a job's payload by the payload schema", () => {
    expectTypeOf<GuildJobPayload>().toEqualTypeOf<z.infer<typeof GuildJobPayload>>();
    expectTypeOf<GuildJobPayload['guild_id']>().toEqualTypeOf<string>();
    expectTypeOf<GuildJobPayload['requested_by']>().toEqualTypeOf<string | null>();
    expectTypeOf<GuildJobPayload['request_id']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<GuildJobPayload['history_entry_id']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<JobResult>().toEqualTypeOf<z.infer<typeof JobResult>>();
  });

  it('makes ids from a job name, never from any string', () => {
    expectTypeOf(jobIdFor).parameters.toEqualTypeOf<[name: JobName, guildId: string]>();
    expectTypeOf(jobSchedulerIdFor).parameter(0).toEqualTypeOf<JobName>();
    expectTypeOf(repairJobIdFor).parameter(0).toEqualTypeOf<JobName>();
    expectTypeOf(jobLockFeature).parameter(0).toEqualTypeOf<JobName>();
    expectTypeOf(parseJobId).returns.toEqualTypeOf<{ name: JobName; guildId: string } | null>();
    expectTypeOf(JOB_PREDECESSORS).toEqualTypeOf<Partial<Record<JobName, readonly JobName[]>>>();
  });
});
