import type { JobHandler } from '../../jobs/types.ts';
import { generateColorRoles } from './generate.ts';
import { postColorPanel } from './panel.ts';
import { resetColorRoles } from './reset.ts';

type ColorRoleJob = 'color-roles.generate' | 'color-roles.post-panel' | 'color-roles.reset';

export const colorRoleJobs: Record<ColorRoleJob, JobHandler> = {
  'color-roles.generate': generateColorRoles,
  'color-roles.post-panel': postColorPanel,
  'color-roles.reset': resetColorRoles,
};
