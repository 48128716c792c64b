import type { JobResult } from '@spacecadet/contract';
import { type JobContext, JobFailure } from '../../jobs/types.ts';

/** `color-roles.restore`: the undo of Reset Color Roles (to be built). */
export async function restoreColorRoles(_context: JobContext): Promise<JobResult> {
  throw new JobFailure('not_built', 'Undo of Reset Color Roles is not built yet.');
}
