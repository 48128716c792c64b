import { type GuildJobPayload, JOB_RETENTION, jobSchedulerIdFor } from '@spacecadet/contract';
import type { WorkerDeps } from '../deps.ts';
import type { FeatureSchedule } from '../features/feature.ts';

/** Scheduled runs retry like the API's jobs: a Discord hiccup should not skip a whole period. */
const SCHEDULED_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: JOB_RETENTION.completed,
  removeOnFail: JOB_RETENTION.failed,
} as const;

function repeatOptions(schedule: FeatureSchedule): { every?: number; pattern?: string; tz?: string } {
  return 'everyMs' in schedule.repeat
    ? { every: schedule.repeat.everyMs }
    : { pattern: schedule.repeat.pattern, tz: 'UTC' };
}

/** True when a stored scheduler already repeats as the schedule declares. */
function repeatsAsDeclared(
  current: { every?: number | null; pattern?: string | null } | undefined,
  schedule: FeatureSchedule,
): boolean {
  const repeat = repeatOptions(schedule);
  return (
    current !== undefined &&
    (current.every ?? undefined) === repeat.every &&
    (current.pattern ?? undefined) === repeat.pattern
  );
}

/**
 * Makes sure the guild has its scheduler for this schedule: one Redis read when it already
 * repeats as declared (then it is left alone: upserting it again could add a run), else
 * created or updated. Creating it twice keeps one.
 */
export async function ensureGuildSchedule(
  deps: WorkerDeps,
  schedule: FeatureSchedule,
  guildId: string,
): Promise<void> {
  const id = jobSchedulerIdFor(schedule.job, guildId);
  if (repeatsAsDeclared(await deps.queue.getJobScheduler(id), schedule)) return;
  await writeGuildSchedule(deps, schedule, guildId);
}

async function writeGuildSchedule(
  deps: WorkerDeps,
  schedule: FeatureSchedule,
  guildId: string,
): Promise<void> {
  const data: GuildJobPayload = { guild_id: guildId, requested_by: null };
  await deps.queue.upsertJobScheduler(jobSchedulerIdFor(schedule.job, guildId), repeatOptions(schedule), {
    name: schedule.job,
    data,
    opts: SCHEDULED_JOB_OPTIONS,
  });
}

/** Removes the guild's scheduler for this schedule, if there is one. */
export async function removeGuildSchedule(
  deps: WorkerDeps,
  schedule: FeatureSchedule,
  guildId: string,
): Promise<void> {
  await deps.queue.removeJobScheduler(jobSchedulerIdFor(schedule.job, guildId));
}

/**
 * Makes the stored schedulers of these schedules match what each one's `guilds()` says now:
 * missing ones are created, ones of guilds that no longer need them are removed. Run at start,
 * so a change made while no worker ran (or a lost Redis) is repaired.
 */
export async function syncSchedules(
  deps: WorkerDeps,
  schedules: readonly FeatureSchedule[],
): Promise<{ created: number; removed: number }> {
  if (schedules.length === 0) return { created: 0, removed: 0 };
  const stored = new Map(
    (await deps.queue.getJobSchedulers(0, -1)).map((scheduler) => [scheduler.key, scheduler] as const),
  );
  let created = 0;
  let removed = 0;
  for (const schedule of schedules) {
    const wanted = new Set(await schedule.guilds(deps));
    for (const guildId of wanted) {
      const current = stored.get(jobSchedulerIdFor(schedule.job, guildId));
      if (repeatsAsDeclared(current, schedule)) continue;
      if (!current) created += 1;
      await writeGuildSchedule(deps, schedule, guildId);
    }
    const prefix = jobSchedulerIdFor(schedule.job, '');
    for (const key of stored.keys()) {
      if (!key.startsWith(prefix) || wanted.has(key.slice(prefix.length))) continue;
      if (await deps.queue.removeJobScheduler(key)) removed += 1;
    }
  }
  return { created, removed };
}
