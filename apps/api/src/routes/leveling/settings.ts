import { routes } from '@spacecadet/contract';
import type { FastifyInstance } from 'fastify';
import { settingsSummary, writeLevelingSettings } from '../../services/leveling/settings.ts';
import { readLevelingState } from '../../services/leveling/state.ts';
import { defineRoute } from '../define.ts';

/** The Leveling page's state (settings, reward roles, boosts) and the settings' PUT. */
export function registerLevelingSettingsRoutes(app: FastifyInstance): void {
  const { db } = app.services;

  defineRoute(app, routes.getLeveling, ({ params }) => readLevelingState(db, params.guildId));

  defineRoute(app, routes.putLeveling, async ({ params, body, requester, request, history }) => {
    const { before, after } = await writeLevelingSettings(app, params.guildId, body, requester, request);
    history.state(
      'leveling:settings',
      before,
      after,
      settingsSummary('Changed the leveling settings', before, after),
    );
    return after;
  });
}
