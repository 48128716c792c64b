import type { WorkerFeature } from '../feature.ts';
import { colorsCommand } from './command.ts';
import { generateColorRoles } from './generate.ts';
import { colorRoleInteractions } from './interactions.ts';
import { postColorPanel } from './panel.ts';
import { repairColorRoles } from './repair.ts';
import { resetColorRoles } from './reset.ts';
import { restoreColorRoles } from './restore.ts';

/**
 * Color roles: generate the palette's roles, post the panel, members pick a color, reset; a
 * deleted colour role or panel is repaired (`color-roles.repair`, queued by `features/repairs`).
 */
export const colorRolesFeature = {
  name: 'color-roles',
  jobs: {
    'color-roles.generate': generateColorRoles,
    'color-roles.post-panel': postColorPanel,
    'color-roles.reset': resetColorRoles,
    'color-roles.repair': repairColorRoles,
    'color-roles.restore': restoreColorRoles,
  },
  components: [colorRoleInteractions],
  commands: [colorsCommand],
} satisfies WorkerFeature;
