import { REACTION_LISTS, type ReactionList, routes } from '@spacecadet/contract';
import type { FastifyInstance } from 'fastify';
import { channelLabel } from '../history/route-checks.ts';
import { enqueueGuildJob } from '../services/jobs.ts';
import {
  type ReactionListsState,
  readReactionChannelsState,
  readReactionListsState,
  readReactionRolesState,
  requirePostable,
  toEntry,
  writeReactionChannels,
  writeReactionLists,
} from '../services/reaction-roles.ts';
import { defineRoute } from './define.ts';

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

  defineRoute(app, routes.getReactionRoles, async ({ params }) => readReactionRolesState(db, params.guildId));

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
