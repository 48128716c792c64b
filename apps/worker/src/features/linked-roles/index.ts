import { linkedGuilds } from '@spacecadet/db/queries/role-connections';
import type { FeatureSchedule } from '../../jobs/schedules.ts';
import type { WorkerFeature } from '../feature.ts';
import { publishLinkedRolesMetadata } from './metadata.ts';
import { pushLinkedRoles } from './push.ts';

/** Every few seconds for each server a linked member shows: a due push waits at most this long. */
export const LINKED_ROLES_PUSH_EVERY_MS = 10_000;

const pushSchedule: FeatureSchedule = {
  job: 'linked-roles.push',
  repeat: { everyMs: LINKED_ROLES_PUSH_EVERY_MS },
  guilds: (deps, shards) => linkedGuilds(deps.db, shards),
};

/**
 * Levels in Discord's Linked Roles: the `level` and `xp` metadata are published at start, and a
 * linked member's values are pushed (with their own token) after each level change.
 */
export const linkedRolesFeature = {
  name: 'linked-roles',
  jobs: { 'linked-roles.push': pushLinkedRoles },
  schedules: [pushSchedule],
  start: publishLinkedRolesMetadata,
} satisfies WorkerFeature;
