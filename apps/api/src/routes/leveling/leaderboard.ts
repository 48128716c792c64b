import { routes } from '@spacecadet/contract';
import { loadLevelCurve, loadPeriodLeaderboard } from '@spacecadet/db/queries/leveling';
import type { FastifyInstance } from 'fastify';
import { toLeaderboardMember } from '../../services/leveling/leaderboard.ts';
import { defineRoute } from '../define.ts';

/** The leveling leaderboard: a page of the guild's members by the period's XP, with level and progress. */
export function registerLevelingLeaderboardRoutes(app: FastifyInstance): void {
  const { reads } = app.services;
  defineRoute(app, routes.getLeaderboard, async ({ params, query }) => {
    // The read replica's, once it has this guild's last write (an admin's Set XP shows at once).
    const [page, curve] = await reads.read({ guildId: params.guildId }, (db) =>
      Promise.all([
        loadPeriodLeaderboard(db, params.guildId, query.period, { limit: query.limit, offset: query.offset }),
        loadLevelCurve(db, params.guildId),
      ]),
    );
    return {
      period: query.period,
      members: page.members.map((entry) => toLeaderboardMember(entry, curve)),
      total: page.total,
    };
  });
}
