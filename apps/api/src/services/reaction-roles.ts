import {
  REACTION_LISTS,
  REACTION_PANEL_MESSAGES,
  type ReactionList,
  type ReactionRoleEntry,
  type ReactionRolesState,
  reactionRowName,
} from '@spacecadet/contract';
import type { RoleMenuOption } from '@spacecadet/core';
import type { Db, RoleMenuRow } from '@spacecadet/db';
import {
  loadReactionLists,
  saveReactionListChannel,
  saveReactionLists,
} from '@spacecadet/db/queries/role-menus';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../errors.ts';
import type { AppServices } from './container.ts';
import type { JobRequester } from './jobs.ts';
import { assertOptionsGivable, postedLocation, queueMenusRepair } from './role-menu-rows.ts';

/**
 * The Reaction Roles editor's reads and writes, shared by its routes and their undo (history's
 * `restore-reaction-roles.ts`): the two lists (role menus of style `reactions`), each list's
 * panel channel, and whether there is something to post.
 */

interface ReactionRowInput {
  emoji: string;
  role_id: string;
  label?: string | undefined;
  description?: string | undefined;
}

/** Stored as the dashboard shows them: trimmed, optional fields only when given. */
export function toEntry(row: ReactionRowInput): ReactionRoleEntry {
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
    panels: {
      color_roles: postedLocation(lists.color_roles),
      personality_roles: postedLocation(lists.personality_roles),
    },
    updated_at: latest ? latest.updatedAt.toISOString() : null,
    updated_by: latest ? latest.updatedBy : null,
  };
}

/** Whether Post / Update panels has something to post: a list with rows and a channel. */
export async function requirePostable(db: Db, guildId: string): Promise<void> {
  const lists = await loadReactionLists(db, guildId);
  const withRows = REACTION_LISTS.map((list) => lists[list]).filter(
    (row): row is RoleMenuRow => row !== null && row.options.length > 0,
  );
  if (withRows.length === 0) throw new ApiError('invalid_input', REACTION_PANEL_MESSAGES.noRows);
  if (!withRows.some((row) => row.channelId)) {
    throw new ApiError('invalid_input', REACTION_PANEL_MESSAGES.noChannel);
  }
}

/** The two lists as the PUT body gives them: what a history entry of an edit records. */
export type ReactionListsState = Record<ReactionList, ReactionRoleEntry[]>;
/** Each list's panel channel (null: none picked). */
export type ReactionChannelsState = Record<ReactionList, string | null>;

/** The two lists now, in the shape their history records. */
export async function readReactionListsState(db: Db, guildId: string): Promise<ReactionListsState> {
  const lists = await loadReactionLists(db, guildId);
  return {
    color_roles: (lists.color_roles?.options ?? []).map(fromOption),
    personality_roles: (lists.personality_roles?.options ?? []).map(fromOption),
  };
}

/** Each list's panel channel now. */
export async function readReactionChannelsState(db: Db, guildId: string): Promise<ReactionChannelsState> {
  const lists = await loadReactionLists(db, guildId);
  return {
    color_roles: lists.color_roles?.channelId ?? null,
    personality_roles: lists.personality_roles?.channelId ?? null,
  };
}

/**
 * Stores both lists (their roles checked givable) and brings posted panels along: the PUT route
 * and its undo. The body's ids were checked the guild's by the route's `guildRefs`.
 */
export async function writeReactionLists(
  services: Pick<AppServices, 'db' | 'queue' | 'guildResources'>,
  guildId: string,
  body: ReactionListsState,
  userId: string,
  requester: JobRequester,
  log: FastifyBaseLogger,
): Promise<Date> {
  const { db, queue, guildResources } = services;
  await assertOptionsGivable(
    guildResources,
    guildId,
    REACTION_LISTS.flatMap((list) =>
      body[list].map((row, index) => ({
        ...row,
        path: `${list}.${index}`,
        name: reactionRowName(list, index),
      })),
    ),
  );
  const updatedAt = await saveReactionLists(
    db,
    guildId,
    { color_roles: body.color_roles.map(toEntry), personality_roles: body.personality_roles.map(toEntry) },
    userId,
  );
  // Posted panels follow the lists: the repair edits them, re-posts, fixes reactions, and
  // deletes the panel of a list now empty. Nothing posted: the next Post does it all.
  const lists = await loadReactionLists(db, guildId);
  if (REACTION_LISTS.some((list) => (lists[list]?.messageIds.length ?? 0) > 0)) {
    await queueMenusRepair(queue, log, guildId, requester, 'the 5-minute safety net updates the panels');
  }
  return updatedAt;
}

/** Stores the lists' channels that differ from the stored ones (the channel route and its undo). */
export async function writeReactionChannels(
  db: Db,
  guildId: string,
  channels: Partial<ReactionChannelsState>,
  userId: string,
): Promise<void> {
  const stored = await readReactionChannelsState(db, guildId);
  for (const list of REACTION_LISTS) {
    const channelId = channels[list];
    if (channelId === undefined || channelId === stored[list]) continue;
    await saveReactionListChannel(db, guildId, list, channelId, userId);
  }
}

/** What the Reaction Roles editor shows: both lists, their channels and posted panels. */
export async function readReactionRolesState(db: Db, guildId: string): Promise<ReactionRolesState> {
  return toState(await loadReactionLists(db, guildId));
}
