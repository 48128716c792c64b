import { rewardRolesForLevel } from '@spacecadet/core';
import { loadLevelingRoles, type StoredLevelingRole } from '@spacecadet/db/queries/leveling';
import type { APIGuildMember, Client } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { DiscordCodes, discordApi, fetchMember, isDiscordError } from '../../discord-rest.ts';

/** Names this feature's job lock and its marks of role creates in flight. */
export const LEVELING_FEATURE = 'leveling';

const REWARD_REASON = 'Space Cadet: level reward';

/**
 * The Discord role ids of the created reward roles a member at `level` holds (every role with
 * `level_required` <= level: rewards stack), lowest level first. A stored id naming the guild
 * itself (@everyone) is no reward role and is skipped.
 */
export function rewardRoleIds(
  roles: readonly StoredLevelingRole[],
  guildId: string,
  level: number,
): string[] {
  const ids = rewardRolesForLevel(roles, level).flatMap((role) =>
    role.roleId && role.roleId !== guildId ? [role.roleId] : [],
  );
  return [...new Set(ids)];
}

export interface GrantOutcome {
  /** Roles added to the member. */
  added: number;
  /** Roles Discord refused to add (the bot's role is not above them, or the role is gone). */
  refused: string[];
  /** The member is no longer in the guild. */
  memberGone: boolean;
}

/**
 * Adds the roles of `wanted` the member does not hold (`held`), one `PUT` each; roles the
 * member already has are not touched. A role Discord refuses is reported, not thrown, so one
 * misplaced role does not keep the member from getting the others.
 */
export async function addMissingRoles(
  client: Client,
  guildId: string,
  userId: string,
  held: readonly string[],
  wanted: readonly string[],
): Promise<GrantOutcome> {
  const has = new Set(held);
  const outcome: GrantOutcome = { added: 0, refused: [], memberGone: false };
  for (const roleId of wanted) {
    if (has.has(roleId)) continue;
    try {
      await discordApi(client).guilds.addRoleToMember(guildId, userId, roleId, { reason: REWARD_REASON });
      outcome.added += 1;
    } catch (error) {
      if (isDiscordError(error, DiscordCodes.UnknownMember, DiscordCodes.UnknownUser)) {
        return { ...outcome, memberGone: true };
      }
      if (isDiscordError(error, DiscordCodes.UnknownRole, DiscordCodes.MissingPermissions)) {
        outcome.refused.push(roleId);
        continue;
      }
      throw error;
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
 * Gives a member who reached `level` every created reward role up to that level they lack:
 * one `GET` of the member, then one `PUT` per missing role. Answers the names of the reward
 * roles added (none when the member left), for the level-up message's `{rewards}`. Roles
 * Discord refuses are logged and skipped; Sync Roles reports them to the admin.
 */
export async function grantLevelRewards(
  deps: WorkerDeps,
  guildId: string,
  userId: string,
  level: number,
): Promise<string[]> {
  const roles = await loadLevelingRoles(deps.db, guildId);
  const wanted = rewardRoleIds(roles, guildId, level);
  if (wanted.length === 0) return [];
  const member = await fetchMemberIfPresent(deps.client, guildId, userId);
  if (!member) return [];
  const outcome = await addMissingRoles(deps.client, guildId, userId, member.roles, wanted);
  if (outcome.refused.length > 0) {
    deps.logger.warn(
      { guildId, userId, level, roleIds: outcome.refused },
      'Discord refused level reward roles (bot role below them, or role deleted): run Sync Roles',
    );
  }
  const held = new Set(member.roles);
  const refused = new Set(outcome.refused);
  const given = new Set(wanted.filter((id) => !held.has(id) && !refused.has(id)));
  return outcome.memberGone
    ? []
    : roles.flatMap((role) => (role.roleId && given.has(role.roleId) ? [role.roleName] : []));
}

/**
 * Adds and removes reward roles of one member (core `rewardRoleChanges`); answers how many
 * changes Discord made. A role Discord refuses, or a member who left, is logged and skipped.
 */
export async function applyRewardChanges(
  deps: WorkerDeps,
  guildId: string,
  userId: string,
  changes: { add: readonly StoredLevelingRole[]; remove: readonly StoredLevelingRole[] },
): Promise<number> {
  let made = 0;
  const guilds = discordApi(deps.client).guilds;
  for (const [role, add] of [
    ...changes.add.map((r) => [r, true] as const),
    ...changes.remove.map((r) => [r, false] as const),
  ]) {
    if (!role.roleId) continue;
    try {
      if (add) await guilds.addRoleToMember(guildId, userId, role.roleId, { reason: REWARD_REASON });
      else await guilds.removeRoleFromMember(guildId, userId, role.roleId, { reason: REWARD_REASON });
      made += 1;
    } catch (error) {
      if (isDiscordError(error, DiscordCodes.UnknownMember, DiscordCodes.UnknownUser)) return made;
      if (!isDiscordError(error, DiscordCodes.UnknownRole, DiscordCodes.MissingPermissions)) throw error;
      deps.logger.warn(
        { guildId, userId, roleId: role.roleId },
        'Discord refused a level reward change: run Sync Roles',
      );
    }
  }
  return made;
}
