import { notSupported } from '../../jobs/not-supported.ts';
import type { JobHandler } from '../../jobs/types.ts';

type PersonalityRoleJob =
  | 'personality-roles.generate'
  | 'personality-roles.post'
  | 'personality-roles.refresh'
  | 'personality-roles.reset';

/** Personality roles are a later issue; until then these jobs fail with not_supported. */
export const personalityRoleJobs: Record<PersonalityRoleJob, JobHandler> = {
  'personality-roles.generate': notSupported('personality-roles.generate'),
  'personality-roles.post': notSupported('personality-roles.post'),
  'personality-roles.refresh': notSupported('personality-roles.refresh'),
  'personality-roles.reset': notSupported('personality-roles.reset'),
};
