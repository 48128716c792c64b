import { guildsNeedingTempRoleSweep } from '@spacecadet/db/queries/temp-roles';
import { type FeatureSchedule, SCHEDULE_CHECK_MS } from '../../jobs/schedules.ts';

/**
 * How often the sweep runs for a guild that needs it: gives what the API recorded and takes back
 * what is due, read from Postgres. The delayed run at `expires_at` is exact; the sweep is what
 * takes a role back within seconds to a minute when Redis lost that run (its schedulers come
 * back within SCHEDULE_CHECK_MS).
 */
export const TEMP_ROLES_SWEEP_MS = 20_000;

/**
 * A guild gets its sweep this long before its next temporary role ends (the schedulers are
 * matched to Postgres every SCHEDULE_CHECK_MS, well within it), and while it has one to give.
 */
export const TEMP_ROLES_SWEEP_AHEAD_MS = 5 * SCHEDULE_CHECK_MS;

export const tempRolesSweep: FeatureSchedule = {
  job: 'temp-roles.expire',
  repeat: { everyMs: TEMP_ROLES_SWEEP_MS },
  guilds: (deps, shards) =>
    guildsNeedingTempRoleSweep(deps.db, new Date(Date.now() + TEMP_ROLES_SWEEP_AHEAD_MS), shards),
  // Which guilds need it changes with time (an end coming near), not only with a stored change.
  timeBound: true,
};
