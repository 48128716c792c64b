import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiCall } from './api.ts';
import { ApiError } from './api-error.ts';
import { getStoredUser, isSessionExpired, storeSession } from './session.ts';

const fetchMock = vi.fn<typeof fetch>();

function respond(status: number, body: string | null, type = 'application/json'): Response {
  return new Response(body, { status, headers: body === null ? {} : { 'content-type': type } });
}

function signIn() {
  storeSession(
    { id: '200000000000000001', username: 'ada', discriminator: '0', avatar: null },
    { access_token: 'tok', token_type: 'Bearer', expires_in: 3600 },
  );
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiCall', () => {
  it('fails with not_authenticated without a request when no tokens are stored', async () => {
    const error = await failure(apiCall('listAdminGuilds'));
    expect(error.message).toBe('not_authenticated');
    expect(error.status).toBe(401);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('fills the path from the route table and sends the stored Authorization header', async () => {
    signIn();
    fetchMock.mockResolvedValue(
      respond(200, JSON.stringify({ data: {}, updated_by: null, updated_at: null })),
    );
    await apiCall('getConfig', { params: { guildId: '300000000000000001' } });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('http://127.0.0.1:4000/api/guilds/300000000000000001/config');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer tok');
  });

  it('treats 204 and 205 as success without a body', async () => {
    signIn();
    fetchMock.mockResolvedValueOnce(respond(204, null));
    await expect(apiCall('logout')).resolves.toBeUndefined();
    fetchMock.mockResolvedValueOnce(respond(205, null));
    await expect(apiCall('logout')).resolves.toBeUndefined();
  });

  it.each([
    ['<!doctype html><p>hi</p>', 'text/html', 'HTML response'],
    ['hello', 'text/plain', 'unexpected content type'],
    ['{"url": ', 'application/json', 'invalid JSON'],
  ])('rejects a %s body as %s', async (body, type, message) => {
    fetchMock.mockResolvedValue(respond(200, body, type));
    const error = await failure(apiCall('getInviteUrl'));
    expect(error.message).toBe(message);
  });

  it('uses the error field, then the message field, then api_error_{status}', async () => {
    fetchMock.mockResolvedValueOnce(
      respond(409, JSON.stringify({ error: 'bot_not_in_guild', message: 'Bot not in guild' })),
    );
    let error = await failure(apiCall('getInviteUrl'));
    expect([error.message, error.status, error.code, error.detail]).toEqual([
      'bot_not_in_guild',
      409,
      'bot_not_in_guild',
      'Bot not in guild',
    ]);
    fetchMock.mockResolvedValueOnce(respond(400, JSON.stringify({ message: 'Bad thing' })));
    error = await failure(apiCall('getInviteUrl'));
    expect(error.message).toBe('Bad thing');
    fetchMock.mockResolvedValueOnce(respond(502, '<html>bad gateway</html>', 'text/html'));
    error = await failure(apiCall('getInviteUrl'));
    expect([error.message, error.status]).toEqual(['api_error_502', 502]);
  });

  it('parses success bodies with the route schema', async () => {
    fetchMock.mockResolvedValueOnce(respond(200, JSON.stringify({ url: 'https://example.com/invite' })));
    await expect(apiCall('getInviteUrl')).resolves.toEqual({ url: 'https://example.com/invite' });
    fetchMock.mockResolvedValueOnce(respond(200, JSON.stringify({ link: 'nope' })));
    const error = await failure(apiCall('getInviteUrl'));
    expect(error.code).toBe('invalid_response');
  });

  it('forgets the session on a 401 and remembers that it expired', async () => {
    signIn();
    fetchMock.mockResolvedValueOnce(
      respond(401, JSON.stringify({ error: 'session_expired', message: 'Expired' })),
    );
    await failure(apiCall('listAdminGuilds'));
    expect(getStoredUser()).toBeNull();
    expect(isSessionExpired()).toBe(true);

    signIn();
    fetchMock.mockResolvedValueOnce(
      respond(401, JSON.stringify({ error: 'not_authenticated', message: 'No' })),
    );
    await failure(apiCall('listAdminGuilds'));
    expect(getStoredUser()).toBeNull();
    expect(isSessionExpired()).toBe(false);
  });
});
