import { routes } from '@spacecadet/contract';
import { seasonEndSummary } from '@spacecadet/core';
import type { FastifyInstance } from 'fastify';
import { endSeasonNow, listSeasons, toSeason } from '../../services/leveling/seasons.ts';
import { defineRoute } from '../define.ts';

/** Seasons: the hall of fame, and ending the current season (undone from its archive). */
export function registerLevelingSeasonRoutes(app: FastifyInstance): void {
  defineRoute(app, routes.getSeasons, async ({ params }) => listSeasons(app, params.guildId));

  // The archive is the season's own rows: the entry keeps which season, its undo reads them.
  defineRoute(app, routes.endSeason, async ({ params, body, requester, request, history }) => {
    const season = await endSeasonNow(app, params.guildId, body, requester, request);
    history.snapshot('leveling:season', { season_id: season.id }, seasonEndSummary(season));
    return toSeason(season);
  });
}
