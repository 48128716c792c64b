import type { APIMessage } from 'discord-api-types/v10';
import type { FastifyReply } from 'fastify';
import type { SandboxState } from '../state.ts';
import { discordError, type Issue } from './discord-errors.ts';
import type { MessageBody } from './message-body-types.ts';

/**
 * How long Discord remembers a message's nonce for `enforce_nonce` ("the past few minutes";
 * Discord publishes no figure). Tests move past it with `POST /_sandbox/clock`.
 */
export const MESSAGE_NONCE_WINDOW_MS = 5 * 60_000;

const NONCE_MAX_LENGTH = 25;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Discord's checks on `nonce` and `enforce_nonce` of create message (MessageCreateRequest: an
 * int64 or a string of at most 25 characters; a boolean), as 50035 field issues.
 */
export function nonceIssues(body: MessageBody): Issue[] {
  const issues: Issue[] = [];
  const { nonce, enforce_nonce: enforce } = body;
  if (typeof nonce === 'string') {
    if (nonce.length > NONCE_MAX_LENGTH) {
      issues.push({
        path: ['nonce'],
        code: 'BASE_TYPE_MAX_LENGTH',
        message: `Must be ${NONCE_MAX_LENGTH} or fewer in length.`,
      });
    }
  } else if (typeof nonce === 'number') {
    if (!Number.isInteger(nonce) || BigInt(nonce) < INT64_MIN || BigInt(nonce) > INT64_MAX) {
      issues.push({ path: ['nonce'], code: 'NUMBER_TYPE_COERCE', message: `Value "${nonce}" is not int.` });
    }
  } else if (nonce !== undefined && nonce !== null) {
    issues.push({ path: ['nonce'], code: 'NONCE_TYPE_INVALID', message: 'Invalid nonce type.' });
  }
  if (enforce !== undefined && enforce !== null && typeof enforce !== 'boolean') {
    issues.push({
      path: ['enforce_nonce'],
      code: 'BOOLEAN_TYPE_COERCE',
      message: 'Must be either true or false.',
    });
  }
  return issues;
}

/** The nonce of a create message body as Discord keys it (an integer and its digits are one nonce). */
export function nonceOf(body: MessageBody): string | null {
  return body.nonce === undefined || body.nonce === null ? null : String(body.nonce);
}

const nonceKey = (authorId: string, nonce: string) => `${authorId}\u0000${nonce}`;

/**
 * What `enforce_nonce` makes of a create: `null` when no message of this author carries the
 * nonce in the window (create it), the message it made when it still exists (Discord answers it
 * again and creates nothing), or `'deleted'` when that message was deleted since (Discord
 * answers 404 10008 Unknown Message rather than post it again).
 */
export function messageOfNonce(
  state: SandboxState,
  authorId: string,
  nonce: string,
): APIMessage | 'deleted' | null {
  const remembered = state.messageNonces.get(nonceKey(authorId, nonce));
  if (!remembered || state.now() - remembered.at > MESSAGE_NONCE_WINDOW_MS) return null;
  const message = state.messages.get(remembered.channel_id)?.find((m) => m.id === remembered.message_id);
  return message ?? 'deleted';
}

/** Remembers the nonce a message was created with, forgetting those past the window. */
export function rememberNonce(
  state: SandboxState,
  authorId: string,
  nonce: string,
  message: APIMessage,
): void {
  const now = state.now();
  for (const [key, remembered] of state.messageNonces) {
    // Oldest first (insertion order): stop at the first still inside the window.
    if (now - remembered.at <= MESSAGE_NONCE_WINDOW_MS) break;
    state.messageNonces.delete(key);
  }
  const key = nonceKey(authorId, nonce);
  state.messageNonces.delete(key);
  state.messageNonces.set(key, { channel_id: message.channel_id, message_id: message.id, at: now });
}

/** The message as create message answers it (and MESSAGE_CREATE carries it): with the nonce sent. */
export function withNonce(message: APIMessage, nonce: string | number | null | undefined): APIMessage {
  return nonce === undefined || nonce === null ? message : { ...message, nonce };
}

/**
 * The answer to a create message (by the bot) that repeats a nonce under `enforce_nonce`: the
 * message made with it, as Discord answers it (200, nothing created, no MESSAGE_CREATE), 404 10008
 * when that message was deleted since, or null when the message is to be created.
 */
export function repeatedNonceAnswer(
  state: SandboxState,
  body: MessageBody,
  reply: FastifyReply,
): APIMessage | FastifyReply | null {
  const nonce = body.enforce_nonce === true ? nonceOf(body) : null;
  if (nonce === null) return null;
  const earlier = messageOfNonce(state, state.application.id, nonce);
  if (earlier === null) return null;
  if (earlier === 'deleted') return discordError(reply, 404, 10008, 'Unknown Message');
  return withNonce(earlier, body.nonce);
}
