import type { FastifyInstance } from 'fastify';
import { registerLevelingBoostRoutes } from './boosts.ts';
import { registerLevelingJobRoutes } from './jobs.ts';
import { registerLevelingLeaderboardRoutes } from './leaderboard.ts';
import { registerLevelingPublicRoutes } from './public.ts';
import { registerLevelingRankCardRoutes } from './rank-card.ts';
import { registerLevelingResetRoutes } from './reset.ts';
import { registerLevelingRewardRoutes } from './rewards.ts';
import { registerLevelingSeasonRoutes } from './seasons.ts';
import { registerLevelingSettingsRoutes } from './settings.ts';
import { registerLevelingXpToolRoutes } from './xp-tools.ts';

/**
 * Every leveling route but the confirmations' previews (`previews.ts`, registered with the other
 * previews), one module per resource, registered in the order they always were.
 */
export function registerLevelingRoutes(app: FastifyInstance): void {
  registerLevelingSettingsRoutes(app);
  registerLevelingJobRoutes(app);
  registerLevelingResetRoutes(app);
  registerLevelingRewardRoutes(app);
  registerLevelingBoostRoutes(app);
  registerLevelingLeaderboardRoutes(app);
  registerLevelingXpToolRoutes(app);
  registerLevelingPublicRoutes(app);
  registerLevelingRankCardRoutes(app);
  registerLevelingSeasonRoutes(app);
}
