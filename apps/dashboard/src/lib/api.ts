import {
  type RouteBody,
  type RouteDef,
  type RouteName,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
  routePath,
  routes,
  successSchema,
} from '@spacecadet/contract';
import type { ZodType } from 'zod';
import { getConfig } from '../config.ts';
import { ApiError, isApiError, NOT_AUTHENTICATED, SESSION_EXPIRED } from './api-error.ts';
import {
  clearSession,
  forgetSignIn,
  getAuthorizationHeader,
  getStoredTokens,
  hasSignInHint,
  isSessionExpired,
  setRestoring,
  storeSession,
} from './session.ts';

/** The calls that carry the API's refresh cookie (set, traded or ended): sent with credentials. */
const COOKIE_ROUTES: ReadonlySet<RouteName> = new Set<RouteName>([
  'exchangeCode',
  'refreshSession',
  'logout',
  'logoutEverywhere',
]);

type EndedAs = 'signed_out' | 'expired';

let refreshing: Promise<boolean> | null = null;

/**
 * Trades the browser's refresh cookie for a bearer of this tab (a new tab, a restarted browser, a
 * bearer the API refused): true once stored. Calls at the same time share one request. When it
 * fails the tab is signed out (`endedAs` says how the page puts it), and a refused cookie
 * (401) tells every tab of this browser that the sign-in is over.
 */
export function refreshSession(endedAs: EndedAs): Promise<boolean> {
  if (!hasSignInHint()) {
    if (getAuthorizationHeader() !== null || endedAs === 'expired') clearSession(endedAs);
    return Promise.resolve(false);
  }
  refreshing ??= (async () => {
    setRestoring(true);
    try {
      const { user, tokens } = await apiCall('refreshSession');
      storeSession(user, tokens);
      return true;
    } catch (error) {
      if (isApiError(error) && error.status === 401) forgetSignIn();
      clearSession(endedAs);
      return false;
    }
  })().finally(() => {
    refreshing = null;
    setRestoring(false);
  });
  return refreshing;
}

/**
 * At start: a tab without a bearer (new tab, restarted browser) restores the browser's sign-in.
 * Settles once it is over (true when restored), so start-up can end its loading state.
 */
export function restoreSignIn(): Promise<boolean> {
  if (getAuthorizationHeader() === null && hasSignInHint()) {
    return refreshSession(isSessionExpired() ? 'expired' : 'signed_out');
  }
  return Promise.resolve(false);
}

export interface ApiCallOptions<N extends RouteName> {
  params?: RouteParams<N>;
  query?: RouteQuery<N>;
  body?: RouteBody<N>;
  /**
   * A body sent as it is with its own content type (a CSV or JSON file an admin picked), for
   * routes whose contract takes a file rather than a JSON body.
   */
  file?: { type: string; data: Blob | string };
  /**
   * On a public route, send the session too when there is one: the route answers more to a
   * signed-in user (a members-only leaderboard), and a 401 there leaves the session alone.
   */
  withSession?: boolean;
  signal?: AbortSignal;
}

type Primitive = string | number | boolean;
function toQueryString(query: unknown): string {
  if (typeof query !== 'object' || query === null) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query as Record<string, Primitive | null | undefined>)) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

function fieldOf(body: unknown, field: 'error' | 'message'): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function issuesOf(body: unknown): Array<{ path: string; message: string }> {
  const issues =
    typeof body === 'object' && body !== null ? (body as { issues?: unknown }).issues : undefined;
  if (!Array.isArray(issues)) return [];
  return issues.filter(
    (issue): issue is { path: string; message: string } =>
      typeof issue?.path === 'string' && typeof issue?.message === 'string',
  );
}

/** Reads a JSON body; throws `HTML response`, `unexpected content type` or `invalid JSON` else. */
async function readJson(response: Response): Promise<unknown> {
  const type = response.headers.get('content-type') ?? '';
  const text = await response.text();
  if (!/\bjson\b/i.test(type)) {
    const looksHtml = /text\/html/i.test(type) || /^\s*</.test(text);
    throw new ApiError(looksHtml ? 'HTML response' : 'unexpected content type', { status: response.status });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('invalid JSON', { status: response.status });
  }
}

const ended = (as: EndedAs) =>
  as === 'expired'
    ? new ApiError(SESSION_EXPIRED, { status: 401, code: SESSION_EXPIRED })
    : new ApiError(NOT_AUTHENTICATED, { status: 401, code: NOT_AUTHENTICATED });

