import { PERSONALITY_REFRESH_INTERVAL_MS } from '@spacecadet/core';
import { configuredPersonalityGuilds } from '@spacecadet/db/queries/personality-roles';
import type { WorkerDeps } from '../../deps.ts';
import type { FeatureSchedule } from '../../jobs/schedules.ts';
import { ensureGuildSchedule, removeGuildSchedule } from '../../jobs/schedules.ts';

/** The refresh every 5 minutes of every guild whose personality roles are set up. */
export const personalityRefreshSchedule: FeatureSchedule = {
  job: 'personality-roles.refresh',
  repeat: { everyMs: PERSONALITY_REFRESH_INTERVAL_MS },
  guilds: (deps, shards) => configuredPersonalityGuilds(deps.db, shards),
};

/** A job that found the guild set up (or not) makes its scheduler exist (or not) to match. */
export async function matchRefreshSchedule(
  deps: WorkerDeps,
  guildId: string,
  configured: boolean,
): Promise<void> {
  if (configured) await ensureGuildSchedule(deps, personalityRefreshSchedule, guildId);
  else await removeGuildSchedule(deps, personalityRefreshSchedule, guildId);
}
