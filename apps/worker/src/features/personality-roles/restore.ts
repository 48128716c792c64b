import type { JobResult } from '@spacecadet/contract';
import { type JobContext, JobFailure } from '../../jobs/types.ts';

/** `personality-roles.restore`: the undo of Reset Personality (to be built). */
export async function restorePersonalityRoles(_context: JobContext): Promise<JobResult> {
  throw new JobFailure('not_built', 'Undo of Reset Personality is not built yet.');
}
