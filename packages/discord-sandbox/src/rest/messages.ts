import { PermissionFlagsBits as P } from 'discord-api-types/v10';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxContext } from '../context.ts';
import type { SandboxChannel, SandboxGuild } from '../fixture.ts';
import { buildMessage, deleteMessage, messageUpdated, postMessage } from '../message-mutations.ts';
import { channelPermissions, hasAll } from '../permissions.ts';
import { resolveAttachments, uploadsOf } from './attachments.ts';
import { discordError, missingPermissions } from './discord-errors.ts';
import { listDmMessages, postDmMessage } from './dms.ts';
import { requireBot } from './http.ts';
import { applyMessageEdit, type BodyProblem, type MessageBody, validateMessageBody } from './message-body.ts';
import { nonceOf, rememberNonce, repeatedNonceAnswer } from './message-nonce.ts';

type ChannelParams = { channelId: string };
export type MessageParams = ChannelParams & { messageId: string };

export function sendProblem(reply: FastifyReply, problem: BodyProblem): FastifyReply {
  return discordError(reply, problem.status, problem.code, problem.message, problem.errors);
}

/**
 * The text channel the bot acts in, with Discord's answers: 50001 Missing Access when the bot
 * cannot see it, 403 50013 when it lacks one of `needed` there (overwrites included).
 */
export function botChannel(
  ctx: SandboxContext,
  channelId: string,
  reply: FastifyReply,
  needed = 0n,
): { guild: SandboxGuild; channel: SandboxChannel; bits: bigint } | null {
  const { state } = ctx;
  const found = state.guildOfChannel(channelId);
  if (!found) {
    discordError(reply, 404, 10003, 'Unknown Channel');
    return null;
  }
  if (!state.botIsIn(found.guild)) {
    discordError(reply, 403, 50001, 'Missing Access');
    return null;
  }
  const bits = channelPermissions(found.guild, found.channel, state.application.id);
  if ((bits & P.ViewChannel) === 0n) {
    discordError(reply, 403, 50001, 'Missing Access');
    return null;
  }
  // Text channels, and voice channels' own text chat (Discord's text-in-voice).
  if (found.channel.type !== 0 && found.channel.type !== 2) {
    discordError(reply, 400, 50008, 'Cannot send messages in a non-text channel');
    return null;
  }
  if (!hasAll(bits, needed)) {
    missingPermissions(reply);
    return null;
  }
  return { ...found, bits };
}

/** A message of a channel the bot acts in (see `botChannel`); 404 10008 when there is none. */
export function findMessage(ctx: SandboxContext, params: MessageParams, reply: FastifyReply, needed = 0n) {
  const found = botChannel(ctx, params.channelId, reply, needed);
  if (!found) return null;
  const message = ctx.state.messages.get(found.channel.id)?.find((m) => m.id === params.messageId);
  if (!message) {
    discordError(reply, 404, 10008, 'Unknown Message');
    return null;
  }
  return { ...found, message };
}

/** Channel messages the bot posts, reads, edits and deletes. */
export function registerMessageRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  registerPostMessageRoute(api, ctx);
  registerMessageReadRoutes(api, ctx);
  registerMessageEditRoutes(api, ctx);
}

/** `POST /channels/:c/messages`: the bot posts in a guild channel or a DM. */
function registerPostMessageRoute(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  api.post<{ Params: ChannelParams; Body: MessageBody | undefined }>(
    '/channels/:channelId/messages',
    async (req, reply) => {
      if (!requireBot(ctx, req, reply)) return reply;
      const dm = state.dmChannels.get(req.params.channelId);
      if (dm) return postDmMessage(ctx, dm, req.body ?? {}, reply);
      const found = botChannel(ctx, req.params.channelId, reply, P.SendMessages);
      if (!found) return reply;
      const body = req.body ?? {};
      const problem = validateMessageBody(body, true, true);
      if (problem) return sendProblem(reply, problem);
      if ((body.embeds?.length ?? 0) > 0 && (found.bits & P.EmbedLinks) === 0n)
        return missingPermissions(reply);
      if (uploadsOf(body).length > 0 && (found.bits & P.AttachFiles) === 0n) return missingPermissions(reply);
      const repeated = repeatedNonceAnswer(state, body, reply);
      if (repeated) return repeated;
      const files = resolveAttachments(state, ctx.url(), found.channel.id, body, null);
      if (!('attachments' in files)) return sendProblem(reply, files);
      const message = buildMessage(state, {
        attachments: files.attachments ?? [],
        channel_id: found.channel.id,
        author_id: state.application.id,
        content: body.content ?? '',
        embeds: body.embeds ?? [],
        components: body.components ?? [],
        flags: body.flags ?? 0,
      });
      const nonce = nonceOf(body);
      if (nonce !== null) rememberNonce(state, state.application.id, nonce, message);
      return postMessage(state, found.guild, message, body.nonce);
    },
  );
}

