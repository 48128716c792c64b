import {
  type MenuEmoji,
  parseMenuEmoji,
  REACTION_ROW_MESSAGES,
  type ReactionPanelLocation,
} from '@spacecadet/contract';
import { roleGrantRefusal } from '@spacecadet/core';
import type { RoleMenuRow } from '@spacecadet/db';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../errors.ts';
import type { DiscordRole } from './discord.ts';
import type { GuildResources } from './guild-resources.ts';
import { followUpGuildJob, type GuildJobQueues, type JobRequester } from './jobs.ts';

/**
 * What the two kinds of role menu rows share (`reaction-roles.ts` and `role-menus.ts` beside
 * this): the Reaction Roles editor's two lists and the admin's own menus are rows of one table
 * (core's `role-menus.ts`), whose options are checked against Discord the same way and whose
 * posted messages are read and repaired the same way.
 */

/** One option of a menu as a request names it. */
export interface OptionToCheck {
  /** Where it sits in the body, as a 400's `issues` names it: `color_roles.2`, `options.0`. */
  path: string;
  /** How a refusal names it: `Color roles row 3`, `Option 1`. */
  name: string;
  role_id: string;
  /** Absent or blank: an option without an emoji (a button or select option may have none). */
  emoji?: string | undefined;
}

interface OptionProblem {
  path: string;
  message: string;
}

/**
 * After a stored change of posted menus, queues `role-menus.repair`, which brings their messages
 * in line (edits, re-posts, deletes); `later` says in the log what catches up when the queue is down.
 */
export async function queueMenusRepair(
  queue: GuildJobQueues,
  log: FastifyBaseLogger,
  guildId: string,
  by: JobRequester,
  later: string,
): Promise<void> {
  await followUpGuildJob(queue, log, 'role-menus.repair', guildId, by, later);
}

/** Where the menu is posted now (null: nowhere). */
export function postedLocation(row: RoleMenuRow | null): ReactionPanelLocation | null {
  if (!row?.messageChannelId || row.messageIds.length === 0) return null;
  return { channel_id: row.messageChannelId, message_ids: row.messageIds };
}

/**
 * Why the bot could not give `role` (its highest role is `highest`), or null when it can: core's
 * `roleGrantRefusal` decides, this names it (@everyone is refused earlier, by the guild-ref check).
 */
function roleProblem(
  guildId: string,
  option: string,
  role: DiscordRole,
  highest: DiscordRole | null,
): string | null {
  const refusal = roleGrantRefusal(role, guildId, highest?.position ?? 0);
  if (refusal === null) return null;
  if (refusal === 'managed') return REACTION_ROW_MESSAGES.managedRole(option, role.name);
  if (highest === null) return REACTION_ROW_MESSAGES.botHasNoRole(option, role.name);
  if (role.id === highest.id) return REACTION_ROW_MESSAGES.roleIsBotsHighest(option, role.name);
  return REACTION_ROW_MESSAGES.roleAboveBot(option, role.name, highest.name);
}

/**
 * What Discord would refuse later, checked before anything is stored: a role the bot cannot
 * give (managed, or not below its highest role) and a custom emoji of another server. The
 * body's role ids are the guild's already (the route's guildRefs) and its emojis parse (the
 * body schema). Every problem, option by option.
 */
async function optionProblems(
  resources: GuildResources,
  guildId: string,
  options: readonly OptionToCheck[],
): Promise<OptionProblem[]> {
  if (options.length === 0) return [];
  const checked = options.map((option) => {
    const emojiText = option.emoji?.trim() ?? '';
    const emoji: MenuEmoji | null = emojiText === '' ? null : parseMenuEmoji(emojiText);
    return { ...option, roleId: option.role_id.trim(), emojiText, customId: emoji?.id ?? null };
  });
  const hasCustom = checked.some((option) => option.customId !== null);
  const [hierarchy, cachedEmojis] = await Promise.all([
    resources.botRoleHierarchy(guildId),
    hasCustom ? resources.customEmojiIds(guildId) : [],
  ]);
  let emojiIds = new Set(cachedEmojis);
  // An emoji uploaded after the list was cached: read the server's emojis again before refusing.
  if (checked.some((option) => option.customId !== null && !emojiIds.has(option.customId))) {
    emojiIds = new Set(await resources.customEmojiIds(guildId, true));
  }
  const roles = new Map(hierarchy.roles.map((role) => [role.id, role]));
  const problems: OptionProblem[] = [];
  for (const option of checked) {
    const role = roles.get(option.roleId);
    const roleMessage = role ? roleProblem(guildId, option.name, role, hierarchy.highest) : null;
    if (roleMessage) problems.push({ path: `${option.path}.role_id`, message: roleMessage });
    if (option.customId !== null && !emojiIds.has(option.customId)) {
      problems.push({
        path: `${option.path}.emoji`,
        message: REACTION_ROW_MESSAGES.foreignEmoji(option.name, option.emojiText),
      });
    }
  }
  return problems;
}

/**
 * Refuses (400, every problem in `issues`, the first in the message) options whose role the bot
 * cannot give or whose custom emoji is not this server's.
 */
export async function assertOptionsGivable(
  resources: GuildResources,
  guildId: string,
  options: readonly OptionToCheck[],
): Promise<void> {
  const problems = await optionProblems(resources, guildId, options);
  const [first] = problems;
  if (first) throw new ApiError('invalid_input', first.message, problems);
}