/** The bearer as stored, or null when there is none or it has lapsed (and how the tab lost it). */
function currentBearer(): { authorization: string } | { missing: EndedAs } {
  const authorization = getAuthorizationHeader();
  if (!authorization) return { missing: isSessionExpired() ? 'expired' : 'signed_out' };
  const tokens = getStoredTokens();
  if (tokens && tokens.expires_at > 0 && tokens.expires_at <= Date.now()) return { missing: 'expired' };
  return { authorization };
}

/**
 * The Authorization header of a call: the stored bearer, else one the refresh cookie trades for
 * (once; `refreshed` says it was just traded). Null on a public call without one.
 */
async function bearerFor(
  def: RouteDef,
  withSession: boolean,
): Promise<{ authorization: string | null; refreshed: boolean }> {
  if (def.auth === 'public' && !withSession) return { authorization: null, refreshed: false };
  const bearer = currentBearer();
  if ('authorization' in bearer) return { authorization: bearer.authorization, refreshed: false };
  if (def.auth === 'public' && !hasSignInHint()) return { authorization: null, refreshed: false };
  if (await refreshSession(bearer.missing)) {
    return { authorization: getAuthorizationHeader(), refreshed: true };
  }
  if (def.auth === 'public') return { authorization: null, refreshed: false };
  throw ended(bearer.missing);
}

/** Sends the call and turns any failure into an `ApiError`; the caller reads the success body. */
async function send<N extends RouteName>(
  name: N,
  options: ApiCallOptions<N>,
  retried = false,
): Promise<Response> {
  const def: RouteDef = routes[name];
  const headers: Record<string, string> = { Accept: 'application/json' };
  const bearer = await bearerFor(def, options.withSession === true);
  if (bearer.authorization !== null) headers.Authorization = bearer.authorization;
  let body: BodyInit | undefined;
  if (options.file) {
    headers['Content-Type'] = options.file.type;
    body = options.file.data;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  const params = options.params as Record<string, string | number> | undefined;
  const url = `${getConfig().apiUrl}${routePath(def, params)}${toQueryString(options.query)}`;
  const response = await fetch(url, {
    method: def.method,
    headers,
    ...(COOKIE_ROUTES.has(name) ? { credentials: 'include' as const } : {}),
    ...(body === undefined ? {} : { body }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (response.ok) return response;

  let failure: unknown = null;
  try {
    failure = await readJson(response);
  } catch {
    // A non-JSON error page still yields api_error_{status}.
  }
  const code = fieldOf(failure, 'error');
  const detail = fieldOf(failure, 'message');
  const error = new ApiError(code ?? detail ?? `api_error_${response.status}`, {
    status: response.status,
    code,
    detail,
    issues: issuesOf(failure),
  });
  if (response.status === 401 && headers.Authorization !== undefined) {
    // The API refused the bearer: trade the refresh cookie for a new one and try once more.
    const endedAs: EndedAs = code === SESSION_EXPIRED ? 'expired' : 'signed_out';
    const retry = !retried && !bearer.refreshed && !COOKIE_ROUTES.has(name);
    if (retry && (await refreshSession(endedAs))) return send(name, options, true);
    if (def.auth !== 'public') clearSession(endedAs);
  }
  throw error;
}

/**
 * The one typed API client: path from the contract's route table, Authorization from
 * storage, the same response handling for every call (`readJson`, `ApiError`), and every success
 * body parsed with the route's schema.
 */
export async function apiCall<N extends RouteName>(
  name: N,
  options: ApiCallOptions<N> = {},
): Promise<RouteResponse<N>> {
  const def = routes[name];
  const response = await send(name, options);
  if (response.status === 204 || response.status === 205) return undefined as RouteResponse<N>;

  const body = await readJson(response);
  // A route answering two successes (an undo: 200 done, 202 queued) is read with that status's schema.
  const schema = (def.responses as Partial<Record<number, ZodType>>)[response.status] ?? successSchema(def);
  if (schema === null) return undefined as RouteResponse<N>;
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError('unexpected response shape', { status: response.status, code: 'invalid_response' });
  }
  return parsed.data as RouteResponse<N>;
}

/** A call whose success body is text rather than JSON (a CSV export), with `apiCall`'s failures. */
export async function apiText<N extends RouteName>(
  name: N,
  options: ApiCallOptions<N> = {},
): Promise<string> {
  const response = await send(name, options);
  return response.text();
}

/** A call whose success body is bytes (the rank card preview's PNG), with `apiCall`'s failures. */
export async function apiBlob<N extends RouteName>(name: N, options: ApiCallOptions<N> = {}): Promise<Blob> {
  const response = await send(name, options);
  return response.blob();
}
