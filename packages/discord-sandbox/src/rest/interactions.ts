import {
  type APIAttachment,
  type APIMessage,
  InteractionResponseType,
  InteractionType,
} from 'discord-api-types/v10';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { buildMessage, deleteMessage, messageUpdated, postMessage } from '../mutations.ts';
import { INTERACTION_TOKEN_TTL_MS } from '../simulate-interaction.ts';
import type { InteractionRecord, SandboxState } from '../state.ts';
import { resolveAttachments } from './attachments.ts';
import { discordError, invalidFormBody } from './discord-errors.ts';
import { applyMessageEdit, isEphemeral, type MessageBody, validateMessageBody } from './message-body.ts';
import { sendProblem } from './messages.ts';

type CallbackBody = { type?: number; data?: MessageBody & Record<string, unknown> };
type WebhookParams = { appId: string; token: string };

/** A message a component lives on: a channel message, or an ephemeral one held by an interaction. */
export function findAnyMessage(
  state: SandboxState,
  messageId: string,
): { message: APIMessage; ephemeralOf: InteractionRecord | null } | null {
  for (const list of state.messages.values()) {
    const message = list.find((m) => m.id === messageId);
    if (message) return { message, ephemeralOf: null };
  }
  for (const record of state.interactions.values()) {
    const message = [record.original, ...record.followups].find((m) => m?.id === messageId);
    if (message) return { message, ephemeralOf: record };
  }
  return null;
}

