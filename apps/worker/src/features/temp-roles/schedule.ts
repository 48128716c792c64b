import { guildsWithOpenTempRoles } from '@spacecadet/db/queries/temp-roles';
import type { FeatureSchedule } from '../../jobs/schedules.ts';

/**
 * How often each guild with a temporary role not ended runs the sweep: gives what the API
 * recorded and takes back what is due, read from Postgres. The delayed run at `expires_at` is
 * exact; this is what keeps expiry within a minute when Redis lost that run (its schedulers
 * come back within SCHEDULE_CHECK_MS).
 */
export const TEMP_ROLES_SWEEP_MS = 20_000;

export const tempRolesSweep: FeatureSchedule = {
  job: 'temp-roles.expire',
  repeat: { everyMs: TEMP_ROLES_SWEEP_MS },
  guilds: (deps) => guildsWithOpenTempRoles(deps.db),
};
