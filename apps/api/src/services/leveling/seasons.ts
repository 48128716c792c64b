import type { EndSeasonBody, JobName, PutLevelingBody, Season, SeasonList } from '@spacecadet/contract';
import { addMonths } from '@spacecadet/core';
import { loadLevelingSettings, type StoredLevelingSettings } from '@spacecadet/db/queries/leveling';
import { endSeason, loadSeasons } from '@spacecadet/db/queries/leveling/seasons';
import type { LevelingSeasonRow } from '@spacecadet/db/schema';
import { guildJobPending } from '@spacecadet/queue/guild-jobs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';
import type { JobRequester } from '../jobs.ts';
import { queueApplyRewards } from './jobs.ts';

/**
 * Seasons: an admin ends the current one (every member's XP and level archived under its
 * name, XP and levels start again at 0), the hall of fame lists the past ones. The writes are
 * the db's `queries/leveling/seasons.ts`, shared with the worker's schedule.
 */

/** The jobs that rewrite or delete many members' XP: a season does not end while one runs. */
const XP_JOBS: readonly JobName[] = ['leveling.prune-leavers', 'leveling.recompute-levels', 'leveling.decay'];

export const xpJobRunningMessage = (what: string) =>
  `A job that changes members' XP (Prune leavers, a level recompute or the XP decay) is running: ${what} once it is done.`;

export function toSeason(row: LevelingSeasonRow): Season {
  return {
    id: row.id,
    name: row.name,
    started_at: row.startedAt?.toISOString() ?? null,
    ended_at: row.endedAt.toISOString(),
    keep_rewards: row.keepRewards,
    members: row.members,
    automatic: row.automatic,
    top: row.top,
  };
}

/**
 * 409 while a job that rewrites members' XP runs for the guild (its writes would mix with
 * the archive). A queue that cannot be asked runs no job either: the change goes on.
 */
export async function refuseWhileXpJobRuns(
  app: FastifyInstance,
  guildId: string,
  request: FastifyRequest,
  what: string,
): Promise<void> {
  for (const name of XP_JOBS) {
    let running = false;
    try {
      running = await guildJobPending(app.services.queue, name, guildId);
    } catch (error) {
      request.log.warn({ err: error, guildId, job: name }, 'job state not read before a season change');
      return;
    }
    if (running) throw new ApiError('conflict', xpJobRunningMessage(what));
  }
}

/**
 * Ends the guild's current season now. Without `keep_rewards` the archived members' rewards are
 * due, so Apply Rewards takes the reward roles of their old level away (a courtesy if the queue
 * is down: the next XP tool or Sync Roles applies them).
 */
export async function endSeasonNow(
  app: FastifyInstance,
  guildId: string,
  body: EndSeasonBody,
  requester: JobRequester,
  request: FastifyRequest,
): Promise<LevelingSeasonRow> {
  await refuseWhileXpJobRuns(app, guildId, request, 'end the season');
  const season = await endSeason(app.services.db, guildId, {
    name: body.name,
    keepRewards: body.keep_rewards,
    automatic: false,
  });
  if (!season) throw new Error('The season did not end');
  if (!body.keep_rewards && season.members > 0) await queueApplyRewards(app, guildId, requester, request);
  return season;
}

/** The hall of fame: the current season's start, the schedule's next end, past seasons. */
export async function listSeasons(app: FastifyInstance, guildId: string): Promise<SeasonList> {
  // The read replica's, once it has the guild's last write (an End season shows at once).
  const [settings, seasons] = await app.services.reads.read({ guildId }, (db) =>
    Promise.all([loadLevelingSettings(db, guildId), loadSeasons(db, guildId)]),
  );
  const started = settings.seasonStartedAt;
  const months = settings.seasonMonths;
  return {
    current_started_at: started?.toISOString() ?? null,
    next_end_at: started && months ? addMonths(started, months).toISOString() : null,
    seasons: seasons.map(toSeason),
  };
}

/**
 * The schedule counts from the current season's start. One set (or shortened) while that start
 * is unknown, or so long ago that the season would end at once, counts from now instead: an
 * admin turning the schedule on never sees a season end the same hour.
 */
export function seasonScheduleChanges(
  body: PutLevelingBody,
  stored: StoredLevelingSettings,
  now: Date,
): Partial<StoredLevelingSettings> {
  const keep = body.season_keep_rewards === undefined ? {} : { seasonKeepRewards: body.season_keep_rewards };
  if (body.season_months === undefined) return keep;
  const months = body.season_months;
  const started = stored.seasonStartedAt;
  const restart =
    months !== null &&
    months !== stored.seasonMonths &&
    (started === null || addMonths(started, months).getTime() <= now.getTime());
  return { ...keep, seasonMonths: months, ...(restart ? { seasonStartedAt: now } : {}) };
}
