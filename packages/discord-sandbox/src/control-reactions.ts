import { PermissionFlagsBits as P } from 'discord-api-types/v10';
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from './context.ts';
import { controlError } from './control-error.ts';
import { channelPermissions } from './permissions.ts';
import { addReaction, findReactionEmoji, reactionRefusal, removeReaction } from './reactions.ts';
import { findInteractionPlace } from './simulate-interaction.ts';

interface ReactionBody {
  guild_id?: string;
  channel_id?: string;
  message_id?: string;
  user_id?: string;
  emoji?: string;
}

/** Discord's refusal codes as the control API names them. */
const REFUSALS: Record<number, string> = {
  10014: 'unknown_emoji',
  30010: 'max_reactions',
  50013: 'missing_permissions',
  90001: 'reaction_blocked',
};

/**
 * `POST` / `DELETE /_sandbox/reactions`: a member adds or takes away a reaction (emoji as a
 * unicode string or `name:id`), held to the checks Discord makes for a user; the answer is the
 * message's reactions as `GET /_sandbox/state` shows them. `PUT` / `DELETE
 * /_sandbox/users/:u/blocks/:t`: a user blocks or unblocks another, whose reactions to the
 * user's messages are then refused (90001).
 */
export function registerReactionControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  for (const method of ['POST', 'DELETE'] as const) {
    app.route<{ Body: ReactionBody | undefined }>({
      method,
      url: '/_sandbox/reactions',
      handler: async (req, reply) => {
        const body = req.body ?? {};
        const place = findInteractionPlace(state, body);
        if ('status' in place) return controlError(reply, place.status, place.error, place.message);
        const { guild, channel, member } = place;
        const message = state.messages.get(channel.id)?.find((m) => m.id === body.message_id);
        if (!message) return controlError(reply, 404, 'unknown_message', 'No such message in that channel');
        if ((channelPermissions(guild, channel, member.user_id) & P.ViewChannel) === 0n) {
          return controlError(reply, 403, 'missing_permissions', 'The member cannot see that channel');
        }
        const emoji =
          typeof body.emoji === 'string' ? findReactionEmoji(state, guild, member.user_id, body.emoji) : null;
        if (!emoji) {
          return controlError(
            reply,
            400,
            'unknown_emoji',
            '"emoji" must be a unicode emoji or name:id of one of the guild\'s emojis',
          );
        }
        if (method === 'POST') {
          const refusal = reactionRefusal(state, guild, channel, message, member.user_id, emoji);
          if (refusal) {
            return controlError(reply, refusal.status, REFUSALS[refusal.code] ?? 'refused', refusal.message);
          }
          addReaction(state, guild, message, emoji.emoji, member.user_id);
        } else {
          removeReaction(state, guild, message, emoji.emoji, member.user_id);
        }
        return { reactions: state.shownReactions(message) };
      },
    });
  }

  for (const method of ['PUT', 'DELETE'] as const) {
    app.route<{ Params: { userId: string; targetId: string } }>({
      method,
      url: '/_sandbox/users/:userId/blocks/:targetId',
      handler: async (req, reply) => {
        const { userId, targetId } = req.params;
        if (!state.users.has(userId) || !state.users.has(targetId)) {
          return controlError(reply, 404, 'unknown_user', 'No such user');
        }
        const blocked = state.blocks.get(userId) ?? new Set<string>();
        if (method === 'PUT') blocked.add(targetId);
        else blocked.delete(targetId);
        state.blocks.set(userId, blocked);
        return { user_id: userId, blocked_user_ids: [...blocked] };
      },
    });
  }
}
