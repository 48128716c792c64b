import { PermissionFlagsBits } from 'discord-api-types/v10';
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { deleteMessages } from '../message-mutations.ts';
import { guildPermissions } from '../permissions.ts';
import { SandboxState } from '../state.ts';
import { discordError, missingPermissions } from './discord-errors.ts';
import { requireBot } from './http.ts';

/** Discord refuses to bulk delete messages older than two weeks. */
const BULK_DELETE_MAX_AGE_MS = 14 * 24 * 3600 * 1000;
const lengthError = (code: string, message: string) => ({ messages: { _errors: [{ code, message }] } });

/**
 * `POST /channels/{id}/messages/bulk-delete` as Discord has it: 2 to 100 message ids, Manage
 * Messages needed, none older than 14 days (50034); ids of messages that do not exist count
 * toward the limits and are skipped. 204, and one MESSAGE_DELETE_BULK for the deleted ones.
 */
export function registerBulkDeleteRoute(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  api.post<{ Params: { channelId: string }; Body: { messages?: unknown } | undefined }>(
    '/channels/:channelId/messages/bulk-delete',
    async (req, reply) => {
      if (!requireBot(ctx, req, reply)) return reply;
      const found = state.guildOfChannel(req.params.channelId);
      if (!found) return discordError(reply, 404, 10003, 'Unknown Channel');
      if (!state.botIsIn(found.guild)) return discordError(reply, 403, 50001, 'Missing Access');
      const ids = req.body?.messages;
      if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string' && /^\d{1,20}$/.test(id))) {
        return discordError(
          reply,
          400,
          50035,
          'Invalid Form Body',
          lengthError('BASE_TYPE_REQUIRED', 'This field is required'),
        );
      }
      if (ids.length < 2) {
        return discordError(
          reply,
          400,
          50035,
          'Invalid Form Body',
          lengthError('BASE_TYPE_MIN_LENGTH', 'Must be 2 or more in length.'),
        );
      }
      if (ids.length > 100) {
        return discordError(
          reply,
          400,
          50035,
          'Invalid Form Body',
          lengthError('BASE_TYPE_MAX_LENGTH', 'Must be 100 or fewer in length.'),
        );
      }
      if ((guildPermissions(found.guild, state.application.id) & PermissionFlagsBits.ManageMessages) === 0n) {
        return missingPermissions(reply);
      }
      if (ids.some((id) => state.now() - SandboxState.timeOf(id) > BULK_DELETE_MAX_AGE_MS)) {
        return discordError(
          reply,
          400,
          50034,
          'You can only bulk delete messages that are under 14 days old.',
        );
      }
      deleteMessages(state, found.guild, found.channel.id, ids);
      return reply.code(204).send();
    },
  );
}
