import {
  type MenuEmoji,
  parseMenuEmoji,
  REACTION_LISTS,
  REACTION_PANEL_MESSAGES,
  REACTION_ROW_MESSAGES,
  type ReactionList,
  type ReactionPanelLocation,
  type ReactionRoleEntry,
  type ReactionRolesState,
  reactionRowName,
  routes,
} from '@spacecadet/contract';
import { type RoleMenuOption, roleGrantRefusal } from '@spacecadet/core';
import type { Db, RoleMenuRow } from '@spacecadet/db';
import {
  loadReactionLists,
  saveReactionListChannel,
  saveReactionLists,
} from '@spacecadet/db/queries/role-menus';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import type { DiscordRole } from '../services/discord.ts';
import type { GuildResources } from '../services/guild-resources.ts';
import { enqueueGuildJob, followUpGuildJob } from '../services/jobs.ts';
import { defineRoute } from './define.ts';

interface ReactionRowInput {
  emoji: string;
  role_id: string;
  label?: string | undefined;
  description?: string | undefined;
}

/** Stored as the dashboard shows them: trimmed, optional fields only when given. */
function toEntry(row: ReactionRowInput): ReactionRoleEntry {
  return {
    emoji: row.emoji.trim(),
    role_id: row.role_id.trim(),
    ...(row.label === undefined ? {} : { label: row.label }),
    ...(row.description === undefined ? {} : { description: row.description }),
  };
}

/** A stored option in the editor's shape (a list's rows always have an emoji). */
function fromOption(option: RoleMenuOption): ReactionRoleEntry {
  return toEntry({ ...option, emoji: option.emoji ?? '' });
}

function panelOf(row: RoleMenuRow | null): ReactionPanelLocation | null {
  if (!row?.messageChannelId || row.messageIds.length === 0) return null;
  return { channel_id: row.messageChannelId, message_ids: row.messageIds };
}

/** The editor's state from the two list rows (the later write answers `updated_*`). */
function toState(lists: Record<ReactionList, RoleMenuRow | null>): ReactionRolesState {
  const rows = REACTION_LISTS.map((list) => lists[list]).filter((row) => row !== null);
  const latest = rows.reduce<RoleMenuRow | null>(
    (last, row) => (last === null || row.updatedAt > last.updatedAt ? row : last),
    null,
  );
  return {
    color_roles: (lists.color_roles?.options ?? []).map(fromOption),
    personality_roles: (lists.personality_roles?.options ?? []).map(fromOption),
    channels: {
      color_roles: lists.color_roles?.channelId ?? null,
      personality_roles: lists.personality_roles?.channelId ?? null,
    },
    panels: { color_roles: panelOf(lists.color_roles), personality_roles: panelOf(lists.personality_roles) },
    updated_at: latest ? latest.updatedAt.toISOString() : null,
    updated_by: latest ? latest.updatedBy : null,
  };
}

interface RowProblem {
  path: string;
  message: string;
}

/**
 * Why the bot could not give `role` (its highest role is `highest`), or null when it can: core's
 * `roleGrantRefusal` decides, this names it (@everyone is refused earlier, by the guild-ref check).
 */
function roleProblem(
  guildId: string,
  row: string,
  role: DiscordRole,
  highest: DiscordRole | null,
): string | null {
  const refusal = roleGrantRefusal(role, guildId, highest?.position ?? 0);
  if (refusal === null) return null;
  if (refusal === 'managed') return REACTION_ROW_MESSAGES.managedRole(row, role.name);
  if (highest === null) return REACTION_ROW_MESSAGES.botHasNoRole(row, role.name);
  if (role.id === highest.id) return REACTION_ROW_MESSAGES.roleIsBotsHighest(row, role.name);
  return REACTION_ROW_MESSAGES.roleAboveBot(row, role.name, highest.name);
}

/**
 * What Discord would refuse later, checked before anything is stored: a role the bot cannot
 * give (managed, or not below its highest role) and a custom emoji of another server. The
 * body's role ids are the guild's already (the route's guildRefs). Every problem, row by row.
 */
