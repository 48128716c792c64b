import { createHash, randomBytes } from 'node:crypto';

/** A fresh opaque session token: 256 random bits, URL-safe. Only its hash is ever stored. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** AES-256-GCM for the Discord tokens kept server-side (sign-ins and Linked Roles), shared with the worker. */
export { TokenCipher } from '@spacecadet/core/token-cipher';