/** Reading a channel's messages, a page or one by id. */
function registerMessageReadRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  api.get<{ Params: ChannelParams; Querystring: { limit?: string; before?: string; after?: string } }>(
    '/channels/:channelId/messages',
    async (req, reply) => {
      if (!requireBot(ctx, req, reply)) return reply;
      const dm = state.dmChannels.get(req.params.channelId);
      if (dm) return listDmMessages(state, dm, req.query);
      const found = botChannel(ctx, req.params.channelId, reply);
      if (!found) return reply;
      // Without Read Message History Discord answers an empty list.
      if ((found.bits & P.ReadMessageHistory) === 0n) return [];
      const limit = Math.min(100, Math.max(1, Number(req.query.limit ?? 50) || 50));
      const before = req.query.before ? BigInt(req.query.before) : null;
      const after = req.query.after ? BigInt(req.query.after) : null;
      return [...(state.messages.get(found.channel.id) ?? [])]
        .filter((m) => (before === null || BigInt(m.id) < before) && (after === null || BigInt(m.id) > after))
        .reverse()
        .slice(0, limit);
    },
  );

  api.get<{ Params: MessageParams }>('/channels/:channelId/messages/:messageId', async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    return findMessage(ctx, req.params, reply, P.ReadMessageHistory)?.message ?? reply;
  });
}

/** Editing and deleting a message, and the typing indicator. */
function registerMessageEditRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  api.patch<{ Params: MessageParams; Body: MessageBody | undefined }>(
    '/channels/:channelId/messages/:messageId',
    async (req, reply) => {
      if (!requireBot(ctx, req, reply)) return reply;
      const found = findMessage(ctx, req.params, reply);
      if (!found) return reply;
      if (found.message.author.id !== state.application.id) {
        return discordError(reply, 403, 50005, 'Cannot edit a message authored by another user');
      }
      const body = req.body ?? {};
      const problem = validateMessageBody(body, false);
      if (problem) return sendProblem(reply, problem);
      if ((body.embeds?.length ?? 0) > 0 && (found.bits & P.EmbedLinks) === 0n)
        return missingPermissions(reply);
      if (uploadsOf(body).length > 0 && (found.bits & P.AttachFiles) === 0n) return missingPermissions(reply);
      const files = resolveAttachments(state, ctx.url(), found.channel.id, body, found.message.attachments);
      if (!('attachments' in files)) return sendProblem(reply, files);
      applyMessageEdit(found.message, body, new Date(state.now()).toISOString());
      if (files.attachments) found.message.attachments = files.attachments;
      messageUpdated(state, found.guild, found.message);
      return found.message;
    },
  );

  api.delete<{ Params: MessageParams }>('/channels/:channelId/messages/:messageId', async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    const found = findMessage(ctx, req.params, reply);
    if (!found) return reply;
    // Another user's message needs Manage Messages; the bot's own does not.
    if (found.message.author.id !== state.application.id && (found.bits & P.ManageMessages) === 0n) {
      return missingPermissions(reply);
    }
    deleteMessage(state, found.guild, found.channel.id, found.message.id);
    return reply.code(204).send();
  });

  api.post<{ Params: ChannelParams }>('/channels/:channelId/typing', async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    return botChannel(ctx, req.params.channelId, reply, P.SendMessages) ? reply.code(204).send() : reply;
  });
}
