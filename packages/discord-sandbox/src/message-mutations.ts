/**
 * Message mutations: building a message as Discord shapes it, posting, updating and deleting
 * one or many, each with the gateway event Discord sends (MESSAGE_CREATE, _UPDATE, _DELETE, _DELETE_BULK).
 */
import {
  type APIAttachment,
  type APIEmbed,
  type APIMessage,
  type APIMessageTopLevelComponent,
  type APIUser,
  GatewayDispatchEvents,
  type MessageFlags,
  MessageType,
} from 'discord-api-types/v10';
import type { SandboxGuild } from './fixture.ts';
import { apiMember, userOf } from './payloads.ts';
import { asPostedEmbeds, withComponentIds } from './rest/message-body.ts';
import { withNonce } from './rest/message-nonce.ts';
import type { SandboxState } from './state.ts';

export interface NewMessage {
  channel_id: string;
  author_id: string;
  content?: string | undefined;
  embeds?: APIEmbed[] | undefined;
  components?: APIMessageTopLevelComponent[] | undefined;
  flags?: number | undefined;
  webhook_id?: string | undefined;
  application_id?: string | undefined;
  type?: MessageType | undefined;
  attachments?: APIAttachment[] | undefined;
}

function mentionedUsers(state: SandboxState, content: string): APIUser[] {
  const ids = new Set([...content.matchAll(/<@!?(\d+)>/g)].map((m) => m[1] ?? ''));
  return [...ids].filter((id) => state.users.has(id)).map((id) => userOf(state, id));
}

export function buildMessage(state: SandboxState, input: NewMessage): APIMessage {
  const message: APIMessage = {
    id: state.snowflake(),
    channel_id: input.channel_id,
    author: userOf(state, input.author_id),
    content: input.content ?? '',
    timestamp: new Date(state.now()).toISOString(),
    edited_timestamp: null,
    tts: false,
    mentions: mentionedUsers(state, input.content ?? ''),
    mention_roles: [...(input.content ?? '').matchAll(/<@&(\d+)>/g)].map((m) => m[1] ?? ''),
    mention_everyone: /@(everyone|here)\b/.test(input.content ?? ''),
    attachments: input.attachments ?? [],
    embeds: asPostedEmbeds(input.embeds ?? []),
    pinned: false,
    type: input.type ?? MessageType.Default,
    components: withComponentIds(input.components ?? []),
    flags: (input.flags ?? 0) as MessageFlags,
  };
  if (input.webhook_id) message.webhook_id = input.webhook_id;
  if (input.application_id) message.application_id = input.application_id;
  return message;
}

function messageEvent(state: SandboxState, guild: SandboxGuild, message: APIMessage): unknown {
  const member = guild.members.find((m) => m.user_id === message.author.id);
  if (!member) return { ...message, guild_id: guild.id };
  // Discord sends the author's member object without its user (that is `author`).
  const { user: _author, ...memberFields } = apiMember(state, member);
  return { ...message, guild_id: guild.id, member: memberFields };
}

/**
 * Stores a channel message and tells the gateway. A `nonce` it was sent with is in the answer
 * and the MESSAGE_CREATE only: Discord does not keep it on the message (a fetch has none).
 */
export function postMessage(
  state: SandboxState,
  guild: SandboxGuild,
  message: APIMessage,
  nonce?: string | number | null,
): APIMessage {
  const list = state.messages.get(message.channel_id) ?? [];
  list.push(message);
  state.messages.set(message.channel_id, list);
  const channel = guild.channels.find((c) => c.id === message.channel_id);
  if (channel && 'last_message_id' in channel) channel.last_message_id = message.id;
  const created = withNonce(message, nonce);
  state.dispatch(GatewayDispatchEvents.MessageCreate, messageEvent(state, guild, created), guild.id);
  return created;
}

export function messageUpdated(state: SandboxState, guild: SandboxGuild, message: APIMessage): void {
  state.dispatch(GatewayDispatchEvents.MessageUpdate, messageEvent(state, guild, message), guild.id);
}

export function deleteMessage(
  state: SandboxState,
  guild: SandboxGuild,
  channelId: string,
  id: string,
): boolean {
  const list = state.messages.get(channelId) ?? [];
  const index = list.findIndex((m) => m.id === id);
  if (index < 0) return false;
  const [removed] = list.splice(index, 1);
  state.dropAttachments(removed?.attachments.map((a) => a.id) ?? []);
  state.reactions.delete(id);
  state.dispatch(
    GatewayDispatchEvents.MessageDelete,
    { id, channel_id: channelId, guild_id: guild.id },
    guild.id,
  );
  return true;
}

/**
 * Deletes several messages of one channel at once (a bulk delete): one MESSAGE_DELETE_BULK
 * naming the ones that existed, as Discord sends. Returns their ids.
 */
export function deleteMessages(
  state: SandboxState,
  guild: SandboxGuild,
  channelId: string,
  ids: readonly string[],
): string[] {
  const wanted = new Set(ids);
  const list = state.messages.get(channelId) ?? [];
  const deleted = list.filter((m) => wanted.has(m.id)).map((m) => m.id);
  if (deleted.length === 0) return deleted;
  for (const id of deleted) state.reactions.delete(id);
  state.messages.set(
    channelId,
    list.filter((m) => !wanted.has(m.id)),
  );
  state.dispatch(
    GatewayDispatchEvents.MessageDeleteBulk,
    { ids: deleted, channel_id: channelId, guild_id: guild.id },
    guild.id,
  );
  return deleted;
}
