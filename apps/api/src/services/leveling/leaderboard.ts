import type { LeaderboardMember, LevelCurve } from '@spacecadet/contract';
import { levelProgress } from '@spacecadet/core';
import type { LeaderboardEntry } from '@spacecadet/db/queries/leveling';

/**
 * The leaderboard, for admins and on the public page: a member's API shape, and what the public
 * page answers when the server's admins do not let the reader see it.
 */

export const LEADERBOARD_NOT_PUBLIC_MESSAGE = "This server's leaderboard is not public.";
export const LEADERBOARD_SIGN_IN_MESSAGE =
  "Sign in with Discord to see this server's leaderboard: it is open to the server's members only.";
export const LEADERBOARD_MEMBERS_ONLY_MESSAGE =
  "This server's leaderboard is open to its members only, and you are not a member of it.";
/** An open leaderboard may be kept by browsers and shared caches this long. */
export const PUBLIC_LEADERBOARD_MAX_AGE_SEC = 30;

/** A member of the board, their level and progress under the server's curve. */
export function toLeaderboardMember(entry: LeaderboardEntry, curve: LevelCurve): LeaderboardMember {
  const progress = levelProgress(entry.levelXp, curve);
  return {
    user_id: entry.userId,
    username: entry.username,
    avatar: entry.avatar,
    xp: entry.xp,
    level_xp: entry.levelXp,
    level: progress.level,
    rank: entry.rank,
    xp_into_level: progress.xpIntoLevel,
    xp_for_next: progress.xpForNext,
  };
}
