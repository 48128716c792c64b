import type { RewardMode } from '@spacecadet/contract';
import { rewardRoleChanges } from '@spacecadet/core';
import {
  loadLevelingRoles,
  loadLevelingSettings,
  type StoredLevelingRole,
} from '@spacecadet/db/queries/leveling';
import { loadMemberLevel } from '@spacecadet/db/queries/xp-tools';
import type { APIGuildMember, Client } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { DiscordCodes, discordApi, fetchMember, isDiscordError } from '../../discord-rest.ts';
import { guildRolesViewByRest, roleAboveBotWarning } from '../../roles/guild-roles.ts';

/** Names this feature's job lock and its marks of role creates in flight. */
export const LEVELING_FEATURE = 'leveling';

const REWARD_REASON = 'Space Cadet: level reward';

/**
 * What bringing members' rewards in line needs: the guild's created reward roles (a stored id
 * naming the guild itself, @everyone, is no reward role), the reward mode, and the role ids
 * the bot cannot give or take (above its own role), which are left alone.
 */
export interface RewardPlan {
  roles: readonly StoredLevelingRole[];
  mode: RewardMode;
  blocked: ReadonlySet<string>;
}

export function rewardPlan(
  roles: readonly StoredLevelingRole[],
  guildId: string,
  mode: RewardMode,
  blocked: ReadonlySet<string> = new Set(),
): RewardPlan {
  return { roles: roles.filter((role) => role.roleId !== null && role.roleId !== guildId), mode, blocked };
}

/**
 * The reward plan as Discord is now, for an admin's action (the apply-rewards job, `/xp`):
 * settings and reward roles read fresh, the guild's roles by REST. Reward roles whose Discord
 * role is gone are left out (`gone`: Sync Roles recreates them); roles at or above the bot's
 * highest role are `blocked`. `canManage` is false when the bot lacks Manage Roles.
 */
export async function loadRewardPlan(
  deps: WorkerDeps,
  guildId: string,
): Promise<{ plan: RewardPlan; canManage: boolean; gone: StoredLevelingRole[] }> {
  const [settings, roles, view] = await Promise.all([
    loadLevelingSettings(deps.db, guildId),
    loadLevelingRoles(deps.db, guildId),
    guildRolesViewByRest(deps.client, guildId),
  ]);
  const created = rewardPlan(roles, guildId, settings.rewardMode).roles;
  const gone = created.filter((role) => role.roleId && !view.has(role.roleId));
  const live = created.filter((role) => !gone.includes(role));
  const blocked = new Set(
    live.flatMap((role) => {
      const discordRole = role.roleId ? view.role(role.roleId) : undefined;
      return discordRole && (discordRole.managed || discordRole.position >= view.botTopPosition)
        ? [discordRole.id]
        : [];
    }),
  );
  return {
    plan: { roles: live, mode: settings.rewardMode, blocked },
    canManage: view.botCanManageRoles,
    gone,
  };
}

/** The warning for a reward role whose Discord role was deleted. */
export function goneRoleWarning(roleName: string): string {
  return `The reward role "${roleName}" no longer exists in Discord: run Sync Roles to create it again.`;
}

export interface RewardChanges {
  add: StoredLevelingRole[];
  remove: StoredLevelingRole[];
}

/**
 * What to change so a member at `level` holding `held` has exactly the rewards of their level
 * under the mode (core `rewardRoleChanges`), leaving out the roles the bot cannot touch
 * (`blocked`: the changes left undone). The rewards due are decided over every role first, so a
 * blocked top reward still counts as the highest in `highest` mode.
 */
export function memberRewardChanges(
  plan: RewardPlan,
  level: number,
  held: readonly string[],
): RewardChanges & { blocked: StoredLevelingRole[] } {
  const changes = rewardRoleChanges(plan.roles, level, plan.mode, held);
  const isBlocked = (role: StoredLevelingRole) => role.roleId !== null && plan.blocked.has(role.roleId);
  return {
    add: changes.add.filter((role) => !isBlocked(role)),
    remove: changes.remove.filter((role) => !isBlocked(role)),
    blocked: [...changes.add, ...changes.remove].filter(isBlocked),
  };
}

export interface RewardOutcome {
  /** Reward roles Discord added, in level order. */
  added: StoredLevelingRole[];
  /** Reward roles Discord removed. */
  removed: StoredLevelingRole[];
  /**
   * Role ids Discord refused to add or remove (bot role below them, or role deleted), and those
   * left alone because the bot's role is below them (the plan's `blocked`).
   */
  refused: string[];
  /** The member is not in the guild. */
  memberGone: boolean;
}