/** Interaction callbacks and the interaction webhook (follow-ups, @original edits). */
export function registerInteractionRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  const nowIso = () => new Date(state.now()).toISOString();

  /** A new bot message answering `record`: posted in the channel unless ephemeral. */
  const answer = (record: InteractionRecord, body: MessageBody, attachments: APIAttachment[]): APIMessage => {
    const message = buildMessage(state, {
      attachments,
      channel_id: record.channel_id,
      author_id: state.application.id,
      content: body.content ?? '',
      embeds: body.embeds ?? [],
      components: body.components ?? [],
      flags: body.flags ?? 0,
      webhook_id: state.application.id,
      application_id: state.application.id,
    });
    const user = state.users.get(record.user_id) ?? message.author;
    const owners = { '0': record.guild_id };
    message.interaction_metadata =
      record.type === InteractionType.ApplicationCommand
        ? { id: record.id, type: record.type, user, authorizing_integration_owners: owners }
        : {
            id: record.id,
            type: InteractionType.MessageComponent,
            user,
            authorizing_integration_owners: owners,
            interacted_message_id: record.message_id,
          };
    const guild = state.guilds.get(record.guild_id);
    if (!isEphemeral(body.flags) && guild) postMessage(state, guild, message);
    return message;
  };

  /** The attachments `body` gives a new (`existing` null) or edited message, or Discord's refusal. */
  const filesFor = (
    record: InteractionRecord,
    body: MessageBody,
    existing: readonly APIAttachment[] | null,
  ) => resolveAttachments(state, ctx.url(), record.channel_id, body, existing);

  const editMessage = (
    record: InteractionRecord,
    message: APIMessage,
    body: MessageBody,
    target: string,
    attachments: APIAttachment[] | null,
  ) => {
    applyMessageEdit(message, body, nowIso());
    if (attachments) message.attachments = attachments;
    record.edits.push({ at: nowIso(), target, body });
    const guild = state.guilds.get(record.guild_id);
    const inChannel = state.messages.get(message.channel_id)?.includes(message);
    if (guild && inChannel) messageUpdated(state, guild, message);
  };

  api.post<{
    Params: { id: string; token: string };
    Body: CallbackBody | undefined;
    Querystring: { with_response?: string };
  }>('/interactions/:id/:token/callback', async (req, reply) => {
    const record = state.interactions.get(req.params.id);
    const late = record && state.now() - record.created_ms > ctx.interactionTimeoutMs;
    if (!record || record.token !== req.params.token || (late && record.response === null)) {
      return discordError(reply, 404, 10062, 'Unknown interaction');
    }
    if (record.response !== null) {
      return discordError(reply, 400, 40060, 'Interaction has already been acknowledged.');
    }
    const body = req.body ?? {};
    const data: MessageBody = body.data ?? {};
    let message: APIMessage | null = null;
    switch (body.type) {
      case InteractionResponseType.ChannelMessageWithSource: {
        const problem = validateMessageBody(data, true);
        if (problem) return sendProblem(reply, prefixErrors(problem));
        const files = filesFor(record, data, null);
        if (!('attachments' in files)) return sendProblem(reply, prefixErrors(files));
        message = answer(record, data, files.attachments ?? []);
        record.original = message;
        break;
      }
      case InteractionResponseType.UpdateMessage: {
        const problem = validateMessageBody(data, false);
        if (problem) return sendProblem(reply, prefixErrors(problem));
        const target = findAnyMessage(state, record.message_id);
        const files = filesFor(record, data, target?.message.attachments ?? []);
        if (!('attachments' in files)) return sendProblem(reply, prefixErrors(files));
        if (target) {
          editMessage(record, target.message, data, 'update', files.attachments);
          message = target.message;
        }
        break;
      }
      case InteractionResponseType.DeferredChannelMessageWithSource:
      case InteractionResponseType.DeferredMessageUpdate:
      case InteractionResponseType.Modal:
        break;
      default:
        return invalidFormBody(reply, [
          {
            path: ['type'],
            code: 'BASE_TYPE_CHOICES',
            message: 'Value must be one of {1, 4, 5, 6, 7, 8, 9, 10, 12}.',
          },
        ]);
    }
    record.response = body;
    record.responded_ms = state.now();
    state.events.emit('interaction-responded', record.id);
    if (req.query.with_response !== 'true') return reply.code(204).send();
    return {
      interaction: {
        id: record.id,
        type: InteractionType.MessageComponent,
        response_message_id: message?.id,
        response_message_loading: body.type === InteractionResponseType.DeferredChannelMessageWithSource,
        response_message_ephemeral: isEphemeral(data.flags),
      },
      resource: { type: body.type, ...(message ? { message } : {}) },
    };
  });

  const recordFor = (params: WebhookParams, reply: FastifyReply): InteractionRecord | null => {
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
  };

  api.post<{ Params: WebhookParams; Body: MessageBody | undefined; Querystring: { wait?: string } }>(
    '/webhooks/:appId/:token',
    async (req, reply) => {
      const record = recordFor(req.params, reply);
      if (!record) return reply;
      const body = req.body ?? {};
      const problem = validateMessageBody(body, true);
      if (problem) return sendProblem(reply, problem);
      const files = filesFor(record, body, null);
      if (!('attachments' in files)) return sendProblem(reply, files);
      const message = answer(record, body, files.attachments ?? []);
      record.followups.push(message);
      state.events.emit('interaction-responded', record.id);
      return req.query.wait === 'true' ? message : reply.code(204).send();
    },
  );

  /** `@original` or a follow-up id; a deferred reply's original comes into being on its first edit. */
  const targetMessage = (
    record: InteractionRecord,
    messageId: string,
    creating: { body: MessageBody; attachments: APIAttachment[] } | null,
  ) => {
    if (messageId !== '@original') {
      return (
        record.followups.find((m) => m.id === messageId) ?? findAnyMessage(state, messageId)?.message ?? null
      );
    }
    if (record.original) return record.original;
    const type = (record.response as CallbackBody | null)?.type;
    if (type === InteractionResponseType.DeferredChannelMessageWithSource && creating) {
      const deferredFlags = (record.response as CallbackBody).data?.flags ?? 0;
      const { body } = creating;
      record.original = answer(
        record,
        { ...body, flags: (body.flags ?? 0) | deferredFlags },
        creating.attachments,
      );
      record.edits.push({ at: nowIso(), target: '@original', body });
      return null;
    }
    if (
      type === InteractionResponseType.DeferredMessageUpdate ||
      type === InteractionResponseType.UpdateMessage
    ) {
      return findAnyMessage(state, record.message_id)?.message ?? null;
    }
    return null;
  };

  const path = '/webhooks/:appId/:token/messages/:messageId';
  type MessageRoute = { Params: WebhookParams & { messageId: string }; Body: MessageBody | undefined };

  api.get<MessageRoute>(path, async (req, reply) => {
    const record = recordFor(req.params, reply);
    if (!record) return reply;
    return (
      targetMessage(record, req.params.messageId, null) ?? discordError(reply, 404, 10008, 'Unknown Message')
    );
  });

  api.patch<MessageRoute>(path, async (req, reply) => {
    const record = recordFor(req.params, reply);
    if (!record) return reply;
    const body = req.body ?? {};
    const problem = validateMessageBody(body, false);
    if (problem) return sendProblem(reply, problem);
    const existing = targetMessage(record, req.params.messageId, null);
    // A deferred reply's first edit creates the message: its files are a create's, not an edit's.
    const files = filesFor(record, body, existing?.attachments ?? null);
    if (!('attachments' in files)) return sendProblem(reply, files);
    if (existing) editMessage(record, existing, body, req.params.messageId, files.attachments);
    else targetMessage(record, req.params.messageId, { body, attachments: files.attachments ?? [] });
    const message = existing ?? record.original;
    if (!message) return discordError(reply, 404, 10008, 'Unknown Message');
    state.events.emit('interaction-responded', record.id);
    return message;
  });

  api.delete<MessageRoute>(path, async (req, reply) => {
    const record = recordFor(req.params, reply);
    if (!record) return reply;
    const message = targetMessage(record, req.params.messageId, null);
    if (!message) return discordError(reply, 404, 10008, 'Unknown Message');
    const guild = state.guilds.get(record.guild_id);
    if (guild) deleteMessage(state, guild, message.channel_id, message.id);
    if (record.original === message) record.original = null;
    record.followups = record.followups.filter((m) => m !== message);
    return reply.code(204).send();
  });
}

/** Interaction callback errors point into `data`, as Discord's do. */
function prefixErrors<T extends { errors?: object }>(problem: T): T {
  return problem.errors ? { ...problem, errors: { data: problem.errors } } : problem;
}
