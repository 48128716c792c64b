import type { WorkerFeature } from '../feature.ts';
import { autoRolesEvents } from './events.ts';
import { giveJoinRoles } from './give.ts';
import { purgeSticky, stickyPurgeSchedule } from './retention.ts';

/**
 * Welcome roles (welcome settings): auto-roles for humans and bots who join, after the delay and
 * after Membership Screening / Onboarding, and sticky roles given back to members who rejoin
 * within the data retention.
 */
export const autoRolesFeature = {
  name: 'auto-roles',
  jobs: { 'auto-roles.give': giveJoinRoles, 'auto-roles.purge-sticky': purgeSticky },
  events: autoRolesEvents,
  schedules: [stickyPurgeSchedule],
} satisfies WorkerFeature;
