import {
  dailyOverviewGuilds,
  loadLevelingSettings,
  type StoredLevelingSettings,
  wantsDailyOverview,
} from '@spacecadet/db/queries/leveling';
import type { WorkerDeps } from '../../deps.ts';
import type { FeatureSchedule } from '../../jobs/schedules.ts';
import { ensureGuildSchedule, removeGuildSchedule } from '../../jobs/schedules.ts';

/**
 * The daily overview at midnight UTC, for every guild with leveling on and a daily overview
 * channel set.
 */
export const dailyOverviewSchedule: FeatureSchedule = {
  job: 'leveling.daily-overview',
  repeat: { pattern: '0 0 * * *' },
  guilds: (deps, shards) => dailyOverviewGuilds(deps.db, shards),
};

/** Makes the guild's overview scheduler exist, or not, as these settings want. */
export async function matchDailyOverviewSchedule(
  deps: WorkerDeps,
  guildId: string,
  settings: StoredLevelingSettings,
): Promise<void> {
  if (wantsDailyOverview(settings)) await ensureGuildSchedule(deps, dailyOverviewSchedule, guildId);
  else await removeGuildSchedule(deps, dailyOverviewSchedule, guildId);
}

/**
 * Creates or removes the guild's daily overview scheduler to match its leveling settings now:
 * called when Postgres announces a change of the guild's leveling setup (a reset or a cleared
 * channel removes it) and by every leveling job.
 */
export async function syncDailyOverviewSchedule(deps: WorkerDeps, guildId: string): Promise<void> {
  await matchDailyOverviewSchedule(deps, guildId, await loadLevelingSettings(deps.db, guildId));
}
