import type { JobResult } from '@spacecadet/contract';
import { guildsWithHistory, pruneGuildHistory } from '@spacecadet/db/queries/history';
import type { FeatureSchedule } from '../../jobs/schedules.ts';
import type { JobContext } from '../../jobs/types.ts';
import type { WorkerFeature } from '../feature.ts';

/**
 * `history.prune`: drops what the guild's history keeps no longer (entries after 90 days, what a
 * destructive action removed after 7: `pruneGuildHistory`). Idempotent: a second run finds
 * nothing more to drop.
 */
export async function pruneHistory(context: JobContext): Promise<JobResult> {
  const pruned = await pruneGuildHistory(context.deps.db, context.payload.guild_id);
  await context.progress(100);
  return {
    ok: true,
    summary: `${pruned.deleted} old history entr${pruned.deleted === 1 ? 'y' : 'ies'} deleted; ${pruned.snapshotsDropped} undo snapshot${pruned.snapshotsDropped === 1 ? '' : 's'} expired.`,
    deleted: pruned.deleted,
  };
}

/** Daily, for every guild with history. */
export const historyPruneSchedule: FeatureSchedule = {
  job: 'history.prune',
  repeat: { pattern: '17 3 * * *' },
  guilds: (deps, shards) => guildsWithHistory(deps.db, shards),
};

/**
 * History: the API records every change and undoes it; the worker prunes what is kept no longer.
 * The undo jobs that recreate Discord roles belong to their features (`color-roles.restore`,
 * `personality-roles.restore`).
 */
export const historyFeature = {
  name: 'history',
  jobs: { 'history.prune': pruneHistory },
  schedules: [historyPruneSchedule],
} satisfies WorkerFeature;
