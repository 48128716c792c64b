import { linkedGuilds } from '@spacecadet/db/queries/role-connections';
import type { FeatureSchedule } from '../../jobs/schedules.ts';

/** Every few seconds for each server a linked member shows: a due push waits at most this long. */
export const LINKED_ROLES_PUSH_EVERY_MS = 10_000;

/** The push every LINKED_ROLES_PUSH_EVERY_MS of every server a linked member shows. */
export const linkedRolesPushSchedule: FeatureSchedule = {
  job: 'linked-roles.push',
  repeat: { everyMs: LINKED_ROLES_PUSH_EVERY_MS },
  guilds: (deps, shards) => linkedGuilds(deps.db, shards),
};
