import type { SessionUser } from '@spacecadet/contract';
import { useSyncExternalStore } from 'react';

/** sessionStorage keys: the session lives as long as the tab. */
export const SESSION_KEYS = {
  user: 'session_user',
  tokens: 'session_tokens',
  authorization: 'authorization',
  verifier: 'pkce_verifier',
  state: 'oauth_state',
  returnTo: 'oauth_return_to',
  expired: 'session_expired',
} as const;

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
}

let snapshot: SessionSnapshot | null = null;
let snapshotVersion = -1;
function getSnapshot(): SessionSnapshot {
  if (snapshot === null || snapshotVersion !== version) {
    snapshot = { user: getStoredUser(), expired: isSessionExpired() };
    snapshotVersion = version;
  }
  return snapshot;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The stored user and whether the last call found the session expired; re-renders on change. */
export function useSession(): SessionSnapshot {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
