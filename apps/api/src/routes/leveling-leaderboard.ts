import { type LeaderboardMember, routes } from '@spacecadet/contract';
import { levelProgress } from '@spacecadet/core';
import { type LeaderboardEntry, loadLeaderboard } from '@spacecadet/db/queries/leveling';
import type { FastifyInstance } from 'fastify';
import { defineRoute } from './define.ts';

export function toLeaderboardMember(entry: LeaderboardEntry): LeaderboardMember {
  const progress = levelProgress(entry.xp);
  return {
    user_id: entry.userId,
    username: entry.username,
    avatar: entry.avatar,
    xp: entry.xp,
    level: progress.level,
    rank: entry.rank,
    xp_into_level: progress.xpIntoLevel,
    xp_for_next: progress.xpForNext,
  };
}

/** The leveling leaderboard: a page of the guild's members by XP, with level and progress. */
export function registerLevelingLeaderboardRoutes(app: FastifyInstance): void {
  const { db } = app.services;
  defineRoute(app, routes.getLeaderboard, async ({ params, query }) => {
    const page = await loadLeaderboard(db, params.guildId, { limit: query.limit, offset: query.offset });
    return { members: page.members.map(toLeaderboardMember), total: page.total };
  });
}
