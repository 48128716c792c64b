import {
  REACTION_LISTS,
  REACTION_PANEL_MESSAGES,
  type ReactionList,
  type ReactionRoleEntry,
  type ReactionRolesState,
  reactionRowName,
  routes,
} from '@spacecadet/contract';
import type { RoleMenuOption } from '@spacecadet/core';
import type { Db, RoleMenuRow } from '@spacecadet/db';
import {
  loadReactionLists,
  saveReactionListChannel,
  saveReactionLists,
} from '@spacecadet/db/queries/role-menus';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { channelLabel } from '../history/route-checks.ts';
import type { AppServices } from '../services/container.ts';
import { enqueueGuildJob, type JobRequester } from '../services/jobs.ts';
import { assertOptionsGivable, postedLocation, queueMenusRepair } from '../services/role-menus.ts';
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

/** The two lists as the PUT body gives them: what a history entry of an edit records. */
export type ReactionListsState = Record<ReactionList, ReactionRoleEntry[]>;
/** Each list's panel channel (null: none picked). */
export type ReactionChannelsState = Record<ReactionList, string | null>;

export async function readReactionListsState(db: Db, guildId: string): Promise<ReactionListsState> {
  const lists = await loadReactionLists(db, guildId);
  return {
    color_roles: (lists.color_roles?.options ?? []).map(fromOption),
    personality_roles: (lists.personality_roles?.options ?? []).map(fromOption),
  };
}

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

const LIST_NAMES: Record<ReactionList, string> = {
  color_roles: 'color roles',
  personality_roles: 'personality roles',
};

/** "Edited the reaction-role lists: color roles 3 -> 4 rows". */
function listsSummary(before: ReactionListsState, after: ReactionListsState): string {
  const changed = REACTION_LISTS.filter(
    (list) => JSON.stringify(before[list]) !== JSON.stringify(after[list]),
  ).map((list) => `${LIST_NAMES[list]} (${before[list].length} -> ${after[list].length} rows)`);
  return changed.length === 0
    ? 'Saved the reaction-role lists unchanged'
    : `Edited the reaction-role lists: ${changed.join(', ')}`;
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

  defineRoute(
    app,
    routes.putReactionRoles,
    async ({ params, body, session, requester, request, history }) => {
      const before = await readReactionListsState(db, params.guildId);
      const after: ReactionListsState = {
        color_roles: body.color_roles.map(toEntry),
        personality_roles: body.personality_roles.map(toEntry),
      };
      const updatedAt = await writeReactionLists(
        app.services,
        params.guildId,
        after,
        session.user.id,
        requester,
        request.log,
      );
      history.state('reaction_roles:lists', before, after, listsSummary(before, after));
      return { updated_by: session.user.id, updated_at: updatedAt.toISOString() };
    },
  );

  defineRoute(app, routes.setReactionListChannel, async ({ params, body, session, history }) => {
    const before = await readReactionChannelsState(db, params.guildId);
    await writeReactionChannels(db, params.guildId, { [body.list]: body.channel_id }, session.user.id);
    const label = await channelLabel(guildResources, params.guildId, body.channel_id);
    history.state(
      'reaction_roles:channel',
      before,
      { ...before, [body.list]: body.channel_id },
      `Set the ${LIST_NAMES[body.list]} reaction panel channel to ${label}`,
    );
    return { list: body.list, channel_id: body.channel_id };
  });

  defineRoute(app, routes.postReactionPanels, async ({ params, requester, history }) => {
    await requirePostable(db, params.guildId);
    history.describe({
      subject: 'reaction_roles:panels',
      summary: 'Posted (or updated) the reaction-role panels',
    });
    return {
      job_id: await enqueueGuildJob(queue, 'reaction-roles.post-panel', params.guildId, requester, {
        afterChange: true,
      }),
    };
  });
}
