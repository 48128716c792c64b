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
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { enqueueGuildJob } from '../services/jobs.ts';
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
    await assertOptionsGivable(
      guildResources,
      params.guildId,
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
      params.guildId,
      { color_roles: body.color_roles.map(toEntry), personality_roles: body.personality_roles.map(toEntry) },
      session.user.id,
    );
    // Posted panels follow the lists: the repair edits them, re-posts, fixes reactions, and
    // deletes the panel of a list now empty. Nothing posted: the next Post does it all.
    const lists = await loadReactionLists(db, params.guildId);
    if (REACTION_LISTS.some((list) => (lists[list]?.messageIds.length ?? 0) > 0)) {
      await queueMenusRepair(
        queue,
        request.log,
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