const noOutcome = (memberGone: boolean): RewardOutcome => ({
  added: [],
  removed: [],
  refused: [],
  memberGone,
});

/**
 * Adds and removes reward roles of one member, one `PUT` or `DELETE` each. A role Discord
 * refuses is reported, not thrown, so one misplaced role does not keep the member from the
 * others; a member who left stops it (`memberGone`).
 */
export async function applyRewardChanges(
  client: Client,
  guildId: string,
  userId: string,
  changes: RewardChanges,
): Promise<RewardOutcome> {
  const outcome = noOutcome(false);
  const guilds = discordApi(client).guilds;
  const steps = [
    ...changes.add.map((role) => ({ role, add: true })),
    ...changes.remove.map((role) => ({ role, add: false })),
  ];
  for (const { role, add } of steps) {
    if (!role.roleId) continue;
    try {
      if (add) {
        await guilds.addRoleToMember(guildId, userId, role.roleId, { reason: REWARD_REASON });
        outcome.added.push(role);
      } else {
        await guilds.removeRoleFromMember(guildId, userId, role.roleId, { reason: REWARD_REASON });
        outcome.removed.push(role);
      }
    } catch (error) {
      if (isDiscordError(error, DiscordCodes.UnknownMember, DiscordCodes.UnknownUser)) {
        return { ...outcome, memberGone: true };
      }
      if (!isDiscordError(error, DiscordCodes.UnknownRole, DiscordCodes.MissingPermissions)) throw error;
      outcome.refused.push(role.roleId);
    }
  }
  return outcome;
}

/** The member as Discord has it now, or null when they are not in the guild. */
export async function fetchMemberIfPresent(
  client: Client,
  guildId: string,
  userId: string,
): Promise<APIGuildMember | null> {
  try {
    return await fetchMember(client, guildId, userId);
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownMember, DiscordCodes.UnknownUser)) return null;
    throw error;
  }
}

/**
 * Brings one member's reward roles in line with `level`: one `GET` of the member (unless the
 * caller has them from the member list: `listed`), then a call only per role that differs. A
 * member not in the guild is `memberGone`; a bot is left alone.
 */
export async function bringMemberRewardsInLine(
  client: Client,
  guildId: string,
  userId: string,
  level: number,
  plan: RewardPlan,
  listed?: APIGuildMember,
): Promise<RewardOutcome> {
  const member = listed ?? (await fetchMemberIfPresent(client, guildId, userId));
  if (!member) return noOutcome(true);
  if (member.user.bot) return noOutcome(false);
  const changes = memberRewardChanges(plan, level, member.roles);
  const outcome = await applyRewardChanges(client, guildId, userId, changes);
  for (const role of changes.blocked) if (role.roleId) outcome.refused.push(role.roleId);
  return outcome;
}

/** The warnings for roles Discord refused, in Sync Roles' words, each role once. */
export function refusedRoleWarnings(plan: RewardPlan, refused: Iterable<string>): string[] {
  const warnings = new Set<string>();
  for (const roleId of refused) {
    const role = plan.roles.find((candidate) => candidate.roleId === roleId);
    warnings.add(roleAboveBotWarning(role?.roleName ?? roleId));
  }
  return [...warnings];
}

/**
 * On a level-up: gives the member the created reward roles due at their level under the
 * guild's reward mode and takes away the reward roles they hold but should not (lower ones in
 * `highest` mode; in both modes, any above their level). The level is the member's stored one
 * when they have XP (an admin may have lowered it, or a later level-up been delivered first),
 * else `level`. Answers the names of the reward roles added (none when the member left), for
 * the level-up message's `{rewards}`. Roles Discord refuses are logged and skipped; Sync Roles
 * reports them to the admin.
 */
export async function grantLevelRewards(
  deps: WorkerDeps,
  guildId: string,
  userId: string,
  level: number,
): Promise<string[]> {
  const [roles, settings, stored] = await Promise.all([
    loadLevelingRoles(deps.db, guildId),
    loadLevelingSettings(deps.db, guildId),
    loadMemberLevel(deps.db, guildId, userId),
  ]);
  const plan = rewardPlan(roles, guildId, settings.rewardMode);
  if (plan.roles.length === 0) return [];
  const outcome = await bringMemberRewardsInLine(deps.client, guildId, userId, stored ?? level, plan);
  if (outcome.refused.length > 0) {
    deps.logger.warn(
      { guildId, userId, level, roleIds: outcome.refused },
      'Discord refused level reward roles (bot role below them, or role deleted): run Sync Roles',
    );
  }
  return outcome.memberGone ? [] : outcome.added.map((role) => role.roleName);
}
