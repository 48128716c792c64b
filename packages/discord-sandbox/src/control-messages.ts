/** `/_sandbox/channels/:c/messages/*`: a moderator deleting messages, one or in bulk. */
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from './context.ts';
import { controlError } from './control-error.ts';
import { deleteMessage, deleteMessages } from './message-mutations.ts';

/** An admin deletes a message (MESSAGE_DELETE) or purges several (one MESSAGE_DELETE_BULK). */
export function registerMessageControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  app.delete<{ Params: { channelId: string; messageId: string } }>(
    '/_sandbox/channels/:channelId/messages/:messageId',
    async (req, reply) => {
      const found = state.guildOfChannel(req.params.channelId);
      if (!found || !deleteMessage(state, found.guild, found.channel.id, req.params.messageId)) {
        return controlError(reply, 404, 'unknown_message', 'No such message in that channel');
      }
      return { ok: true };
    },
  );

  // A moderator (or a moderation bot) purging messages: one MESSAGE_DELETE_BULK.
  app.post<{ Params: { channelId: string }; Body: { messages?: unknown } | undefined }>(
    '/_sandbox/channels/:channelId/messages/bulk-delete',
    async (req, reply) => {
      const found = state.guildOfChannel(req.params.channelId);
      if (!found) return controlError(reply, 404, 'unknown_channel', 'No such channel');
      const ids = req.body?.messages;
      if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === 'string')) {
        return controlError(
          reply,
          400,
          'invalid_request',
          '"messages" must be a non-empty array of message ids',
        );
      }
      return { deleted: deleteMessages(state, found.guild, found.channel.id, ids) };
    },
  );
}
