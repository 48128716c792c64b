import type { JobResult } from '@spacecadet/contract';
import { addMonths, seasonEndSummary } from '@spacecadet/core';
import { recordHistoryEntry } from '@spacecadet/db/queries/history';
import { loadLevelingSettings, type StoredLevelingSettings } from '@spacecadet/db/queries/leveling';
import {
  countSeasons,
  endSeason,
  seasonScheduleGuilds,
  startSeasonClock,
} from '@spacecadet/db/queries/leveling/seasons';
import type { WorkerDeps } from '../../deps.ts';
import type { FeatureSchedule } from '../../jobs/schedules.ts';
import { ensureGuildSchedule, removeGuildSchedule } from '../../jobs/schedules.ts';
import type { JobContext } from '../../jobs/types.ts';
import { botActor } from '../history/record-command.ts';
import { applyDueRewards } from './apply-rewards.ts';

/**
 * Seasons that end by themselves: where an admin set `season_months`, an hourly check ends the
 * current season once that many months have passed since it began, as an admin's End season
 * does (db `endSeason`), named "Season <n>", rewards kept or not as `season_keep_rewards` says,
 * with a History entry that undoes it.
 */

/** The check, at ten past every hour, for every server with leveling on and a schedule set. */
export const seasonEndSchedule: FeatureSchedule = {
  job: 'leveling.season-end',
  repeat: { pattern: '10 * * * *' },
  guilds: (deps, shards) => seasonScheduleGuilds(deps.db, shards),
};

/** Makes the guild's season check exist, or not, as these settings want. */
export async function matchSeasonSchedule(
  deps: WorkerDeps,
  guildId: string,
  settings: StoredLevelingSettings,
): Promise<void> {
  if (settings.enabled && settings.seasonMonths !== null) {
    await ensureGuildSchedule(deps, seasonEndSchedule, guildId);
  } else await removeGuildSchedule(deps, seasonEndSchedule, guildId);
}

/**
 * `leveling.season-end`: ends the guild's season if the schedule says it is due. Idempotent:
 * the end claims the season's start (`ifStartedAt`), so a second run of the same hour, or a
 * retry after the end committed, finds the season moved on and ends nothing; the History entry
 * is written in the end's own transaction, so there is never an end without its undo.
 */
export async function endDueSeason(context: JobContext): Promise<JobResult> {
  const { deps } = context;
  const guildId = context.payload.guild_id;
  const settings = await loadLevelingSettings(deps.db, guildId);
  await matchSeasonSchedule(deps, guildId, settings);
  const months = settings.seasonMonths;
  if (!settings.enabled || months === null) {
    return { ok: true, summary: 'Seasons end only by hand here: nothing ended.' };
  }
  const startedAt = settings.seasonStartedAt ?? (await startSeasonClock(deps.db, guildId));
  if (!startedAt) return { ok: true, summary: 'The season has no start yet: nothing ended.' };
  const dueAt = addMonths(startedAt, months);
  if (dueAt.getTime() > Date.now()) {
    return { ok: true, summary: `The season ends by itself on ${dueAt.toISOString().slice(0, 10)}.` };
  }
  const name = `Season ${(await countSeasons(deps.db, guildId)) + 1}`;
  const keepRewards = settings.seasonKeepRewards;
  const season = await endSeason(deps.db, guildId, {
    name,
    keepRewards,
    automatic: true,
    ifStartedAt: startedAt,
    alongside: async (tx, ended) => {
      await recordHistoryEntry(tx, {
        guildId,
        actor: botActor(deps),
        action: 'leveling.season_end',
        noted: {
          undoKind: 'snapshot',
          subject: 'leveling:season',
          snapshot: { season_id: ended.id },
          summary: seasonEndSummary(ended),
        },
      });
    },
  });
  if (!season) return { ok: true, summary: 'The season had already ended: nothing ended.' };
  const summary = `${seasonEndSummary(season)}.`;
  if (keepRewards || season.members === 0) return { ok: true, summary };
  const rewards = await applyDueRewards(context);
  return { ...rewards, summary: `${summary} ${rewards.summary}`.trim() };
}
