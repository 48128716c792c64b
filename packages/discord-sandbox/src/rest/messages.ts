import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxContext } from '../context.ts';
import type { SandboxChannel, SandboxGuild } from '../fixture.ts';
import { buildMessage, deleteMessage, messageUpdated, postMessage } from '../mutations.ts';
import { discordError, requireBot } from './http.ts';
import { applyMessageEdit, type BodyProblem, type MessageBody, validateMessageBody } from './message-body.ts';

type ChannelParams = { channelId: string };
type MessageParams = ChannelParams & { messageId: string };

export function sendProblem(reply: FastifyReply, problem: BodyProblem): FastifyReply {
  return discordError(reply, problem.status, problem.code, problem.message, problem.errors);
}

/** Channel messages the bot posts, reads, edits and deletes. */
export function registerMessageRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  const botChannel = (
    channelId: string,
    reply: FastifyReply,
  ): { guild: SandboxGuild; channel: SandboxChannel } | null => {
    const found = state.guildOfChannel(channelId);
    if (!found) {
      discordError(reply, 404, 10003, 'Unknown Channel');
      return null;
    }
    if (!state.botIsIn(found.guild)) {
      discordError(reply, 403, 50001, 'Missing Access');
      return null;
    }
    if (found.channel.type !== 0) {
      discordError(reply, 400, 50008, 'Cannot send messages in a non-text channel');
      return null;
    }
    return found;
  };

  api.post<{ Params: ChannelParams; Body: MessageBody | undefined }>(
    '/channels/:channelId/messages',
    async (req, reply) => {
      if (!requireBot(ctx, req, reply)) return reply;
      const found = botChannel(req.params.channelId, reply);
      if (!found) return reply;
      const body = req.body ?? {};
      const problem = validateMessageBody(body, true);
      if (problem) return sendProblem(reply, problem);
      const message = buildMessage(state, {
        channel_id: found.channel.id,
        author_id: state.application.id,
        content: body.content ?? '',
        embeds: body.embeds ?? [],
        components: body.components ?? [],
        flags: body.flags ?? 0,
      });
      return postMessage(state, found.guild, message);
    },
  );

  api.get<{ Params: ChannelParams; Querystring: { limit?: string; before?: string; after?: string } }>(
    '/channels/:channelId/messages',
    async (req, reply) => {
      if (!requireBot(ctx, req, reply)) return reply;
      const found = botChannel(req.params.channelId, reply);
      if (!found) return reply;
      const limit = Math.min(100, Math.max(1, Number(req.query.limit ?? 50) || 50));
      const before = req.query.before ? BigInt(req.query.before) : null;
      const after = req.query.after ? BigInt(req.query.after) : null;
      return [...(state.messages.get(found.channel.id) ?? [])]
        .filter((m) => (before === null || BigInt(m.id) < before) && (after === null || BigInt(m.id) > after))
        .reverse()
        .slice(0, limit);
    },
  );

  const findMessage = (params: MessageParams, reply: FastifyReply) => {
    const found = botChannel(params.channelId, reply);
    if (!found) return null;
    const message = state.messages.get(found.channel.id)?.find((m) => m.id === params.messageId);
    if (!message) {
      discordError(reply, 404, 10008, 'Unknown Message');
      return null;
    }
    return { ...found, message };
  };

  api.get<{ Params: MessageParams }>('/channels/:channelId/messages/:messageId', async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    return findMessage(req.params, reply)?.message ?? reply;
  });

  api.patch<{ Params: MessageParams; Body: MessageBody | undefined }>(
    '/channels/:channelId/messages/:messageId',
    async (req, reply) => {
      if (!requireBot(ctx, req, reply)) return reply;
      const found = findMessage(req.params, reply);
      if (!found) return reply;
      if (found.message.author.id !== state.application.id) {
        return discordError(reply, 403, 50005, 'Cannot edit a message authored by another user');
      }
      const body = req.body ?? {};
      const problem = validateMessageBody(body, false);
      if (problem) return sendProblem(reply, problem);
      applyMessageEdit(found.message, body, new Date(state.now()).toISOString());
      messageUpdated(state, found.guild, found.message);
      return found.message;
    },
  );

  api.delete<{ Params: MessageParams }>('/channels/:channelId/messages/:messageId', async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    const found = findMessage(req.params, reply);
    if (!found) return reply;
    deleteMessage(state, found.guild, found.channel.id, found.message.id);
    return reply.code(204).send();
  });

  api.post<{ Params: ChannelParams }>('/channels/:channelId/typing', async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    return botChannel(req.params.channelId, reply) ? reply.code(204).send() : reply;
  });
}
