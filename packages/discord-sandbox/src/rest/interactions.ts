import { type APIMessage, InteractionResponseType, InteractionType } from 'discord-api-types/v10';
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { discordError, invalidFormBody } from './discord-errors.ts';
import {
  answerInteraction,
  type CallbackBody,
  editInteractionMessage,
  findAnyMessage,
  interactionFiles,
} from './interaction-messages.ts';
import { registerInteractionWebhookRoutes } from './interaction-webhook.ts';
import { isEphemeral, type MessageBody, validateMessageBody } from './message-body.ts';
import { sendProblem } from './messages.ts';

/** Interaction callbacks and the interaction webhook (follow-ups, @original edits). */
export function registerInteractionRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  registerInteractionCallbackRoute(api, ctx);
  registerInteractionWebhookRoutes(api, ctx);
}

/** `POST /interactions/:id/:token/callback`: the bot's one answer to an interaction, within the timeout. */
function registerInteractionCallbackRoute(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

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
        const files = interactionFiles(ctx, record, data, null);
        if (!('attachments' in files)) return sendProblem(reply, prefixErrors(files));
        message = answerInteraction(state, record, data, files.attachments ?? []);
        record.original = message;
        break;
      }
      case InteractionResponseType.UpdateMessage: {
        const problem = validateMessageBody(data, false);
        if (problem) return sendProblem(reply, prefixErrors(problem));
        const target = findAnyMessage(state, record.message_id);
        const files = interactionFiles(ctx, record, data, target?.message.attachments ?? []);
        if (!('attachments' in files)) return sendProblem(reply, prefixErrors(files));
        if (target) {
          editInteractionMessage(state, record, target.message, data, 'update', files.attachments);
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
}

/** Interaction callback errors point into `data`, as Discord's do. */
function prefixErrors<T extends { errors?: object }>(problem: T): T {
  return problem.errors ? { ...problem, errors: { data: problem.errors } } : problem;
}
