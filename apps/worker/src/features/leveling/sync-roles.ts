import type { JobResult } from '@spacecadet/contract';
import {
  loadLevelingRoles,
  loadLevelingSettings,
  loadMemberLevels,
  type StoredLevelingRole,
  setLevelingRoleId,
} from '@spacecadet/db/queries/leveling';
import { loadLevelsOf } from '@spacecadet/db/queries/xp-tools';
import type { APIRole } from 'discord.js';
import { DiscordCodes, discordApi, fetchGuildRoles, isDiscordError } from '../../discord-rest.ts';
import { forEachMemberPage } from '../../guild-members.ts';
import { type JobContext, JobFailure } from '../../jobs/types.ts';
import { type GuildRolesView, guildRolesViewByRest } from '../../roles/guild-roles.ts';
import {
  adoptOrphansWithinCap,
  clearPendingRole,
  createMarkedRole,
  loadPendingRoles,
  type PendingRoleTarget,
} from '../../roles/pending-roles.ts';
import { movedReferencesSummary, moveRoleReferences } from '../../roles/role-references.ts';
import { MEMBER_LIST_REFUSED_WARNING } from './member-list.ts';
import { syncDailyOverviewSchedule } from './overview-schedule.ts';
import { matchNamesAndPermissions } from './reward-role-edits.ts';
import {
  applyRewardChanges,
  fetchMemberIfPresent,
  LEVELING_FEATURE,
  memberRewardChanges,
  type RewardPlan,
  refusedRoleWarnings,
  rewardPlan,
} from './rewards.ts';

/** Reward roles carry no colour, so a member's colour role keeps showing. */
const ROLE_COLOR = 0;

export const MANAGE_ROLES_WARNING =
  "I don't have the Manage Roles permission, so I can't give members their level rewards. Give my role Manage Roles.";

const targetKey = (role: StoredLevelingRole) => `reward:${role.id}`;
const roleTarget = (role: StoredLevelingRole): PendingRoleTarget => ({
  key: targetKey(role),
  name: role.roleName,
  color: ROLE_COLOR,
});
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * `leveling.sync-roles` (Sync Roles): gives every reward role a live Discord role (created when
 * pending or deleted, adopted after a killed run), makes each one carry its name and
 * permissions (Attach Files and Embed Links for image roles, none otherwise), moves what named a
 * recreated role's old id (menus, no-XP roles, boosts) to the new one, then gives every
 * member exactly the rewards of their level under the reward mode (adding the missing ones,
 * removing the others). A second run changes nothing.
 */
