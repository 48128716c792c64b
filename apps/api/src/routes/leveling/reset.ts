import { routes } from '@spacecadet/contract';
import { levelingResetDone } from '@spacecadet/core';
import type { FastifyInstance } from 'fastify';
import { deleteLevelingRows, deleteRewardDiscordRoles } from '../../services/leveling/reset.ts';
import { resetLevelingSettings, settingsSummary } from '../../services/leveling/settings.ts';
import { defineRoute } from '../define.ts';

/** The two resets of the Leveling page: the settings only, or everything leveling stores. */
export function registerLevelingResetRoutes(app: FastifyInstance): void {
  const { db } = app.services;

  // Every setting goes back to its default, the new ones too, and leveling is off.
  defineRoute(app, routes.resetLevelingConfig, async ({ params, requester, request, history }) => {
    const { before, after } = await resetLevelingSettings(app, params.guildId, requester, request);
    history.state(
      'leveling:settings',
      before,
      after,
      settingsSummary('Reset the leveling settings', before, after),
    );
    return after;
  });

  // "This deletes users, roles, and boosts": the rows, then (best effort) the Discord roles the
  // reward roles created. A Discord role that cannot be deleted is logged and left for the admin.
  // All of it is kept in the entry first: its undo puts the rows back (restore-leveling.ts).
  defineRoute(app, routes.resetLevelingAll, async ({ params, request, history }) => {
    const guildId = params.guildId;
    const { snapshot, deletedRoles } = await deleteLevelingRows(db, guildId);
    history.snapshot(
      'leveling',
      { ...snapshot },
      levelingResetDone(snapshot.members.length, snapshot.roles.length, snapshot.boosts.length),
    );
    await deleteRewardDiscordRoles(app, guildId, deletedRoles, request.log);
  });
}
