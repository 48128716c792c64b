import { HISTORY_ACTIONS, routes } from '@spacecadet/contract';
import { getWelcomeSettings } from '@spacecadet/db/queries/welcome';
import type { FastifyInstance } from 'fastify';
import { welcomeSummary, writeWelcomeSettings } from '../services/welcome.ts';
import { defineRoute } from './define.ts';

/** The Welcome page's settings: welcome, goodbye, auto-roles and sticky roles. */
export function registerWelcomeRoutes(app: FastifyInstance): void {
  const { db } = app.services;

  defineRoute(app, routes.getWelcome, ({ params }) => getWelcomeSettings(db, params.guildId));

  defineRoute(app, routes.putWelcome, async ({ params, body, history }) => {
    const { before, after } = await writeWelcomeSettings(app, params.guildId, body);
    const label = HISTORY_ACTIONS['welcome.update'].label;
    history.state('welcome:settings', before, after, welcomeSummary(label, before, after));
    return after;
  });
}
