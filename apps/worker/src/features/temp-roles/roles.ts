import {
  type GuildJobPayload,
  type HistoryAction,
  type HistoryRefs,
  historySubject,
  tempRoleExpiryJobId,
} from '@spacecadet/contract';
import { roleGrantRefusal } from '@spacecadet/core';
import { type HistoryActor, recordHistoryEntry } from '@spacecadet/db/queries/history';
import type { TempRoleRow } from '@spacecadet/db/schema';
import { GUILD_JOB_OPTIONS } from '@spacecadet/queue/guild-jobs';
import type { WorkerDeps } from '../../deps.ts';
import { DiscordCodes, discordApi, fetchMember, isDiscordError } from '../../discord-rest.ts';
import { ensureGuildSchedule } from '../../jobs/schedules.ts';
import { errorFields } from '../../logger.ts';
import { guildRolesView } from '../../roles/guild-roles.ts';
import { noteRoleChange } from '../../roles/recent-changes.ts';
import { botActor } from '../history/record-command.ts';
import { TEMP_ROLES_SWEEP_AHEAD_MS, tempRolesSweep } from './schedule.ts';

const REASON = 'Space Cadet: temporary role';

/** What giving a temporary role came to. */
export type GiveOutcome = 'given' | 'not_member' | 'role_refused';

/**
 * Gives the member the role, after checking it is a role of this guild the bot may give (not
 * @everyone, not managed, below the bot's highest role). Giving a role held already is fine.
 */
export async function giveTempRole(
  deps: WorkerDeps,
  guildId: string,
  userId: string,
  roleId: string,
): Promise<GiveOutcome> {
  const view = await guildRolesView(deps.client, guildId);
  const role = view.role(roleId);
  if (!role || roleGrantRefusal(role, guildId, view.botTopPosition) !== null) return 'role_refused';
  try {
    await discordApi(deps.client).guilds.addRoleToMember(guildId, userId, roleId, { reason: REASON });
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownMember, DiscordCodes.UnknownUser)) return 'not_member';
    if (isDiscordError(error, DiscordCodes.MissingPermissions, DiscordCodes.UnknownRole))
      return 'role_refused';
    throw error;
  }
  noteRoleChange(guildId, userId, roleId, true);
  return 'given';
}

/** What taking a temporary role back came to. */
export type TakeOutcome = 'taken' | 'not_held' | 'not_member' | 'refused';

/**
 * Takes the role back from the member (idempotent: a role no longer held, or deleted, is
 * `not_held`); a member who left is `not_member`, a role the bot may no longer change `refused`.
 */
export async function takeTempRole(
  deps: WorkerDeps,
  guildId: string,
  userId: string,
  roleId: string,
): Promise<TakeOutcome> {
  try {
    const member = await fetchMember(deps.client, guildId, userId);
    if (!member.roles.includes(roleId)) return 'not_held';
    await discordApi(deps.client).guilds.removeRoleFromMember(guildId, userId, roleId, { reason: REASON });
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownMember, DiscordCodes.UnknownUser)) return 'not_member';
    if (isDiscordError(error, DiscordCodes.UnknownRole)) return 'not_held';
    if (isDiscordError(error, DiscordCodes.MissingPermissions)) return 'refused';
    throw error;
  }
  noteRoleChange(guildId, userId, roleId, false);
  return 'taken';
}

/**
 * After a temporary role was given: its delayed expiry at `expires_at`, and, when that is near,
 * the guild's sweep, which takes it back from Postgres should Redis lose the delayed run (a
 * later one gets its sweep from the schedule check as its end nears).
 */
export async function scheduleExpiry(deps: WorkerDeps, row: TempRoleRow): Promise<void> {
  const data: GuildJobPayload = { guild_id: row.guildId, requested_by: null };
  await deps.queue.forGuild(row.guildId).add('temp-roles.expire', data, {
    ...GUILD_JOB_OPTIONS,
    jobId: tempRoleExpiryJobId(row.guildId, row.id, row.expiresAt),
    delay: Math.max(0, row.expiresAt.getTime() - Date.now()),
  });
  if (row.expiresAt.getTime() <= Date.now() + TEMP_ROLES_SWEEP_AHEAD_MS) {
    await ensureGuildSchedule(deps, tempRolesSweep, row.guildId);
  }
}

/** The names, now, of the member and role an entry names (from the gateway cache; else ids). */
function refsOf(deps: WorkerDeps, row: TempRoleRow): HistoryRefs {
  const guild = deps.client.guilds.cache.get(row.guildId);
  const refs: HistoryRefs = {};
  const role = guild?.roles.cache.get(row.roleId);
  if (role) refs[row.roleId] = { kind: 'role', name: role.name };
  const member = guild?.members.cache.get(row.userId);
  const user = deps.client.users.cache.get(row.userId);
  const name = member?.displayName ?? user?.displayName;
  if (name) refs[row.userId] = { kind: 'member', name };
  return refs;
}

/**
 * Records a grant or an end of a temporary role in the guild's History (recorded only, no
 * undo). The change is made already: a History write that fails is logged.
 */
export async function recordTempRoleHistory(
  deps: WorkerDeps,
  row: TempRoleRow,
  action: HistoryAction,
  summary: string,
  actor: HistoryActor = botActor(deps),
): Promise<void> {
  try {
    await recordHistoryEntry(deps.db, {
      guildId: row.guildId,
      actor,
      action,
      noted: {
        subject: historySubject('temp_roles', row.id),
        undoKind: null,
        summary,
        refs: refsOf(deps, row),
      },
    });
  } catch (error) {
    deps.logger.error(
      { action, guildId: row.guildId, ...errorFields(error) },
      'history entry of a temporary role not recorded',
    );
  }
}
