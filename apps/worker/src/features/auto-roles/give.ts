import type { JobResult } from '@spacecadet/contract';
import { deleteStickyRoles, stickyRolesOf } from '@spacecadet/db/queries/sticky-roles';
import { rolesExpiredSince } from '@spacecadet/db/queries/temp-roles';
import { getWelcomeSettings } from '@spacecadet/db/queries/welcome';
import type { APIGuildMember } from 'discord.js';
import { DiscordCodes, discordApi, fetchMember, isDiscordError } from '../../discord-rest.ts';
import type { JobContext } from '../../jobs/types.ts';
import { JobFailure } from '../../jobs/types.ts';
import { guildRolesView } from '../../roles/guild-roles.ts';
import { awaitingKey } from './keys.ts';
import { retentionMs } from './retention.ts';

/** The member as Discord has them now, or null when they left. */
async function memberOrNull(context: JobContext, userId: string): Promise<APIGuildMember | null> {
  try {
    return await fetchMember(context.deps.client, context.payload.guild_id, userId);
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownMember, DiscordCodes.UnknownUser)) return null;
    throw error;
  }
}

/** The roles this join should get: the auto-roles of humans or bots, and a human's sticky roles. */
async function wantedRoles(context: JobContext, userId: string, bot: boolean, joinedAt: number) {
  const { deps, payload } = context;
  const settings = await getWelcomeSettings(deps.db, payload.guild_id);
  const wanted = new Set(bot ? settings.bot_auto_roles : settings.auto_roles);
  const sticky =
    settings.sticky_roles && !bot ? await stickyRolesOf(deps.db, payload.guild_id, userId) : null;
  const fresh =
    sticky !== null &&
    sticky.leftAt.getTime() <= joinedAt &&
    sticky.leftAt.getTime() > Date.now() - retentionMs(deps);
  if (fresh) {
    const excluded = new Set(settings.sticky_exclude_role_ids);
    // A temporary role that ran out while they were away stays out (temp-roles takes it back anyway).
    const expired = await rolesExpiredSince(deps.db, payload.guild_id, userId, sticky.leftAt);
    for (const roleId of sticky.roleIds)
      if (!excluded.has(roleId) && !expired.has(roleId)) wanted.add(roleId);
  }
  return { wanted, sticky: fresh ? sticky : null };
}

/**
 * `auto-roles.give`: gives a member who joined their auto-roles (bots their bot auto-roles) and,
 * in a sticky-roles server, the roles they held when they last left. Reads everything again when
 * it runs: the settings, the member (still there, this join, past screening) and the roles (still
 * the guild's, not managed, below the bot's); gives only what they miss, each role on its own, so
 * a role deleted or above the bot is skipped and the others still given. Safe to run again.
 */
export async function giveJoinRoles(context: JobContext): Promise<JobResult> {
  const { deps, payload } = context;
  const guildId = payload.guild_id;
  if (!payload.member) throw new JobFailure('invalid_payload', 'auto-roles.give needs the member');
  const { user_id: userId, joined_at: joinedAtText } = payload.member;
  const joinedAt = Date.parse(joinedAtText);
  // Queued by the gateway for a member past screening: give at once, as Discord answers a member
  // who left since (10007) or is pending again on a new join (refused). A retry, or a job queued
  // without what the gateway saw, reads the member first: still there, this join, past screening.
  const seen = payload.member.bot !== undefined && context.attempt === 1;
  const member = seen ? null : await memberOrNull(context, userId);
  if (!seen) {
    if (member === null) return { ok: true, summary: 'The member left before getting their roles.' };
    if (member.joined_at && Date.parse(member.joined_at) !== joinedAt) {
      return { ok: true, summary: 'The member left and joined again since: that join has its own job.' };
    }
    if (member.pending) {
      // Screening not passed (the completion's event was missed or raced): it queues this again.
      await deps.redis.set(awaitingKey(guildId, userId), joinedAtText, 'PX', retentionMs(deps));
      return { ok: true, summary: 'Waiting for the member to pass Membership Screening.' };
    }
  }
  const bot = member ? member.user.bot === true : payload.member.bot === true;
  const { wanted, sticky } = await wantedRoles(context, userId, bot, joinedAt);
  const view = wanted.size > 0 ? await guildRolesView(deps.client, guildId) : null;
  const held = new Set(member?.roles ?? []);
  const warnings: string[] = [];
  let given = 0;
  for (const roleId of wanted) {
    if (held.has(roleId) || roleId === guildId) continue;
    const role = view?.role(roleId);
    if (!role) {
      warnings.push(`Role ${roleId} no longer exists; skipped.`);
      continue;
    }
    if (role.managed || role.position >= (view?.botTopPosition ?? 0)) {
      warnings.push(`I can't give the role "${role.name}": it is managed or not below my role; skipped.`);
      continue;
    }
    try {
      await discordApi(deps.client).guilds.addRoleToMember(guildId, userId, roleId, {
        reason: 'Welcome: auto-roles / sticky roles',
      });
      given += 1;
    } catch (error) {
      if (isDiscordError(error, DiscordCodes.UnknownMember)) {
        return { ok: true, summary: 'The member left while getting their roles.' };
      }
      if (!isDiscordError(error, DiscordCodes.UnknownRole, DiscordCodes.MissingPermissions)) throw error;
      warnings.push(`Discord refused the role "${role.name}"; skipped.`);
    }
  }
  if (sticky) await deleteStickyRoles(deps.db, guildId, userId, sticky.leftAt);
  await context.progress(100);
  return {
    ok: true,
    summary: `Gave ${given} role${given === 1 ? '' : 's'} to a new member.`,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}