export async function syncLevelingRoles(context: JobContext): Promise<JobResult> {
  const { db, client } = context.deps;
  const guildId = context.payload.guild_id;
  await context.progress(0);
  const [stored, settings] = await Promise.all([
    loadLevelingRoles(db, guildId),
    loadLevelingSettings(db, guildId),
  ]);
  if (stored.length === 0) {
    await syncDailyOverviewSchedule(context.deps, guildId);
    await context.progress(100);
    return { ok: true, summary: 'No reward roles to sync: add some on the Roles page first.', created: 0 };
  }
  const [view, discordRoles] = await Promise.all([
    guildRolesViewByRest(client, guildId),
    fetchGuildRoles(client, guildId),
  ]);
  await context.progress(5);

  const made = await ensureRewardRoles(context, stored, view, discordRoles);
  // A reward role recreated because its role was deleted: what named the old role names the new.
  const recreated = new Map<string, string>();
  for (const before of stored) {
    const now = made.roles.find((role) => role.id === before.id)?.roleId;
    if (before.roleId && now && now !== before.roleId && !view.has(before.roleId))
      recreated.set(before.roleId, now);
  }
  const moved = await moveRoleReferences(context, recreated);
  await context.progress(30);
  const edited = await matchNamesAndPermissions(context, made.roles, view, discordRoles, made.fresh);
  await context.progress(40);

  const warnings = [...edited.warnings];
  let granted = { added: 0, removed: 0, given: 0, taken: 0, refused: new Set<string>() };
  if (!view.botCanManageRoles) {
    warnings.unshift(MANAGE_ROLES_WARNING);
  } else {
    const plan = rewardPlan(made.roles, guildId, settings.rewardMode, edited.aboveBot);
    granted = await bringRewardsInLine(context, plan, warnings, (fraction) =>
      context.progress(40 + 55 * fraction),
    );
    for (const warning of refusedRoleWarnings(plan, granted.refused)) {
      if (!warnings.includes(warning)) warnings.push(warning);
    }
  }

  await syncDailyOverviewSchedule(context.deps, guildId);
  await context.progress(100);
  const created = made.created + made.adopted;
  const present = stored.length - created;
  const summary = [
    `${plural(created, 'role')} created, ${present} already present`,
    edited.renamed > 0 ? `${edited.renamed} renamed` : '',
    edited.permissionsSet > 0 ? `${plural(edited.permissionsSet, 'permission fix')}` : '',
    `${plural(granted.added, 'reward')} given to ${plural(granted.given, 'member')}`,
    granted.removed > 0
      ? `${plural(granted.removed, 'reward')} removed from ${plural(granted.taken, 'member')}`
      : '',
  ]
    .filter(Boolean)
    .join(', ');
  return {
    ok: true,
    summary: `${summary}.${movedReferencesSummary(moved)}`,
    created,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

interface EnsuredRoles {
  /** Every reward role, with the Discord role id it has now (null if it was deleted meanwhile). */
  roles: StoredLevelingRole[];
  created: number;
  adopted: number;
  /** Discord role ids created in this run (named as wanted, no permissions yet). */
  fresh: Set<string>;
}

/**
 * A live Discord role for every reward role: the stored one when Discord still has it (and it
 * is an ordinary role of this guild), else one adopted from a run killed after creating it, else
 * a new one. Each new id is stored right after Discord made it, with a Redis mark around the
 * create (`createMarkedRole`), so a retry adopts instead of duplicating.
 */
async function ensureRewardRoles(
  context: JobContext,
  stored: readonly StoredLevelingRole[],
  view: GuildRolesView,
  discordRoles: readonly APIRole[],
): Promise<EnsuredRoles> {
  const { db, redis, client } = context.deps;
  const guildId = context.payload.guild_id;
  const live = (role: StoredLevelingRole) =>
    role.roleId !== null &&
    role.roleId !== guildId &&
    view.has(role.roleId) &&
    view.role(role.roleId)?.managed !== true;
  const missing = stored.filter((role) => !live(role));
  const roles = stored.map((role) => ({ ...role }));
  if (missing.length === 0) return { roles, created: 0, adopted: 0, fresh: new Set() };

  const claimed = new Set(stored.filter(live).flatMap((role) => (role.roleId ? [role.roleId] : [])));
  const pending = await loadPendingRoles(redis, LEVELING_FEATURE, guildId);
  const adoptions = adoptOrphansWithinCap(
    { missing: missing.map(roleTarget), pending, roles: () => discordRoles, claimed, count: view.count },
    { need: 'level rewards need', advice: 'Delete some roles, then try again.' },
  );
  const toCreate = missing.length - adoptions.size;
  if (toCreate > 0 && !view.botCanManageRoles) {
    throw new JobFailure('forbidden', 'I need the Manage Roles permission to create level reward roles.');
  }

  let created = 0;
  const fresh = new Set<string>();
  for (const role of missing) {
    const adopted = adoptions.get(targetKey(role))?.id;
    const roleId =
      adopted ?? (await createMarkedRole(context, LEVELING_FEATURE, roleTarget(role), 'level reward roles'));
    const kept = await setLevelingRoleId(db, guildId, role.id, roleId);
    if (!kept) {
      // The reward role was deleted while this run created its Discord role: that goes too.
      try {
        await discordApi(client).guilds.deleteRole(guildId, roleId, {
          reason: 'Space Cadet: reward removed',
        });
      } catch (error) {
        if (!isDiscordError(error, DiscordCodes.UnknownRole)) throw error;
      }
    }
    await clearPendingRole(redis, LEVELING_FEATURE, guildId, targetKey(role));
    const entry = roles.find((candidate) => candidate.id === role.id);
    if (entry) entry.roleId = kept ? roleId : null;
    if (!adopted) {
      created += 1;
      fresh.add(roleId);
    }
  }
  return { roles, created, adopted: adoptions.size, fresh };
}

/**
 * Gives every member exactly the rewards of their level (`member_xp.level`, 0 without XP) under
 * the reward mode: adds the ones they lack and removes the reward roles they should not hold,
 * walking the guild's member list from Discord a page at a time (one read of the page's levels);
 * Discord is called only for members whose roles differ, and bots are left alone. When Discord
 * refuses the list, the members with XP are read one by one instead.
 */
async function bringRewardsInLine(
  context: JobContext,
  plan: RewardPlan,
  warnings: string[],
  onProgress: (fraction: number) => Promise<void>,
): Promise<{ added: number; removed: number; given: number; taken: number; refused: Set<string> }> {
  const { client, db } = context.deps;
  const guildId = context.payload.guild_id;
  // given / taken: how many members got rewards, and lost some.
  const result = { added: 0, removed: 0, given: 0, taken: 0, refused: new Set<string>() };
  if (plan.roles.length === 0) return result;

  const apply = async (userId: string, held: readonly string[], level: number) => {
    const changes = memberRewardChanges(plan, level, held);
    if (changes.add.length + changes.remove.length === 0) return;
    const outcome = await applyRewardChanges(client, guildId, userId, changes);
    for (const roleId of outcome.refused) result.refused.add(roleId);
    result.added += outcome.added.length;
    result.removed += outcome.removed.length;
    if (outcome.added.length > 0) result.given += 1;
    if (outcome.removed.length > 0) result.taken += 1;
  };

  const expected = client.guilds.cache.get(guildId)?.memberCount ?? 0;
  let seen = 0;
  const listed = await forEachMemberPage(client, guildId, async (page) => {
    const people = page.filter((member) => !member.user.bot);
    const levels = await loadLevelsOf(
      db,
      guildId,
      people.map((member) => member.user.id),
    );
    for (const member of people) await apply(member.user.id, member.roles, levels.get(member.user.id) ?? 0);
    seen += page.length;
    await onProgress(Math.min(1, seen / Math.max(expected, seen + page.length)));
  });
  if (!listed) {
    warnings.push(MEMBER_LIST_REFUSED_WARNING);
    const levels = await loadMemberLevels(db, guildId, 0);
    for (const [userId, level] of levels) {
      const member = await fetchMemberIfPresent(client, guildId, userId);
      if (member && !member.user.bot) await apply(userId, member.roles, level);
      seen += 1;
      if (seen % 25 === 0) await onProgress(seen / levels.size);
    }
  }
  await onProgress(1);
  return result;
}
