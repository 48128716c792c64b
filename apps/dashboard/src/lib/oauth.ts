import { botInviteUrl, DEFAULT_BOT_PERMISSIONS } from '@spacecadet/contract/install-state';
import { getConfig } from '../config.ts';
import { SESSION_KEYS } from './session.ts';

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function randomToken(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** The S256 code challenge of a PKCE verifier. */
export async function codeChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

export function callbackUrl(): string {
  return `${window.location.origin}/auth/callback`;
}

/** Builds the authorize address for a fresh PKCE sign-in and remembers verifier and state. */
export async function buildSignInUrl(): Promise<string> {
  const config = getConfig();
  const verifier = randomToken(48);
  const state = randomToken(16);
  window.sessionStorage.setItem(SESSION_KEYS.verifier, verifier);
  window.sessionStorage.setItem(SESSION_KEYS.state, state);
  const query = new URLSearchParams({
    client_id: config.discordClientId,
    redirect_uri: callbackUrl(),
    response_type: 'code',
    scope: 'identify guilds',
    prompt: 'consent',
    code_challenge: await codeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  return `${config.discordOauthBase}/oauth2/authorize?${query.toString()}`;
}

/** Starts OAuth sign-in (also what Re-Authorize does). */
export async function startSignIn(): Promise<void> {
  window.location.assign(await buildSignInUrl());
}

/**
 * The built-in bot invite, used until GET /api/invite-url answers and when it fails. It is the
 * API's invite with the default permissions: the code comes back to the API's install callback,
 * which lands on `/?install=success&guild_id=`.
 */
export function defaultInviteUrl(guildId?: string): string {
  const config = getConfig();
  return botInviteUrl({
    oauthBase: config.discordOauthBase,
    clientId: config.discordClientId,
    permissions: DEFAULT_BOT_PERMISSIONS,
    apiUrl: config.apiUrl,
    guildId,
  });
}

/** Browser navigation target that installs the bot through the API (it knows the redirect). */
export function installUrl(guildId?: string): string {
  const base = `${getConfig().apiUrl}/install`;
  return guildId ? `${base}?guildId=${encodeURIComponent(guildId)}` : base;
}