async function rowProblems(
  resources: GuildResources,
  guildId: string,
  lists: Record<ReactionList, ReactionRowInput[]>,
): Promise<RowProblem[]> {
  const rows = REACTION_LISTS.flatMap((list) =>
    lists[list].map((row, index) => ({
      list,
      index,
      name: reactionRowName(list, index),
      roleId: row.role_id.trim(),
      emojiText: row.emoji.trim(),
      // The body schema refused a row whose emoji does not parse.
      emoji: parseMenuEmoji(row.emoji) as MenuEmoji,
    })),
  );
  if (rows.length === 0) return [];
  const hasCustom = rows.some((row) => row.emoji.id !== null);
  const [hierarchy, cachedEmojis] = await Promise.all([
    resources.botRoleHierarchy(guildId),
    hasCustom ? resources.customEmojiIds(guildId) : [],
  ]);
  let emojiIds = new Set(cachedEmojis);
  // An emoji uploaded after the list was cached: read the server's emojis again before refusing.
  if (rows.some((row) => row.emoji.id !== null && !emojiIds.has(row.emoji.id))) {
    emojiIds = new Set(await resources.customEmojiIds(guildId, true));
  }
  const roles = new Map(hierarchy.roles.map((role) => [role.id, role]));
  const problems: RowProblem[] = [];
  for (const row of rows) {
    const role = roles.get(row.roleId);
    const roleMessage = role ? roleProblem(guildId, row.name, role, hierarchy.highest) : null;
    if (roleMessage) problems.push({ path: `${row.list}.${row.index}.role_id`, message: roleMessage });
    if (row.emoji.id !== null && !emojiIds.has(row.emoji.id)) {
      problems.push({
        path: `${row.list}.${row.index}.emoji`,
        message: REACTION_ROW_MESSAGES.foreignEmoji(row.name, row.emojiText),
      });
    }
  }
  return problems;
}

/** Whether Post / Update panels has something to post: a list with rows and a channel. */
async function requirePostable(db: Db, guildId: string): Promise<void> {
  const lists = await loadReactionLists(db, guildId);
  const withRows = REACTION_LISTS.map((list) => lists[list]).filter(
    (row): row is RoleMenuRow => row !== null && row.options.length > 0,
  );
  if (withRows.length === 0) throw new ApiError('invalid_input', REACTION_PANEL_MESSAGES.noRows);
  if (!withRows.some((row) => row.channelId)) {
    throw new ApiError('invalid_input', REACTION_PANEL_MESSAGES.noChannel);
  }
}

/**
 * The Reaction Roles editor: two lists (role menus of style `reactions`), the channel of each
 * list's panel, and posting the panels (the worker's `reaction-roles.post-panel`).
 */
export function registerReactionRoleRoutes(app: FastifyInstance): void {
  const { db, queue, guildResources } = app.services;

  defineRoute(app, routes.getReactionRoles, async ({ params }) =>
    toState(await loadReactionLists(db, params.guildId)),
  );

  defineRoute(app, routes.putReactionRoles, async ({ params, body, session, requester, request }) => {
    const problems = await rowProblems(guildResources, params.guildId, body);
    const [first] = problems;
    if (first) throw new ApiError('invalid_input', first.message, problems);
    const updatedAt = await saveReactionLists(
      db,
      params.guildId,
      { color_roles: body.color_roles.map(toEntry), personality_roles: body.personality_roles.map(toEntry) },
      session.user.id,
    );
    // Posted panels follow the lists: the repair edits them, re-posts, fixes reactions, and
    // deletes the panel of a list now empty. Nothing posted: the next Post does it all.
    const lists = await loadReactionLists(db, params.guildId);
    if (REACTION_LISTS.some((list) => (lists[list]?.messageIds.length ?? 0) > 0)) {
      await followUpGuildJob(
        queue,
        request.log,
        'role-menus.repair',
        params.guildId,
        requester,
        'the 5-minute safety net updates the panels',
      );
    }
    return { updated_by: session.user.id, updated_at: updatedAt.toISOString() };
  });

  defineRoute(app, routes.setReactionListChannel, async ({ params, body, session }) => {
    await saveReactionListChannel(db, params.guildId, body.list, body.channel_id, session.user.id);
    return { list: body.list, channel_id: body.channel_id };
  });

  defineRoute(app, routes.postReactionPanels, async ({ params, requester }) => {
    await requirePostable(db, params.guildId);
    return {
      job_id: await enqueueGuildJob(queue, 'reaction-roles.post-panel', params.guildId, requester, {
        afterChange: true,
      }),
    };
  });
}
