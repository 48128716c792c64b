/**
 * The messages an interaction answers with: the reply or follow-up it posts, its edits, the
 * message a webhook path (`@original`, a follow-up id) names, and the files a body attaches.
 */
import {
  type APIAttachment,
  type APIMessage,
  InteractionResponseType,
  InteractionType,
} from 'discord-api-types/v10';
import type { SandboxContext } from '../context.ts';
import { buildMessage, messageUpdated, postMessage } from '../message-mutations.ts';
import type { InteractionRecord, SandboxState } from '../state.ts';
import { resolveAttachments } from './attachments.ts';
import { applyMessageEdit, isEphemeral, type MessageBody } from './message-body.ts';

/** The body of `POST /interactions/:id/:token/callback`. */
export type CallbackBody = { type?: number; data?: MessageBody & Record<string, unknown> };

const nowIso = (state: SandboxState) => new Date(state.now()).toISOString();

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

/** A new bot message answering `record`: posted in the channel unless ephemeral. */
export function answerInteraction(
  state: SandboxState,
  record: InteractionRecord,
  body: MessageBody,
  attachments: APIAttachment[],
): APIMessage {
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
}

/** The attachments `body` gives a new (`existing` null) or edited message, or Discord's refusal. */
export const interactionFiles = (
  ctx: SandboxContext,
  record: InteractionRecord,
  body: MessageBody,
  existing: readonly APIAttachment[] | null,
) => resolveAttachments(ctx.state, ctx.url(), record.channel_id, body, existing);

/** Applies an edit of `body` to an interaction's message, noted on the record; MESSAGE_UPDATE if in a channel. */
export const editInteractionMessage = (
  state: SandboxState,
  record: InteractionRecord,
  message: APIMessage,
  body: MessageBody,
  target: string,
  attachments: APIAttachment[] | null,
) => {
  applyMessageEdit(message, body, nowIso(state));
  if (attachments) message.attachments = attachments;
  record.edits.push({ at: nowIso(state), target, body });
  const guild = state.guilds.get(record.guild_id);
  const inChannel = state.messages.get(message.channel_id)?.includes(message);
  if (guild && inChannel) messageUpdated(state, guild, message);
};

/** `@original` or a follow-up id; a deferred reply's original comes into being on its first edit. */
export const targetMessage = (
  state: SandboxState,
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
    record.original = answerInteraction(
      state,
      record,
      { ...body, flags: (body.flags ?? 0) | deferredFlags },
      creating.attachments,
    );
    record.edits.push({ at: nowIso(state), target: '@original', body });
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
