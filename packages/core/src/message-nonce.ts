import { createHash } from 'node:crypto';

/** Discord's longest string `nonce` on create message. */
export const MESSAGE_NONCE_MAX_LENGTH = 25;

/** What one post of the bot is: its kind, then the ids (and counters) that make it that post. */
export type MessageNonceParts = readonly [kind: string, ...what: Array<string | number | null>];

/**
 * The nonce of one logical post of the bot (a level-up's announcement, a panel page replacing a
 * given message, a day's overview), sent with `enforce_nonce: true` so Discord answers the
 * message already made instead of posting it twice when the same post is sent again within its
 * few minutes: a request retried after waiting behind a rate limit, a job run again by another
 * worker while the first still waits. The same parts always give the same nonce; different parts
 * give different nonces (a 150-bit digest, so a collision never happens in practice), whatever the
 * lengths of the ids, within Discord's 25 characters.
 */
export function messageNonce(...parts: MessageNonceParts): string {
  return createHash('sha256')
    .update(JSON.stringify(parts))
    .digest('base64url')
    .slice(0, MESSAGE_NONCE_MAX_LENGTH);
}
