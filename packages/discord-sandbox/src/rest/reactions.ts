import { PermissionFlagsBits as P } from 'discord-api-types/v10';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { userOf } from '../payloads.ts';
import {
  addReaction,
  findReactedEmoji,
  findReactionEmoji,
  type ReactionRefusal,
  reactionRefusal,
  reactors,
  removeAllReactions,
  removeEmojiReactions,
  removeReaction,
  UNKNOWN_EMOJI,
} from '../reactions.ts';
import { discordError, type Issue, invalidFormBody } from './discord-errors.ts';
import { requireBot } from './http.ts';
import { findMessage, type MessageParams } from './messages.ts';

type EmojiParams = MessageParams & { emoji: string };
const BASE = '/channels/:channelId/messages/:messageId/reactions';

export const refuse = (reply: FastifyReply, refusal: ReactionRefusal) =>
  discordError(reply, refusal.status, refusal.code, refusal.message);

/** `limit` (1-100, default 25), `after` and `type` of `GET …/reactions/:emoji`, or Discord's field errors. */
function listQuery(query: {
  limit?: string;
  after?: string;
  type?: string;
}): { issues: Issue[] } | { limit: number; after: bigint; burst: boolean } {
  const issues: Issue[] = [];
  let limit = 25;
  if (query.limit !== undefined) {
    limit = Number(query.limit);
    if (!/^-?\d+$/.test(query.limit)) {
      issues.push({
        path: ['limit'],
        code: 'NUMBER_TYPE_COERCE',
        message: `Value "${query.limit}" is not int.`,
      });
    } else if (limit < 1) {
      issues.push({
        path: ['limit'],
        code: 'NUMBER_TYPE_MIN',
        message: 'int value should be greater than or equal to 1.',
      });
    } else if (limit > 100) {
      issues.push({
        path: ['limit'],
        code: 'NUMBER_TYPE_MAX',
        message: 'int value should be less than or equal to 100.',
      });
    }
  }
  if (query.after !== undefined && !/^\d{1,20}$/.test(query.after)) {
    issues.push({
      path: ['after'],
      code: 'NUMBER_TYPE_COERCE',
      message: `Value "${query.after}" is not snowflake.`,
    });
  }
  if (query.type !== undefined && query.type !== '0' && query.type !== '1') {
    issues.push({ path: ['type'], code: 'BASE_TYPE_CHOICES', message: 'Value must be one of {0, 1}.' });
  }
  if (issues.length > 0) return { issues };
  return { limit, after: BigInt(query.after ?? '0'), burst: query.type === '1' };
}

/**
 * Message reactions as Discord has them: the bot adds and removes its own (`/@me`), removes
 * another user's, all of one emoji or all of them (Manage Messages), and lists who reacted.
 * The emoji is URL-encoded unicode or `name:id`; an unknown one is 400 10014.
 */
export function registerReactionRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  const botId = () => state.application.id;

  /** The message and the emoji a route names (a reaction the message carries counts as known). */
  const target = (req: FastifyRequest<{ Params: EmojiParams }>, reply: FastifyReply, needed = 0n) => {
    if (!requireBot(ctx, req, reply)) return null;
    const found = findMessage(ctx, req.params, reply, needed);
    if (!found) return null;
    const emoji = findReactedEmoji(state, found.guild, found.message, req.params.emoji);
    if (!emoji) {
      refuse(reply, UNKNOWN_EMOJI);
      return null;
    }
    return { ...found, emoji };
  };

  api.put<{ Params: EmojiParams }>(`${BASE}/:emoji/@me`, async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    const found = findMessage(ctx, req.params, reply);
    if (!found) return reply;
    const emoji = findReactionEmoji(state, found.guild, botId(), req.params.emoji);
    if (!emoji) return refuse(reply, UNKNOWN_EMOJI);
    const refusal = reactionRefusal(state, found.guild, found.channel, found.message, botId(), emoji);
    if (refusal) return refuse(reply, refusal);
    addReaction(state, found.guild, found.message, emoji.emoji, botId());
    return reply.code(204).send();
  });

  api.delete<{ Params: EmojiParams }>(`${BASE}/:emoji/@me`, async (req, reply) => {
    const found = target(req, reply);
    if (!found) return reply;
    removeReaction(state, found.guild, found.message, found.emoji, botId());
    return reply.code(204).send();
  });

  api.delete<{ Params: EmojiParams & { userId: string } }>(`${BASE}/:emoji/:userId`, async (req, reply) => {
    const found = target(req, reply, P.ManageMessages);
    if (!found) return reply;
    removeReaction(state, found.guild, found.message, found.emoji, req.params.userId);
    return reply.code(204).send();
  });

  api.get<{ Params: EmojiParams; Querystring: { limit?: string; after?: string; type?: string } }>(
    `${BASE}/:emoji`,
    async (req, reply) => {
      const found = target(req, reply, P.ReadMessageHistory);
      if (!found) return reply;
      const query = listQuery(req.query);
      if ('issues' in query) return invalidFormBody(reply, query.issues);
      // Burst (super) reactions are not imitated, so nobody is listed for type 1.
      if (query.burst) return [];
      return [...reactors(state, found.message, found.emoji)]
        .filter((id) => BigInt(id) > query.after)
        .sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))
        .slice(0, query.limit)
        .map((id) => userOf(state, id));
    },
  );

  api.delete<{ Params: EmojiParams }>(`${BASE}/:emoji`, async (req, reply) => {
    const found = target(req, reply, P.ManageMessages);
    if (!found) return reply;
    removeEmojiReactions(state, found.guild, found.message, found.emoji);
    return reply.code(204).send();
  });

  api.delete<{ Params: MessageParams }>(BASE, async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    const found = findMessage(ctx, req.params, reply, P.ManageMessages);
    if (!found) return reply;
    removeAllReactions(state, found.guild, found.message);
    return reply.code(204).send();
  });
}
