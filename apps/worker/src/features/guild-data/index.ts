import type { JobResult } from '@spacecadet/contract';
import type { JobContext } from '../../jobs/types.ts';
import type { WorkerFeature } from '../feature.ts';
import { guildPurgeSchedule, purgeGuild, retentionEvents } from './retention.ts';
import { wipeGuild } from './wipe.ts';

/** "1 cached key", "0 schedules": the summary the owner reads under the progress bar. */
const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** `guild-data.delete`: the owner asked to delete everything stored for the server (`wipeGuild`). */
export async function deleteGuildData(context: JobContext): Promise<JobResult> {
  const wiped = await wipeGuild(context.deps, context.payload.guild_id, context.jobId);
  await context.progress(100);
  return {
    ok: true,
    summary: `Deleted: ${count(wiped.rows, 'stored row')}, ${count(wiped.keys, 'cached key')}, ${count(wiped.schedulers, 'schedule')} and ${count(wiped.jobs, 'queued job')}.`,
    deleted: wiped.rows,
  };
}

/**
 * A server's data as a whole: the owner's deletion, and the retention after the bot is removed
 * (kept DATA_RETENTION_DAYS so a re-add restores everything, then purged by a daily job).
 */
export const guildDataFeature = {
  name: 'guild-data',
  jobs: { 'guild-data.delete': deleteGuildData, 'guild-data.purge': purgeGuild },
  events: retentionEvents,
  schedules: [guildPurgeSchedule],
} satisfies WorkerFeature;
