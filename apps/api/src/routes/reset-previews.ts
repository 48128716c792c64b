import { type RoleUsage, routes } from '@spacecadet/contract';
import { countHolders, REACTION_LIST_MENUS, rolesResetImpact, roleUsageSummary } from '@spacecadet/core';
import { colorResetRoles, countPickHolders } from '@spacecadet/db/queries/color-snapshots';
import { COLOR_PICK_SCOPE, personalityPickScope } from '@spacecadet/db/queries/member-picks';
import { personalityResetRoles } from '@spacecadet/db/queries/personality-snapshots';
import { roleReferences } from '@spacecadet/db/queries/role-references';
import type { FastifyInstance } from 'fastify';
import { DiscordError } from '../services/discord.ts';
import { readColorTables } from './color-roles.ts';
import { defineRoute } from './define.ts';

/** Said after the sentence when Discord hid the member list and the recorded picks were counted. */
export const COUNTED_FROM_PICKS =
  "(Discord did not let me read the member list, so this counts the members who picked on the bot's panels.)";

/**
 * What Reset Color Roles and Reset Personality will delete, for their confirmations: the roles
 * the reset job deletes (the same db function the job reads), how many members hold one, and
 * which role menus, reaction lists, rewards, no-XP roles and boosts use them (`used_by`).
 */
export function registerResetPreviewRoutes(app: FastifyInstance): void {
  const { db } = app.services;

  /**
   * Members holding any of the roles, from the member list; on Discord's 403 (no Server Members
   * intent) the members with a recorded pick in the feature's scopes instead.
   */
  const impact = async (guildId: string, roleIds: readonly string[], scopePrefix: string) => {
    let members: number;
    let counted = true;
    if (roleIds.length === 0) members = 0;
    else {
      try {
        const ids = new Set(roleIds);
        members = 0;
        for await (const page of app.services.discord.guildMemberPages(guildId)) {
          members += countHolders(ids, page);
        }
      } catch (error) {
        if (!(error instanceof DiscordError && error.status === 403)) throw error;
        members = await countPickHolders(db, guildId, scopePrefix);
        counted = false;
      }
    }
    const summary = rolesResetImpact(roleIds.length, members);
    const usedBy = await roleUsage(guildId, roleIds);
    return {
      summary: counted ? summary : `${summary} ${COUNTED_FROM_PICKS}`,
      roles: roleIds.length,
      members,
      ...(usedBy ? { used_by: usedBy } : {}),
    };
  };

  /** What else uses the roles (the undo moves it to the recreated roles); null: nothing. */
  const roleUsage = async (guildId: string, roleIds: readonly string[]): Promise<RoleUsage | null> => {
    const references = await roleReferences(db, guildId, roleIds);
    const menus = references.menus.map((menu) => ({
      id: menu.id,
      name: menu.listKey ? REACTION_LIST_MENUS[menu.listKey].title : menu.title || 'Role menu',
      reactionList: menu.listKey !== null,
    }));
    const summary = roleUsageSummary({ ...references, menus });
    if (!summary) return null;
    return {
      summary,
      menus: menus.map(({ id, name }) => ({ id, name })),
      reward_roles: references.rewardRoles,
      no_xp_roles: references.noXpRoles,
      boosts: references.boosts,
    };
  };

  defineRoute(app, routes.previewColorReset, async ({ params }) => {
    const roles = await readColorTables(() => colorResetRoles(db, params.guildId));
    return impact(
      params.guildId,
      roles.map((role) => role.roleId),
      COLOR_PICK_SCOPE,
    );
  });

  defineRoute(app, routes.previewPersonalityReset, async ({ params }) => {
    const roles = await personalityResetRoles(db, params.guildId);
    return impact(
      params.guildId,
      roles.map((role) => role.roleId),
      personalityPickScope(''),
    );
  });
}
