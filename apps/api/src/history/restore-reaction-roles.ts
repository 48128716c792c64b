import { REACTION_LISTS, routes } from '@spacecadet/contract';
import {
  type ReactionChannelsState,
  type ReactionListsState,
  readReactionChannelsState,
  readReactionListsState,
  writeReactionChannels,
  writeReactionLists,
} from '../services/reaction-roles.ts';
import type { AreaRestorers } from './restorers.ts';
import { checkAsRoute, undoUserId } from './route-checks.ts';

const NO_LISTS: ReactionListsState = { color_roles: [], personality_roles: [] };
const NO_CHANNELS: ReactionChannelsState = { color_roles: null, personality_roles: null };

/**
 * Undo of reaction roles changes (see `restorers.ts`): the two lists (the PUT body's shape), and
 * each list's panel channel.
 */
export const reactionRoleRestorers: AreaRestorers = {
  state: {
    'reaction_roles:lists': {
      read: (context) => readReactionListsState(context.app.services.db, context.guildId),
      async restore(context, _id, state) {
        const lists = (state as ReactionListsState | null) ?? NO_LISTS;
        await checkAsRoute(context, routes.putReactionRoles, lists);
        await writeReactionLists(
          context.app.services,
          context.guildId,
          lists,
          undoUserId(context),
          context.requester,
          context.request.log,
        );
        return {};
      },
    },
    'reaction_roles:channel': {
      read: (context) => readReactionChannelsState(context.app.services.db, context.guildId),
      async restore(context, _id, state) {
        const channels = (state as ReactionChannelsState | null) ?? NO_CHANNELS;
        const now = await readReactionChannelsState(context.app.services.db, context.guildId);
        // Only the channels the undo changes are checked (as the route checks the one it sets).
        for (const list of REACTION_LISTS) {
          const channelId = channels[list];
          if (channelId !== null && channelId !== now[list])
            await checkAsRoute(context, routes.setReactionListChannel, { channel_id: channelId });
        }
        await writeReactionChannels(context.app.services.db, context.guildId, channels, undoUserId(context));
        return {};
      },
    },
  },
  snapshot: {},
};
