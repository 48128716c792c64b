import { notSupported } from '../../jobs/not-supported.ts';
import type { JobHandler } from '../../jobs/types.ts';

type LevelingJob =
  | 'leveling.sync-roles'
  | 'leveling.resend-overview'
  | 'leveling.daily-overview'
  | 'leveling.prune-leavers';

/** Leveling is a later issue; until then these jobs fail with not_supported. */
export const levelingJobs: Record<LevelingJob, JobHandler> = {
  'leveling.sync-roles': notSupported('leveling.sync-roles'),
  'leveling.resend-overview': notSupported('leveling.resend-overview'),
  'leveling.daily-overview': notSupported('leveling.daily-overview'),
  'leveling.prune-leavers': notSupported('leveling.prune-leavers'),
};
