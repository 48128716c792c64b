import { vi } from 'vitest';
import { storeSession } from '../src/lib/session.ts';

export type FakeRoute = (request: {
  method: string;
  path: string;
  body: unknown;
}) => { status: number; body?: unknown } | undefined;

/**
 * Fakes the API at the network layer: `fetch` answers from the handler. What it leaves out is a
 * 404, except the signed-in session (`GET /api/auth/session`), which the dashboard header asks
 * for on every page: ada's, not the owner, unless the handler answers it.
 */
export function fakeApi(handler: FakeRoute) {
  const calls: Array<{ method: string; path: string; body: unknown }> = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const request = { method, path: url.pathname + url.search, body };
    calls.push(request);
    const answer =
      handler(request) ??
      (method === 'GET' && url.pathname === '/api/auth/session'
        ? { status: 200, body: ADA_SESSION }
        : { status: 404, body: { error: 'not_found', message: 'Not found' } });
    if (answer.status === 204) return new Response(null, { status: 204 });
    return new Response(JSON.stringify(answer.body ?? {}), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

export const ADA = { id: '200000000000000001', username: 'ada', discriminator: '0', avatar: null };
/** `GET /api/auth/session` for ada, signed in by signInAda. */
export const ADA_SESSION = { user: ADA, is_owner: false, expires_at: '2030-01-01T00:00:00Z' };
export const STATION = { id: '300000000000000001', name: 'Sandbox Station', icon: null };
export const QUIET = { id: '300000000000000002', name: 'Quiet Quarters', icon: null };

export function signInAda(): void {
  storeSession(ADA, { access_token: 'tok', token_type: 'Bearer', expires_in: 3600 });
}
