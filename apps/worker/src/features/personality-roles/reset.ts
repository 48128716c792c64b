import { type JobResult, personalityLastRefreshKey } from '@spacecadet/contract';
import { attachSnapshot } from '@spacecadet/db/queries/history';
import {
  deletePersonalityCleanup,
  loadPersonalityCleanup,
  loadPersonalityConfig,
} from '@spacecadet/db/queries/personality-roles';
import { personalityResetRoles } from '@spacecadet/db/queries/personality-snapshots';
import type { PersonalityCleanupRow } from '@spacecadet/db/schema';
import { DiscordCodes, discordApi, fetchGuildRoles, isDiscordError } from '../../discord-rest.ts';
import { roleHolders } from '../../guild-members.ts';
import { deleteGuildMessage } from '../../guild-scope.ts';
import { type JobContext, JobFailure } from '../../jobs/types.ts';
import { clearPendingRole, findOrphanRole, loadPendingRoles } from '../../roles/pending-roles.ts';
import { closeChannelForRole } from './channel-access.ts';
import { PERSONALITY_FEATURE } from './feature-name.ts';
import { syncPersonalityOnboarding } from './onboarding.ts';
import { withWarnings } from './roles.ts';
import { matchRefreshSchedule } from './schedule.ts';

const ROLE_REASON = 'Space Cadet: personality roles reset';

/**
 * `personality-roles.reset`, the Discord half: the API already removed the questions and moved
 * their roles, messages and Onboarding prompts to the cleanup list (so the screen shows "not
 * configured" at once); this deletes each of them in Discord, then its entry, so a retry skips
 * what is done. The prompts go first, while their roles still exist. Roles a
 * killed generate run created but never recorded go too. The refresh schedule goes unless the
 * admin initialized again meanwhile. Before anything goes, who holds each role
 * (`personalityResetRoles`, what the confirmation's preview counts too) is added to the
 * request's history entry, whose setup part the API stored.
 */
export async function resetPersonalityRoles(context: JobContext): Promise<JobResult> {
  const { db, client, redis } = context.deps;
  const guildId = context.payload.guild_id;
  await context.progress(0);
  const all = await loadPersonalityCleanup(db, guildId);
  const cleanup = all.filter((entry) => entry.kind !== 'onboarding');
  const retiring = await personalityResetRoles(db, guildId);
  if (context.payload.history_entry_id !== undefined) {
    // Who holds each role, before any goes: the undo gives the recreated roles back to them.
    const held = await roleHolders(client, guildId, new Set(retiring.map((role) => role.roleId)));
    await attachSnapshot(
      db,
      guildId,
      context.payload.history_entry_id,
      { holders: held ? Object.fromEntries(held) : null, holdersFrom: held ? 'members' : 'picks' },
      { ready: true },
    );
  }
  const pending = await loadPendingRoles(redis, PERSONALITY_FEATURE, guildId);
  // Read before any delete: a mark's role is told apart by name among the roles there now.
  const claimed = new Set([
    ...cleanup.flatMap((entry) => (entry.kind === 'overwrite' ? [] : [entry.targetId])),
    ...retiring.map((role) => role.roleId),
  ]);
  const guildRoles = pending.size === 0 ? [] : await fetchGuildRoles(client, guildId);
  const orphans = [...pending.values()].flatMap((mark) => findOrphanRole(guildRoles, mark, claimed) ?? []);
  const warnings: string[] = [];
  const deleted = await deleteRetiredInDiscord(context, all, warnings, (fraction) =>
    context.progress(90 * fraction),
  );
  let { roles } = deleted;
  const { messages, prompts } = deleted;
  for (const orphan of orphans) {
    if (await deleteRole(context, orphan.id, orphan.name, warnings)) roles += 1;
  }
  await clearPendingRole(redis, PERSONALITY_FEATURE, guildId);
  const config = await loadPersonalityConfig(db, guildId);
  await matchRefreshSchedule(context.deps, guildId, config.configured);
  if (!config.configured) await redis.del(personalityLastRefreshKey(guildId));
  await context.progress(100);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const said =
    prompts > 0
      ? `${plural(roles, 'role')}, ${plural(messages, 'message')} and ${plural(prompts, 'Onboarding question')}`
      : `${plural(roles, 'role')} and ${plural(messages, 'message')}`;
  return withWarnings(
    {
      ok: true,
      summary: `Personality roles reset: ${said} deleted.`,
      deleted: roles + messages + prompts,
    },
    warnings,
  );
}

/**
 * Deletes in Discord what the cleanup list holds (a reset's roles, messages and Onboarding
 * prompts, a disabled question's roles, an edit's removed options and channels: the View Channel
 * the bot gave a role goes), each entry's row after it is done, so a retry
 * skips what is done. The prompts go first, while their roles still exist. What is already
 * gone counts as done; a role above the bot is a warning.
 */
export async function deleteRetiredInDiscord(
  context: JobContext,
  all: readonly PersonalityCleanupRow[],
  warnings: string[],
  onProgress?: (fraction: number) => Promise<void>,
): Promise<{ roles: number; messages: number; prompts: number }> {
  const { db, client } = context.deps;
  const guildId = context.payload.guild_id;
  const cleanup = all.filter((entry) => entry.kind !== 'onboarding');
  const prompts = await removePrompts(context, all, warnings);
  let roles = 0;
  let messages = 0;
  for (const [index, entry] of cleanup.entries()) {
    if (entry.kind === 'role') {
      if (await deleteRole(context, entry.targetId, entry.name, warnings)) roles += 1;
    } else if (entry.kind === 'overwrite') {
      const warning = await closeChannelForRole(context, entry.targetId, entry.name);
      if (warning) warnings.push(warning);
    } else if (entry.channelId) {
      await deleteGuildMessage(client, guildId, entry.channelId, entry.targetId);
      messages += 1;
    }
    await deletePersonalityCleanup(db, [entry.id]);
    await onProgress?.((index + 1) / cleanup.length);
  }
  return { roles, messages, prompts };
}

/** True when deleted now; a role already gone counts as done, one above the bot as a warning. */
async function deleteRole(
  context: JobContext,
  roleId: string,
  name: string,
  warnings: string[],
): Promise<boolean> {
  try {
    await discordApi(context.deps.client).guilds.deleteRole(context.payload.guild_id, roleId, {
      reason: ROLE_REASON,
    });
    return true;
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownRole)) return false;
    if (isDiscordError(error, DiscordCodes.MissingPermissions)) {
      warnings.push(`Could not delete the role "${name}": my role must be above it. Delete it by hand.`);
      return false;
    }
    throw error;
  }
}

/**
 * Removes the retired Onboarding prompts (one GET, one PUT); what Discord refuses is a warning,
 * as the rest of the reset still has to happen. Returns how many were removed.
 */
async function removePrompts(
  context: JobContext,
  cleanup: readonly PersonalityCleanupRow[],
  warnings: string[],
): Promise<number> {
  const entries = cleanup.filter((entry) => entry.kind === 'onboarding');
  if (entries.length === 0) return 0;
  let removed = 0;
  try {
    const retired = entries.map((entry) => entry.targetId);
    removed = (await syncPersonalityOnboarding(context, [], false, { retired })).removed;
  } catch (error) {
    if (!(error instanceof JobFailure)) throw error;
    warnings.push(
      `Could not remove the personality questions from Discord Onboarding: ${error.detail} Remove them in Server Settings → Onboarding.`,
    );
  }
  await deletePersonalityCleanup(
    context.deps.db,
    entries.map((entry) => entry.id),
  );
  return removed;
}
