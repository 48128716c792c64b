import type { JobResult } from '@spacecadet/contract';
import { guildsWithStickyRoles, purgeStickyRoles } from '@spacecadet/db/queries/sticky-roles';
import type { WorkerDeps } from '../../deps.ts';
import type { FeatureSchedule } from '../../jobs/schedules.ts';
import type { JobContext } from '../../jobs/types.ts';

const DAY_MS = 24 * 3600_000;

/** How long a leaver's sticky roles are kept: the data retention (DATA_RETENTION_DAYS). */
export function retentionMs(deps: WorkerDeps): number {
  return deps.config.dataRetentionDays * DAY_MS;
}

/** Daily, for every server with stored sticky roles: deletes those older than the retention. */
export const stickyPurgeSchedule: FeatureSchedule = {
  job: 'auto-roles.purge-sticky',
  repeat: { pattern: '53 4 * * *' },
  guilds: (deps, shards) => guildsWithStickyRoles(deps.db, shards),
};

/** `auto-roles.purge-sticky`: forgets the roles of members who left before the retention. */
export async function purgeSticky(context: JobContext): Promise<JobResult> {
  const { deps, payload } = context;
  const before = new Date(Date.now() - retentionMs(deps));
  const deleted = await purgeStickyRoles(deps.db, payload.guild_id, before);
  await context.progress(100);
  return { ok: true, summary: `Forgot the sticky roles of ${deleted} old leaver(s).`, deleted };
}
