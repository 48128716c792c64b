import { notSupported } from '../../jobs/not-supported.ts';
import type { WorkerFeature } from '../feature.ts';

/** Personality roles are a later issue; until then these jobs fail with not_supported. */
export const personalityRolesFeature = {
  name: 'personality-roles',
  jobs: {
    'personality-roles.generate': notSupported('personality-roles.generate'),
    'personality-roles.post': notSupported('personality-roles.post'),
    'personality-roles.refresh': notSupported('personality-roles.refresh'),
    'personality-roles.reset': notSupported('personality-roles.reset'),
  },
} satisfies WorkerFeature;
