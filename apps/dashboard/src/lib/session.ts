import type { SessionUser } from '@spacecadet/contract';
import { useSyncExternalStore } from 'react';

/**
 * sessionStorage keys: the tab's bearer lives as long as the tab. What outlives the tab is the
 * API's httpOnly refresh cookie (which a new tab or a restarted browser trades for a bearer,
 * `refreshSession` in api.ts) and `SIGNED_IN_HINT` in localStorage.
 */
export const SESSION_KEYS = {
  user: 'session_user',
  tokens: 'session_tokens',
  authorization: 'authorization',
  verifier: 'pkce_verifier',
  state: 'oauth_state',
  returnTo: 'oauth_return_to',
  expired: 'session_expired',
} as const;

/**
 * localStorage: this browser holds a sign-in (a refresh cookie script cannot see), so a tab
 * without a bearer tries the refresh rather than asking to sign in, and a visitor who never
 * signed in costs the API no refresh call.
 */
export const SIGNED_IN_HINT = 'spacecadet_signed_in';

export interface StoredTokens {
  access_token: string;
  token_type: string;
  /** Epoch milliseconds. */
  expires_at: number;
}

export const DEFAULT_TOKEN_LIFETIME_SEC = 3600;

const listeners = new Set<() => void>();
let version = 0;
function changed(): void {
  version += 1;
  for (const listener of listeners) listener();
}

function readJson(key: string): unknown {
  try {
    const raw = window.sessionStorage.getItem(key);
    return raw === null ? null : JSON.parse(raw);
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function getStoredUser(): SessionUser | null {
  const value = readJson(SESSION_KEYS.user);
  if (!isRecord(value) || typeof value.id !== 'string' || typeof value.username !== 'string') return null;
  return {
    id: value.id,
    username: value.username,
    discriminator: typeof value.discriminator === 'string' ? value.discriminator : '0',
    avatar: typeof value.avatar === 'string' ? value.avatar : null,
  };
}

export function getStoredTokens(): StoredTokens | null {
  const value = readJson(SESSION_KEYS.tokens);
  if (!isRecord(value) || typeof value.access_token !== 'string' || value.access_token === '') return null;
  return {
    access_token: value.access_token,
    token_type: typeof value.token_type === 'string' ? value.token_type : 'Bearer',
    expires_at: typeof value.expires_at === 'number' ? value.expires_at : 0,
  };
}

/** The header every authenticated call sends: the stored string, else token type + token. */
export function getAuthorizationHeader(): string | null {
  const stored = window.sessionStorage.getItem(SESSION_KEYS.authorization);
  if (stored) return stored;
  const tokens = getStoredTokens();
  return tokens ? `${tokens.token_type} ${tokens.access_token}` : null;
}

export function storeSession(
  user: SessionUser,
  tokens: { access_token: string; token_type: string; expires_in?: number },
  now = Date.now(),
): void {
  const lifetime =
    tokens.expires_in && tokens.expires_in > 0 ? tokens.expires_in : DEFAULT_TOKEN_LIFETIME_SEC;
  const stored: StoredTokens = {
    access_token: tokens.access_token,
    token_type: tokens.token_type,
    expires_at: now + lifetime * 1000,
  };
  const storage = window.sessionStorage;
  storage.setItem(SESSION_KEYS.user, JSON.stringify(user));
  storage.setItem(SESSION_KEYS.tokens, JSON.stringify(stored));
  storage.setItem(SESSION_KEYS.authorization, `${stored.token_type} ${stored.access_token}`);
  storage.removeItem(SESSION_KEYS.expired);
  writeHint(true);
  changed();
}

function writeHint(signedIn: boolean): void {
  try {
    if (signedIn) window.localStorage.setItem(SIGNED_IN_HINT, '1');
    else window.localStorage.removeItem(SIGNED_IN_HINT);
  } catch {
    // Storage refused (private mode): tabs just do not share the sign-in.
  }
}

/** Whether this browser holds a sign-in its refresh cookie may restore. */
export function hasSignInHint(): boolean {
  try {
    return window.localStorage.getItem(SIGNED_IN_HINT) === '1';
  } catch {
    return false;
  }
}

/** The browser's sign-in is over (signed out, or the refresh cookie was refused): every tab forgets it. */
export function forgetSignIn(): void {
  writeHint(false);
}

let restoring = false;
/** A refresh is under way: the UI shows its loading state, not a flash of signed-out. */
export function setRestoring(value: boolean): void {
  if (restoring === value) return;
  restoring = value;
  changed();
}

/** Forgets the user and tokens. `expired` keeps a marker so the UI says Session Expired. */
export function clearSession(reason: 'signed_out' | 'expired' = 'signed_out'): void {
  const storage = window.sessionStorage;
  storage.removeItem(SESSION_KEYS.user);
  storage.removeItem(SESSION_KEYS.tokens);
  storage.removeItem(SESSION_KEYS.authorization);
  if (reason === 'expired') storage.setItem(SESSION_KEYS.expired, '1');
  else storage.removeItem(SESSION_KEYS.expired);
  changed();
}

export function isSessionExpired(): boolean {
  return window.sessionStorage.getItem(SESSION_KEYS.expired) === '1';
}

export interface SessionSnapshot {
  user: SessionUser | null;
  expired: boolean;
  /** Trading the refresh cookie for a bearer right now. */
  restoring: boolean;
}

let snapshot: SessionSnapshot | null = null;
let snapshotVersion = -1;
function getSnapshot(): SessionSnapshot {
  if (snapshot === null || snapshotVersion !== version) {
    snapshot = { user: getStoredUser(), expired: isSessionExpired(), restoring };
    snapshotVersion = version;
  }
  return snapshot;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Signing out in one tab signs out every tab of this browser at once (the others would find out
 * on their next call anyway: the API refuses their bearers and the cookie).
 */
const SIGN_OUT_CHANNEL = 'spacecadet-sign-out';
const signOuts =
  typeof window !== 'undefined' && typeof BroadcastChannel !== 'undefined'
    ? new BroadcastChannel(SIGN_OUT_CHANNEL)
    : null;
signOuts?.addEventListener('message', () => {
  if (getStoredUser() !== null) clearSession();
});

/** This browser signed out (from the account menu): forget the sign-in here and in every tab. */
export function signOutEveryTab(): void {
  forgetSignIn();
  clearSession();
  signOuts?.postMessage('signed_out');
}

/** The stored user and whether the last call found the session expired; re-renders on change. */
export function useSession(): SessionSnapshot {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
