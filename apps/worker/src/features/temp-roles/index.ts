import type { WorkerFeature } from '../feature.ts';
import { tempRoleCommand } from './command.ts';
import { tempRoleEvents } from './events.ts';
import { settleTempRoles } from './jobs.ts';
import { tempRolesSweep } from './schedule.ts';

/**
 * Temporary roles: given from the dashboard (the API records them, `temp-roles.grant` gives
 * them), by `/temprole`, or by a temporary role-menu option (`menu.ts`), and taken back when due
 * by a delayed `temp-roles.expire` at each expiry and by the guild's sweep of Postgres
 * (`schedule.ts`), so a lost Redis or a restart cannot keep a role on. A role removed by hand
 * ends its row; one that expired while its member was away is taken back on their return
 * (`events.ts`). Every grant and end is in History.
 */
export const tempRolesFeature = {
  name: 'temp-roles',
  jobs: {
    'temp-roles.grant': settleTempRoles,
    'temp-roles.expire': settleTempRoles,
  },
  commands: [tempRoleCommand],
  events: tempRoleEvents,
  schedules: [tempRolesSweep],
} satisfies WorkerFeature;
