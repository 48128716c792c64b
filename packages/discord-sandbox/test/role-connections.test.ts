import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_IDS, type Sandbox, startSandbox } from '../src/index.ts';
import { authorize, bot, exchange, REDIRECT, signIn } from './helpers.ts';

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterEach(async () => {
  await sandbox.close();
});

const { users } = SANDBOX_IDS;
const METADATA = [
  { type: 2, key: 'level', name: 'Level', description: 'Level at least' },
  { type: 2, key: 'xp', name: 'XP', description: 'XP at least' },
];
const connectionPath = `/users/@me/applications/${SANDBOX_IDS.app}/role-connection`;

/** A user token with `role_connections.write`, through the code grant without PKCE as Discord requires. */
async function linkToken(userId: string): Promise<string> {
  const auth = await authorize(sandbox, { sandbox_user: userId, scope: 'identify role_connections.write' });
  const code = auth.location?.searchParams.get('code') ?? '';
  const { body } = await exchange(sandbox, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
  });
  expect(body.scope).toBe('identify role_connections.write');
  return String(body.access_token);
}

async function asUser(token: string, method: string, body?: unknown) {
  const res = await fetch(`${sandbox.apiBase}/v10${connectionPath}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}

describe('role connection metadata', () => {
  it('is set and read with the bot token, checked like Discord', async () => {
    const metadataPath = `/applications/${SANDBOX_IDS.app}/role-connections/metadata`;
    expect((await bot(sandbox, 'GET', metadataPath)).body).toEqual([]);
    expect((await bot(sandbox, 'PUT', metadataPath, METADATA)).body).toEqual(METADATA);
    expect((await bot(sandbox, 'GET', metadataPath)).body).toEqual(METADATA);
    expect(sandbox.state().role_connections.metadata).toEqual(METADATA);
    const six = Array.from({ length: 6 }, (_, i) => ({ ...METADATA[0], key: `k${i}` }));
    const tooMany = await bot(sandbox, 'PUT', metadataPath, six);
    expect(tooMany.status).toBe(400);
    expect((tooMany.body as { code: number }).code).toBe(50035);
    const badKey = await bot(sandbox, 'PUT', metadataPath, [{ ...METADATA[0], key: 'Level!' }]);
    expect(badKey.status).toBe(400);
    const user = await fetch(`${sandbox.apiBase}/v10${metadataPath}`);
    expect(user.status).toBe(401);
  });
});

describe('user role connection', () => {
  it('is set, read and cleared with a role_connections.write token', async () => {
    await bot(sandbox, 'PUT', `/applications/${SANDBOX_IDS.app}/role-connections/metadata`, METADATA);
    const token = await linkToken(users.ada);
    const put = await asUser(token, 'PUT', {
      platform_name: 'Space Cadet',
      metadata: { level: '7', xp: 1234 },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      platform_name: 'Space Cadet',
      platform_username: null,
      metadata: { level: '7', xp: '1234' },
    });
    expect((await asUser(token, 'GET')).body).toEqual(put.body);
    expect(sandbox.state().role_connections.users[users.ada]?.metadata).toEqual({ level: '7', xp: '1234' });

    expect((await asUser(token, 'DELETE')).status).toBe(204);
    expect(sandbox.state().role_connections.users[users.ada]).toBeUndefined();
    expect((await asUser(token, 'GET')).body).toEqual({
      platform_name: null,
      platform_username: null,
      metadata: {},
    });
  });

  it('refuses a token without the scope, unknown keys and non-integers', async () => {
    await bot(sandbox, 'PUT', `/applications/${SANDBOX_IDS.app}/role-connections/metadata`, METADATA);
    const signInToken = String((await signIn(sandbox, users.ada)).access_token);
    const noScope = await asUser(signInToken, 'PUT', { metadata: { level: '1' } });
    expect(noScope.status).toBe(401);
    expect(sandbox.state().role_connections.users[users.ada]).toBeUndefined();

    const token = await linkToken(users.ada);
    const unknown = await asUser(token, 'PUT', { metadata: { rank: '1' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body?.code).toBe(50035);
    expect((await asUser(token, 'PUT', { metadata: { level: 'ten' } })).status).toBe(400);
    expect(sandbox.state().role_connections.users[users.ada]).toBeUndefined();
  });

  it('refuses PKCE with role_connections.write, as Discord does', async () => {
    const auth = await authorize(sandbox, {
      sandbox_user: users.ada,
      scope: 'identify role_connections.write',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    });
    expect(auth.status).toBe(302);
    expect(auth.location?.searchParams.get('error')).toBe('invalid_scope');
    expect(auth.location?.searchParams.get('code')).toBeNull();
  });

  it("limits each user's updates and says so in the headers", async () => {
    await bot(sandbox, 'PUT', `/applications/${SANDBOX_IDS.app}/role-connections/metadata`, METADATA);
    const token = await linkToken(users.ada);
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof asUser>> | null = null;
    for (let i = 0; i < 6; i += 1) {
      const res = await asUser(token, 'PUT', { metadata: { level: String(i) } });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    expect(limited?.headers.get('x-ratelimit-scope')).toBe('user');
    // Another user's bucket is their own.
    const other = await linkToken(users.mo);
    expect((await asUser(other, 'PUT', { metadata: { level: '1' } })).status).toBe(200);
  });
});
