import type { ImpactPreview, RoleUsage } from '@spacecadet/contract';
import { countHolders, REACTION_LIST_MENUS, rolesResetImpact, roleUsageSummary } from '@spacecadet/core';
import { countPickHolders } from '@spacecadet/db/queries/color-snapshots';
import { roleReferences } from '@spacecadet/db/queries/role-references';
import type { AppServices } from './container.ts';
import { DiscordError } from './discord.ts';

/**
 * What a reset of roles (Reset Color Roles, Reset Personality) will take, for its confirmation:
 * how many members hold one of the roles, and which role menus, reaction lists, rewards, no-XP
 * roles and boosts use them.
 */

/** Said after the sentence when Discord hid the member list and the recorded picks were counted. */
export const COUNTED_FROM_PICKS =
  "(Discord did not let me read the member list, so this counts the members who picked on the bot's panels.)";

type ImpactServices = Pick<AppServices, 'db' | 'discord'>;

/**
 * Members holding any of the roles, from the member list; on Discord's 403 (no Server Members
 * intent) the members with a recorded pick in the feature's scopes instead.
 */
export async function rolesImpact(
  services: ImpactServices,
  guildId: string,
  roleIds: readonly string[],
  scopePrefix: string,
): Promise<ImpactPreview> {
  const { db, discord } = services;
  let members: number;
  let counted = true;
  if (roleIds.length === 0) members = 0;
  else {
    try {
      const ids = new Set(roleIds);
      members = 0;
      for await (const page of discord.guildMemberPages(guildId)) {
        members += countHolders(ids, page);
      }
    } catch (error) {
      if (!(error instanceof DiscordError && error.status === 403)) throw error;
      members = await countPickHolders(db, guildId, scopePrefix);
      counted = false;
    }
  }
  const summary = rolesResetImpact(roleIds.length, members);
  const usedBy = await roleUsage(services, guildId, roleIds);
  return {
    summary: counted ? summary : `${summary} ${COUNTED_FROM_PICKS}`,
    roles: roleIds.length,
    members,
    ...(usedBy ? { used_by: usedBy } : {}),
  };
}

/** What else uses the roles (the undo moves it to the recreated roles); null: nothing. */
async function roleUsage(
  services: ImpactServices,
  guildId: string,
  roleIds: readonly string[],
): Promise<RoleUsage | null> {
  const references = await roleReferences(services.db, guildId, roleIds);
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
}
