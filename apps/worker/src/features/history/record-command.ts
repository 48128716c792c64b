import type { HistoryAction, HistoryRefs } from '@spacecadet/contract';
import { historyRefIds } from '@spacecadet/core';
import { type HistoryActor, type HistoryNoted, recordHistoryEntry } from '@spacecadet/db/queries/history';
import type { ChatInputCommandInteraction, Guild } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { errorFields } from '../../logger.ts';

/**
 * The names, now, of the channels, roles and members a change mentions, from discord.js's caches
 * (the guild's channels and roles, its members and the users the command resolved): an id not
 * cached stays an id.
 */
export function historyRefsFromCache(
  guild: Guild,
  interaction: ChatInputCommandInteraction,
  ...values: unknown[]
): HistoryRefs {
  const refs: HistoryRefs = {};
  for (const id of historyRefIds(...values)) {
    if (id === guild.id) continue;
    const channel = guild.channels.cache.get(id);
    const role = guild.roles.cache.get(id);
    const member = guild.members.cache.get(id) ?? interaction.options.resolved?.members?.get(id);
    const user = interaction.options.resolved?.users?.get(id) ?? interaction.client.users.cache.get(id);
    if (channel) refs[id] = { kind: 'channel', name: channel.name };
    else if (role) refs[id] = { kind: 'role', name: role.name };
    else if (member && 'displayName' in member) refs[id] = { kind: 'member', name: member.displayName };
    else if (user) refs[id] = { kind: 'member', name: user.displayName };
  }
  return refs;
}

/** The bot as the actor of what it did on its own (an expiry, a scheduled season end, decay). */
export function botActor(deps: WorkerDeps): HistoryActor {
  const user = deps.client.user;
  return { id: user?.id ?? '0', name: user?.username ?? 'Space Cadet', avatar: user?.avatar ?? null };
}

/**
 * Records a change an admin made with a Discord command in the server's History, as the API
 * records a dashboard change (same action, subject and state, so its Undo works the same), with
 * the Discord user as the actor. The change is made already: a History write that fails is
 * logged, never turned into a failed command.
 */
export async function recordCommandChange(
  deps: WorkerDeps,
  interaction: ChatInputCommandInteraction,
  action: HistoryAction,
  noted: HistoryNoted,
): Promise<void> {
  const guild = interaction.guild;
  if (!guild) return;
  const { user } = interaction;
  try {
    await recordHistoryEntry(deps.db, {
      guildId: guild.id,
      actor: { id: user.id, name: user.username, avatar: user.avatar },
      action,
      noted: {
        ...noted,
        refs: historyRefsFromCache(guild, interaction, noted.summary, noted.before, noted.after),
      },
    });
  } catch (error) {
    deps.logger.error(
      { action, guildId: guild.id, ...errorFields(error) },
      'history entry of a command not recorded',
    );
  }
}
