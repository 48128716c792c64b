import {
  type RouteBody,
  type RouteName,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
  routePath,
  routes,
  successSchema,
} from '@spacecadet/contract';
import { getConfig } from '../config.ts';
import { ApiError, NOT_AUTHENTICATED, SESSION_EXPIRED } from './api-error.ts';
import { clearSession, getAuthorizationHeader, getStoredTokens } from './session.ts';

export interface ApiCallOptions<N extends RouteName> {
  params?: RouteParams<N>;
  query?: RouteQuery<N>;
  body?: RouteBody<N>;
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
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (def.auth !== 'public') {
    const authorization = getAuthorizationHeader();
    if (!authorization) throw new ApiError(NOT_AUTHENTICATED, { status: 401, code: NOT_AUTHENTICATED });
    const tokens = getStoredTokens();
    if (tokens && tokens.expires_at > 0 && tokens.expires_at <= Date.now()) {
      clearSession('expired');
      throw new ApiError(SESSION_EXPIRED, { status: 401, code: SESSION_EXPIRED });
    }
    headers.Authorization = authorization;
  }
  const hasBody = options.body !== undefined;
  if (hasBody) headers['Content-Type'] = 'application/json';

  const params = options.params as Record<string, string | number> | undefined;
  const url = `${getConfig().apiUrl}${routePath(def, params)}${toQueryString(options.query)}`;
  const response = await fetch(url, {
    method: def.method,
    headers,
    ...(hasBody ? { body: JSON.stringify(options.body) } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });

  if (response.status === 204 || response.status === 205) return undefined as RouteResponse<N>;

  if (!response.ok) {
    let body: unknown = null;
    try {
      body = await readJson(response);
    } catch {
      // A non-JSON error page still yields api_error_{status}.
    }
    const code = fieldOf(body, 'error');
    const detail = fieldOf(body, 'message');
    const error = new ApiError(code ?? detail ?? `api_error_${response.status}`, {
      status: response.status,
      code,
      detail,
      issues: issuesOf(body),
    });
    if (response.status === 401 && def.auth !== 'public') {
      clearSession(code === SESSION_EXPIRED ? 'expired' : 'signed_out');
    }
    throw error;
  }

  const body = await readJson(response);
  const schema = successSchema(def);
  if (schema === null) return undefined as RouteResponse<N>;
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError('unexpected response shape', { status: response.status, code: 'invalid_response' });
  }
  return parsed.data as RouteResponse<N>;
}
