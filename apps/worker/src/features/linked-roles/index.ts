import type { WorkerFeature } from '../feature.ts';
import { publishLinkedRolesMetadata } from './metadata.ts';
import { pushLinkedRoles } from './push.ts';
import { linkedRolesPushSchedule } from './schedule.ts';

/**
 * Levels in Discord's Linked Roles: the `level` and `xp` metadata are published at start, and a
 * linked member's values are pushed (with their own token) after each level change.
 */
export const linkedRolesFeature = {
  name: 'linked-roles',
  jobs: { 'linked-roles.push': pushLinkedRoles },
  schedules: [linkedRolesPushSchedule],
  start: publishLinkedRolesMetadata,
} satisfies WorkerFeature;
