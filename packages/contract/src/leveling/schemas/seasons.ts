import { z } from 'zod';
import { GuildParams, Snowflake, Timestamp } from '../../common.ts';
import { NOT_BLANK, SerialIdParam, storableText } from '../../inputs.ts';
import { unknownKeys } from './fields.ts';

/**
 * Seasons: ending one archives every member's XP and level (its top 10 named) and starts XP
 * and levels again at 0. The hall of fame lists past seasons.
 */

export const SEASON_NAME_MAX = 100;
/** How many of a season's members the hall of fame names. */
export const SEASON_TOP = 10;

/** One of a season's top members as they stood when it ended. */
export const SeasonStanding = z
  .object({
    user_id: Snowflake,
    username: z.string().nullable(),
    avatar: z.string().nullable(),
    xp: z.number().int().min(0),
    level: z.number().int().min(0),
    rank: z.number().int().min(1),
  })
  .meta({ id: 'SeasonStanding' });
export type SeasonStanding = z.infer<typeof SeasonStanding>;

export const Season = z
  .object({
    id: z.number().int(),
    name: z.string(),
    /** When the season began: the end of the one before, or the first XP ever earned. */
    started_at: Timestamp.nullable(),
    ended_at: Timestamp,
    /** Whether members kept their reward roles when it ended. */
    keep_rewards: z.boolean(),
    /** Members archived with XP. */
    members: z.number().int().min(0),
    /** Ended by the schedule rather than an admin. */
    automatic: z.boolean(),
    top: z.array(SeasonStanding).max(SEASON_TOP),
  })
  .meta({ id: 'Season' });
export type Season = z.infer<typeof Season>;

export const SeasonList = z
  .object({
    /** When the current season began (null: no season has ended yet). */
    current_started_at: Timestamp.nullable(),
    /** When the schedule ends the current season (null: no schedule). */
    next_end_at: Timestamp.nullable(),
    seasons: z.array(Season),
  })
  .meta({ id: 'SeasonList' });
export type SeasonList = z.infer<typeof SeasonList>;

const SEASON_BODY_MESSAGE = 'Send { name, keep_rewards? } to end the season';

export const EndSeasonBody = z
  .strictObject(
    {
      name: storableText({ error: 'name must be text' })
        .regex(NOT_BLANK, 'Name the season that ends')
        .trim()
        .min(1, 'Name the season that ends')
        .max(SEASON_NAME_MAX, `A season name is at most ${SEASON_NAME_MAX} characters`),
      keep_rewards: z.boolean({ error: 'keep_rewards must be true or false' }).default(false),
    },
    { error: unknownKeys(SEASON_BODY_MESSAGE) },
  )
  .meta({ id: 'EndSeasonBody' });
export type EndSeasonBody = z.infer<typeof EndSeasonBody>;

export const SeasonParams = GuildParams.extend({ seasonId: SerialIdParam });
