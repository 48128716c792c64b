import { notSupported } from '../../jobs/not-supported.ts';
import type { WorkerFeature } from '../feature.ts';
import { leaverEvents } from './members.ts';

/**
 * Leveling's jobs are a later issue; until then they fail with not_supported. Leavers are
 * already recorded, so "Prune leavers" will know who left while it was not built.
 */
export const levelingFeature = {
  name: 'leveling',
  jobs: {
    'leveling.sync-roles': notSupported('leveling.sync-roles'),
    'leveling.resend-overview': notSupported('leveling.resend-overview'),
    'leveling.daily-overview': notSupported('leveling.daily-overview'),
    'leveling.prune-leavers': notSupported('leveling.prune-leavers'),
  },
  events: leaverEvents,
} satisfies WorkerFeature;
