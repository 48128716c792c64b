import { routes } from '@spacecadet/contract';
import { colorResetRoles } from '@spacecadet/db/queries/color-snapshots';
import { COLOR_PICK_SCOPE, personalityPickScope } from '@spacecadet/db/queries/member-picks';
import { personalityResetRoles } from '@spacecadet/db/queries/personality-snapshots';
import type { FastifyInstance } from 'fastify';
import { withColorTables } from '../services/color-roles.ts';
import { rolesImpact } from '../services/reset-impact.ts';
import { defineRoute } from './define.ts';

/**
 * What Reset Color Roles and Reset Personality will delete, for their confirmations: the roles
 * the reset job deletes (the same db function the job reads), how many members hold one, and
 * which role menus, reaction lists, rewards, no-XP roles and boosts use them (`used_by`).
 */
export function registerResetPreviewRoutes(app: FastifyInstance): void {
  const { db } = app.services;

  defineRoute(app, routes.previewColorReset, async ({ params }) => {
    const roles = await withColorTables(() => colorResetRoles(db, params.guildId));
    return rolesImpact(
      app.services,
      params.guildId,
      roles.map((role) => role.roleId),
      COLOR_PICK_SCOPE,
    );
  });

  defineRoute(app, routes.previewPersonalityReset, async ({ params }) => {
    const roles = await personalityResetRoles(db, params.guildId);
    return rolesImpact(
      app.services,
      params.guildId,
      roles.map((role) => role.roleId),
      personalityPickScope(''),
    );
  });
}
