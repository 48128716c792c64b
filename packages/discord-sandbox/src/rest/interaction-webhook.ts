/**
 * The interaction webhook, `/webhooks/:app/:token/...`: follow-up messages, and getting,
 * editing and deleting `@original` or a follow-up, for as long as the token lives.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { deleteMessage } from '../message-mutations.ts';
import { INTERACTION_TOKEN_TTL_MS } from '../simulate-interaction.ts';
import type { InteractionRecord, SandboxState } from '../state.ts';
import { discordError } from './discord-errors.ts';
import {
  answerInteraction,
  editInteractionMessage,
  interactionFiles,
  targetMessage,
} from './interaction-messages.ts';
import { type MessageBody, validateMessageBody } from './message-body.ts';
import { sendProblem } from './messages.ts';

type WebhookParams = { appId: string; token: string };

/** The interaction an interaction webhook's token names, or null after answering 404 10015 (unknown or expired). */
function recordFor(
  state: SandboxState,
  params: WebhookParams,
  reply: FastifyReply,
): InteractionRecord | null {
  const record = state.interactionsByToken.get(params.token);
  if (
    !record ||
    params.appId !== state.application.id ||
    state.now() - record.created_ms > INTERACTION_TOKEN_TTL_MS
  ) {
    discordError(reply, 404, 10015, 'Unknown Webhook');
    return null;
  }
  return record;
}

/** Follow-ups (`POST /webhooks/:app/:token`) and `@original` / follow-up get, edit and delete. */
export function registerInteractionWebhookRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  api.post<{ Params: WebhookParams; Body: MessageBody | undefined; Querystring: { wait?: string } }>(
    '/webhooks/:appId/:token',
    async (req, reply) => {
      const record = recordFor(state, req.params, reply);
      if (!record) return reply;
      const body = req.body ?? {};
      const problem = validateMessageBody(body, true);
      if (problem) return sendProblem(reply, problem);
      const files = interactionFiles(ctx, record, body, null);
      if (!('attachments' in files)) return sendProblem(reply, files);
      const message = answerInteraction(state, record, body, files.attachments ?? []);
      record.followups.push(message);
      state.events.emit('interaction-responded', record.id);
      return req.query.wait === 'true' ? message : reply.code(204).send();
    },
  );

  const path = '/webhooks/:appId/:token/messages/:messageId';
  type MessageRoute = { Params: WebhookParams & { messageId: string }; Body: MessageBody | undefined };

  api.get<MessageRoute>(path, async (req, reply) => {
    const record = recordFor(state, req.params, reply);
    if (!record) return reply;
    return (
      targetMessage(state, record, req.params.messageId, null) ??
      discordError(reply, 404, 10008, 'Unknown Message')
    );
  });

  api.patch<MessageRoute>(path, async (req, reply) => {
    const record = recordFor(state, req.params, reply);
    if (!record) return reply;
    const body = req.body ?? {};
    const problem = validateMessageBody(body, false);
    if (problem) return sendProblem(reply, problem);
    const existing = targetMessage(state, record, req.params.messageId, null);
    // A deferred reply's first edit creates the message: its files are a create's, not an edit's.
    const files = interactionFiles(ctx, record, body, existing?.attachments ?? null);
    if (!('attachments' in files)) return sendProblem(reply, files);
    if (existing)
      editInteractionMessage(state, record, existing, body, req.params.messageId, files.attachments);
    else targetMessage(state, record, req.params.messageId, { body, attachments: files.attachments ?? [] });
    const message = existing ?? record.original;
    if (!message) return discordError(reply, 404, 10008, 'Unknown Message');
    state.events.emit('interaction-responded', record.id);
    return message;
  });

  api.delete<MessageRoute>(path, async (req, reply) => {
    const record = recordFor(state, req.params, reply);
    if (!record) return reply;
    const message = targetMessage(state, record, req.params.messageId, null);
    if (!message) return discordError(reply, 404, 10008, 'Unknown Message');
    const guild = state.guilds.get(record.guild_id);
    if (guild) deleteMessage(state, guild, message.channel_id, message.id);
    if (record.original === message) record.original = null;
    record.followups = record.followups.filter((m) => m !== message);
    return reply.code(204).send();
  });
}
