import { z } from 'zod';
import { queryInt, Snowflake } from '../../common.ts';
import { INT4_MAX } from '../../inputs.ts';
import { LeaderboardVisibility } from './settings.ts';

/**
 * The leaderboard: its members, a page of them (query and answer), and the public page.
 */

/** One member of the leveling leaderboard: their stored name and avatar, XP, level and progress. */
export const LeaderboardMember = z
  .object({
    user_id: Snowflake,
    /** The name the member had when they last earned XP; null when never seen. */
    username: z.string().nullable(),
    /** Discord avatar hash (CDN `avatars/{user_id}/{avatar}.png`); null for the default avatar. */
    avatar: z.string().nullable(),
    /** The board's period's XP. */
    xp: z.number().int().min(0),
    /** The member's current XP (this season's), which makes the level: what Set XP replaces. */
    level_xp: z.number().int().min(0),
    level: z.number().int().min(0),
    /** 1-based position by XP; ties are ordered by user id. */
    rank: z.number().int().min(1),
    /** XP earned since the current level was reached. */
    xp_into_level: z.number().int().min(0),
    /** XP the current level takes in all (xp_into_level out of xp_for_next). */
    xp_for_next: z.number().int().min(0),
  })
  .meta({ id: 'LeaderboardMember' });
export type LeaderboardMember = z.infer<typeof LeaderboardMember>;

/**
 * Which XP a board ranks: `all` every XP a member earned (this season's and every archived
 * season's), `season` the current season's (the XP that makes the level), `week` and `month`
 * what was earned in this UTC week (from Monday) or calendar month, from the daily rows. On every
 * board `xp` is the period's XP; `level` and the progress are the member's current ones.
 */
export const LEADERBOARD_PERIODS = ['all', 'season', 'week', 'month'] as const;
export const LeaderboardPeriod = z.enum(LEADERBOARD_PERIODS, {
  error: 'period must be one of all, season, week or month',
});
export type LeaderboardPeriod = z.infer<typeof LeaderboardPeriod>;

export const Leaderboard = z
  .object({
    period: LeaderboardPeriod,
    members: z.array(LeaderboardMember),
    /** Every ranked member (members who left are not ranked). */
    total: z.number().int().min(0),
  })
  .meta({ id: 'Leaderboard' });
export type Leaderboard = z.infer<typeof Leaderboard>;

export const LEADERBOARD_LIMIT_DEFAULT = 25;
export const LEADERBOARD_LIMIT_MAX = 100;
export const LeaderboardQuery = z.object({
  limit: queryInt('limit', 1, LEADERBOARD_LIMIT_MAX, LEADERBOARD_LIMIT_DEFAULT),
  offset: queryInt('offset', 0, INT4_MAX, 0),
  period: LeaderboardPeriod.default('all'),
});

/** The public leaderboard page: the server's name and icon and a page of its ranked members. */
export const PublicLeaderboard = z
  .object({
    guild: z.object({ id: Snowflake, name: z.string(), icon: z.string().nullable() }),
    visibility: LeaderboardVisibility,
    period: LeaderboardPeriod,
    members: z.array(LeaderboardMember),
    total: z.number().int().min(0),
  })
  .meta({ id: 'PublicLeaderboard' });
export type PublicLeaderboard = z.infer<typeof PublicLeaderboard>;
