import { SNOWFLAKE_DIGITS } from '@spacecadet/contract/ids';
import type { BotFeature } from '@spacecadet/contract/install-state';
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

/** A server's public leaderboard page, `/leaderboard/{guild id}`. */
const PUBLIC_LEADERBOARD_PATH = new RegExp(`^/leaderboard/${SNOWFLAKE_DIGITS}$`);

/**
 * Where to go after sign-in when it was started from a dashboard page: the path, query and hash
 * of a dashboard route (or a server's public leaderboard, `/leaderboard/{id}`, or Your data,
 * `/account`) on this site, else
 * null. Refuses `//host` and `/\host` (browsers read both as another host), absolute URLs,
 * control characters and anything outside those.
 */
export function safeReturnPath(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > 2000) return null;
  if (!raw.startsWith('/') || raw.startsWith('//') || /[\\\p{Cc}]/u.test(raw)) return null;
  const base = 'https://return.invalid';
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  // Dot segments are resolved by now: `/dashboard/../x` is `/x` and refused.
  if (url.origin !== base) return null;
  const publicLeaderboard = PUBLIC_LEADERBOARD_PATH.test(url.pathname);
  const yourData = url.pathname === '/account' || url.pathname === '/linked-roles';
  if (
    url.pathname !== '/dashboard' &&
    !url.pathname.startsWith('/dashboard/') &&
    !publicLeaderboard &&
    !yourData
  ) {
    return null;
  }
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The stored return path, checked again on the way out (any script here can write storage). */
export function peekReturnPath(): string | null {
  return safeReturnPath(window.sessionStorage.getItem(SESSION_KEYS.returnTo));
}

/** Reads and forgets the return path (once signed in). */
export function takeReturnPath(): string | null {
  const path = peekReturnPath();
  window.sessionStorage.removeItem(SESSION_KEYS.returnTo);
  return path;
}

/**
 * Builds the authorize address for a fresh PKCE sign-in and remembers verifier, state and the
 * page to come back to (sessionStorage survives the round trip in this tab; Discord never sees it).
 */
export async function buildSignInUrl(returnTo?: string | null): Promise<string> {
  const config = getConfig();
  const verifier = randomToken(48);
  const state = randomToken(16);
  const storage = window.sessionStorage;
  storage.setItem(SESSION_KEYS.verifier, verifier);
  storage.setItem(SESSION_KEYS.state, state);
  const path = safeReturnPath(returnTo);
  if (path) storage.setItem(SESSION_KEYS.returnTo, path);
  else storage.removeItem(SESSION_KEYS.returnTo);
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

/**
 * Starts OAuth sign-in (also what Re-Authorize does). `returnTo`: the dashboard page to land on
 * afterwards; without it sign-in ends on /dashboard.
 */
export async function startSignIn(returnTo?: string | null): Promise<void> {
  window.location.assign(await buildSignInUrl(returnTo));
}

/**
 * Browser navigation target that installs the bot through the API (it knows the redirect, and
 * which permissions the server's features need); `features` asks for those of features not
 * switched on yet (e.g. `onboarding`).
 */
export function installUrl(guildId?: string, features: readonly BotFeature[] = []): string {
  const query = new URLSearchParams();
  if (guildId) query.set('guildId', guildId);
  if (features.length > 0) query.set('features', features.join(','));
  const search = query.toString();
  return `${getConfig().apiUrl}/install${search ? `?${search}` : ''}`;
}
