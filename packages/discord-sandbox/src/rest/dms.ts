import { type APIDMChannel, type APIMessage, type ChannelFlags, ChannelType } from 'discord-api-types/v10';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { buildMessage } from '../message-mutations.ts';
import type { SandboxDmChannel, SandboxState } from '../state.ts';
import { resolveAttachments } from './attachments.ts';
import { discordError, invalidFormBody } from './discord-errors.ts';
import { requireBot } from './http.ts';
import type { MessageBody } from './message-body.ts';
import { validateMessageBody } from './message-body.ts';
import { nonceOf, rememberNonce, repeatedNonceAnswer, withNonce } from './message-nonce.ts';

/** The DM channel as Discord shows it to the bot: type 1, its one recipient. */
export function dmChannelPayload(state: SandboxState, dm: SandboxDmChannel): APIDMChannel {
  const user = state.users.get(dm.recipient_id);
  const channel: APIDMChannel = {
    id: dm.id,
    type: ChannelType.DM,
    name: null,
    last_message_id: dm.last_message_id,
    flags: 0 as ChannelFlags,
    recipients: user ? [user] : [],
  };
  return channel;
}

/** The bot's DM channel with `userId`, opened if there is none yet (Discord keeps one per user). */
export function openDm(state: SandboxState, userId: string): SandboxDmChannel {
  for (const dm of state.dmChannels.values()) if (dm.recipient_id === userId) return dm;
  const dm: SandboxDmChannel = { id: state.snowflake(), recipient_id: userId, last_message_id: null };
  state.dmChannels.set(dm.id, dm);
  state.messages.set(dm.id, []);
  return dm;
}

/**
 * Whether Discord lets the bot message this user: the user accepts DMs and shares a server with
 * the bot (a bot cannot DM a stranger).
 */
function acceptsBotDms(state: SandboxState, userId: string): boolean {
  if (state.dmRefusals.has(userId)) return false;
  return [...state.guilds.values()].some(
    (g) => state.botIsIn(g) && g.members.some((m) => m.user_id === userId),
  );
}

/** `POST /channels/:id/messages` in a DM: recorded as the bot's, or 403 50007 as Discord. */
export function postDmMessage(
  ctx: SandboxContext,
  dm: SandboxDmChannel,
  body: MessageBody,
  reply: FastifyReply,
): APIMessage | FastifyReply {
  const { state } = ctx;
  const problem = validateMessageBody(body, true, true);
  if (problem) return discordError(reply, problem.status, problem.code, problem.message, problem.errors);
  if (!acceptsBotDms(state, dm.recipient_id)) {
    return discordError(reply, 403, 50007, 'Cannot send messages to this user');
  }
  const repeated = repeatedNonceAnswer(state, body, reply);
  if (repeated) return repeated;
  // Files go to DMs as to any channel (no permissions apply between the bot and one user).
  const files = resolveAttachments(state, ctx.url(), dm.id, body, null);
  if (!('attachments' in files)) {
    return discordError(reply, files.status, files.code, files.message, files.errors);
  }
  const message = buildMessage(state, {
    attachments: files.attachments ?? [],
    channel_id: dm.id,
    author_id: state.application.id,
    content: body.content ?? '',
    embeds: body.embeds ?? [],
    components: body.components ?? [],
    flags: body.flags ?? 0,
  });
  state.messages.get(dm.id)?.push(message);
  dm.last_message_id = message.id;
  const nonce = nonceOf(body);
  if (nonce !== null) rememberNonce(state, state.application.id, nonce, message);
  return withNonce(message, body.nonce);
}

/** `GET /channels/:id/messages` in a DM: newest first, as in a guild channel. */
export function listDmMessages(
  state: SandboxState,
  dm: SandboxDmChannel,
  query: { limit?: string; before?: string; after?: string },
): APIMessage[] {
  const limit = Math.min(100, Math.max(1, Number(query.limit ?? 50) || 50));
  const before = query.before ? BigInt(query.before) : null;
  const after = query.after ? BigInt(query.after) : null;
  return [...(state.messages.get(dm.id) ?? [])]
    .filter((m) => (before === null || BigInt(m.id) < before) && (after === null || BigInt(m.id) > after))
    .reverse()
    .slice(0, limit);
}

/** `POST /users/@me/channels {recipient_id}`: opens (or returns) the bot's DM with a user. */
export function registerDmRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  api.post<{ Body: { recipient_id?: unknown } | undefined }>('/users/@me/channels', async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    const recipient = req.body?.recipient_id;
    if (recipient === undefined || recipient === null) {
      return invalidFormBody(reply, [
        { path: ['recipient_id'], code: 'BASE_TYPE_REQUIRED', message: 'This field is required' },
      ]);
    }
    const userId = String(recipient);
    const user = state.users.get(userId);
    if (!user || userId === state.application.id) {
      return discordError(reply, 400, 50033, 'Invalid Recipient(s)');
    }
    return dmChannelPayload(state, openDm(state, userId));
  });
}
