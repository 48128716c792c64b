import type { JobName } from '@spacecadet/contract';
import { colorRoleJobs } from '../features/color-roles/jobs.ts';
import { levelingJobs } from '../features/leveling/jobs.ts';
import { personalityRoleJobs } from '../features/personality-roles/jobs.ts';
import type { JobHandler } from './types.ts';

/** Every job name of the contract has exactly one handler; a missing one is a type error. */
export const JOB_HANDLERS: Record<JobName, JobHandler> = {
  ...colorRoleJobs,
  ...personalityRoleJobs,
  ...levelingJobs,
};
