import type { AddressInfo } from 'node:net';
import { sessions, signIns } from '@spacecadet/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashSessionToken, TokenCipher } from '../src/services/crypto.ts';
import {
  authorizeCode,
  dropGuildList,
  GUILDS,
  type Harness,
  newPkce,
  signIn,
  startHarness,
  USERS,
} from './harness.ts';

let h: Harness;
let baseUrl: string;

beforeAll(async () => {
  h = await startHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await h?.close();
});

async function exchange(code: string, verifier: string): Promise<Response> {
  return fetch(`${baseUrl}/api/auth/discord/exchange`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:5173' },
    body: JSON.stringify({ code, code_verifier: verifier }),
  });
}

function tokenOf(authorization: string): string {
  return authorization.replace(/^Bearer /, '');
}

/** The sign-in (Discord tokens, refresh token) behind a bearer. */
async function signInOf(authorization: string) {
  const [row] = await h.database.db
    .select({ signIn: signIns })
    .from(sessions)
    .innerJoin(signIns, eq(signIns.id, sessions.signInId))
    .where(eq(sessions.tokenHash, hashSessionToken(tokenOf(authorization))));
  if (!row) throw new Error('no sign-in behind this bearer');
  return row.signIn;
}

describe('PKCE sign-in over HTTP', () => {
  it('exchanges a code for an opaque session and stores only its hash and encrypted Discord tokens', async () => {
    const pkce = newPkce();
    const code = await authorizeCode(h.sandbox, USERS.ada, pkce);
    const response = await exchange(code, pkce.verifier);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
    const body = (await response.json()) as {
      user: { id: string; username: string };
      tokens: { access_token: string; token_type: string; expires_in: number };
    };
    expect(body.user.id).toBe(USERS.ada);
    expect(body.user.username).toBe('ada');
    expect(body.tokens.token_type).toBe('Bearer');
    expect(body.tokens.expires_in).toBe(3600);

    const [row] = await h.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashSessionToken(body.tokens.access_token)));
    expect(row?.userId).toBe(USERS.ada);
    expect(row?.tokenHash).not.toContain(body.tokens.access_token);
    expect(
      (await signInOf(`Bearer ${body.tokens.access_token}`)).discordAccessTokenEnc.startsWith('v1.'),
    ).toBe(true);
    expect(row?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 3500_000);

    const me = await fetch(`${baseUrl}/api/auth/session`, {
      headers: { authorization: `Bearer ${body.tokens.access_token}` },
    });
    expect(me.status).toBe(200);
    const session = (await me.json()) as { user: { id: string }; is_owner: boolean; expires_at: string };
    expect(session.user.id).toBe(USERS.ada);
    expect(session.is_owner).toBe(true);
    expect(Date.parse(session.expires_at)).toBeGreaterThan(Date.now());
  });

  it("refuses a wrong verifier with 401 auth_failed and Discord's description", async () => {
    const pkce = newPkce();
    const code = await authorizeCode(h.sandbox, USERS.mo, pkce);
    const response = await exchange(code, newPkce().verifier);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: 'auth_failed',
      message: 'Invalid "code_verifier" in request.',
    });
  });

  it('refuses a reused code', async () => {
    const pkce = newPkce();
    const code = await authorizeCode(h.sandbox, USERS.mo, pkce);
    expect((await exchange(code, pkce.verifier)).status).toBe(200);
    const again = await exchange(code, pkce.verifier);
    expect(again.status).toBe(401);
    expect(((await again.json()) as { error: string }).error).toBe('auth_failed');
  });

  it('answers session for non-owners with is_owner false', async () => {
    const auth = await signIn(h, USERS.mo);
    const me = await h.app.inject({ url: '/api/auth/session', headers: { authorization: auth } });
    expect(me.json()).toMatchObject({ user: { id: USERS.mo }, is_owner: false });
  });
});

describe('session lifecycle', () => {
  it('401 not_authenticated without a token or with an unknown one', async () => {
    for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: 'Basic abc' }]) {
      const response = await h.app.inject({ url: '/api/auth/session', headers });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'not_authenticated', message: 'Sign in required' });
    }
  });

  it('401 session_expired once the session has expired', async () => {
    const auth = await signIn(h, USERS.ada);
    expect(
      (await h.app.inject({ url: '/api/auth/session', headers: { authorization: auth } })).statusCode,
    ).toBe(200);
    // The session's lifetime passes (the replica holds it in memory by now).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + h.config.sessionTtlSec * 1000 + 1000 });
    let response: Awaited<ReturnType<typeof h.app.inject>>;
    try {
      response = await h.app.inject({ url: '/api/discord/me/guilds', headers: { authorization: auth } });
    } finally {
      vi.useRealTimers();
    }
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      error: 'session_expired',
      message: 'Your session has expired. Sign in again.',
    });
  });

  it('logout revokes the session and the Discord grant behind it', async () => {
    const auth = await signIn(h, USERS.ada);
    const row = await signInOf(auth);
    const discordToken = new TokenCipher(h.config.sessionSecret).decrypt(row.discordAccessTokenEnc);
    const discordMe = () =>
      fetch(`${h.sandbox.apiBase}/v10/users/@me`, { headers: { authorization: `Bearer ${discordToken}` } });
    expect((await discordMe()).status).toBe(200);
    const out = await h.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: auth },
    });
    expect(out.statusCode).toBe(204);
    expect(out.body).toBe('');
    const after = await h.app.inject({ url: '/api/auth/session', headers: { authorization: auth } });
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe('session_expired');
    expect((await discordMe()).status).toBe(401);
  });

  it('refreshes the Discord token when Discord refuses it, and when it is stored as expired', async () => {
    const auth = await signIn(h, USERS.ada);
    const before = await signInOf(auth);

    const expired = await fetch(`${h.sandbox.url}/_sandbox/tokens/expire`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: USERS.ada }),
    });
    expect(((await expired.json()) as { expired: number }).expired).toBeGreaterThan(0);
    await dropGuildList(h, USERS.ada);

    const guilds = await h.app.inject({ url: '/api/discord/me/guilds', headers: { authorization: auth } });
    expect(guilds.statusCode).toBe(200);
    const afterRefresh = await signInOf(auth);
    expect(afterRefresh.discordAccessTokenEnc).not.toBe(before.discordAccessTokenEnc);
    expect(afterRefresh.discordRefreshTokenEnc).not.toBe(before.discordRefreshTokenEnc);

    // Stored expiry in the past: refreshed before calling Discord at all.
    await h.database.db
      .update(signIns)
      .set({ discordTokenExpiresAt: new Date(0) })
      .where(eq(signIns.id, before.id));
    await dropGuildList(h, USERS.ada);
    const again = await h.app.inject({ url: '/api/discord/me/guilds', headers: { authorization: auth } });
    expect(again.statusCode).toBe(200);
    const afterSecond = await signInOf(auth);
    expect(afterSecond.discordTokenExpiresAt.getTime()).toBeGreaterThan(Date.now());
    expect(afterSecond.discordAccessTokenEnc).not.toBe(afterRefresh.discordAccessTokenEnc);
  });
});

describe('concurrent refreshes', () => {
  it('refresh once: parallel requests with a refused token all succeed and keep the session', async () => {
    const auth = await signIn(h, USERS.rex);
    await fetch(`${h.sandbox.url}/_sandbox/tokens/expire`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: USERS.rex }),
    });
    await dropGuildList(h, USERS.rex);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        h.app.inject({ url: '/api/discord/me/guilds', headers: { authorization: auth } }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const session = await h.app.inject({ url: '/api/auth/session', headers: { authorization: auth } });
    expect(session.statusCode).toBe(200);
  });

  it('refresh once per session even across API replicas (row lock)', async () => {
    const auth = await signIn(h, USERS.rex);
    const [row] = await h.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashSessionToken(tokenOf(auth))));
    if (!row) throw new Error('no session row');
    const refused = new TokenCipher(h.config.sessionSecret).decrypt(
      (await signInOf(auth)).discordAccessTokenEnc,
    );
    // Several callers at once, each told by Discord that the same token was refused.
    const tokens = await Promise.all(
      Array.from({ length: 5 }, () => h.app.services.sessions.discordAccessToken(row.id, { refused })),
    );
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(refused);
    expect(tokens[0]).not.toBeNull();
    expect(
      (await h.app.inject({ url: '/api/auth/session', headers: { authorization: auth } })).statusCode,
    ).toBe(200);
  });
});

describe('a refresh Discord refuses', () => {
  it('ends the session: 401 session_expired, then for good', async () => {
    const auth = await signIn(h, USERS.mo);
    const where = eq(sessions.tokenHash, hashSessionToken(tokenOf(auth)));
    const cipher = new TokenCipher(h.config.sessionSecret);
    await h.database.db
      .update(signIns)
      .set({ discordTokenExpiresAt: new Date(0), discordRefreshTokenEnc: cipher.encrypt('revoked-by-user') })
      .where(eq(signIns.id, (await signInOf(auth)).id));
    await dropGuildList(h, USERS.mo);
    const response = await h.app.inject({ url: '/api/discord/me/guilds', headers: { authorization: auth } });
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe('session_expired');
    const [row] = await h.database.db.select().from(sessions).where(where);
    expect(row?.revokedAt).not.toBeNull();
  });
});

describe('GET /api/discord/me/guilds', () => {
  it('lists only guilds the user owns or manages', async () => {
    const ada = await h.app.inject({
      url: '/api/discord/me/guilds',
      headers: { authorization: await signIn(h, USERS.ada) },
    });
    const ids = ada.json<Array<{ id: string }>>().map((g) => g.id);
    expect(ids.sort()).toEqual([GUILDS.station, GUILDS.quiet].sort());

    const mo = await h.app.inject({
      url: '/api/discord/me/guilds',
      headers: { authorization: await signIn(h, USERS.mo) },
    });
    expect(mo.json<Array<{ id: string }>>().map((g) => g.id)).toEqual([GUILDS.station]);

    const nia = await h.app.inject({
      url: '/api/discord/me/guilds',
      headers: { authorization: await signIn(h, USERS.nia) },
    });
    expect(nia.statusCode).toBe(200);
    expect(nia.json()).toEqual([]);
  });

  it('answers 502 discord_guilds_fetch_failed when Discord fails', async () => {
    const auth = await signIn(h, USERS.rex);
    await dropGuildList(h, USERS.rex);
    await fetch(`${h.sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'GET', path: '/users/@me/guilds', status: 500, count: 1 }),
    });
    const response = await h.app.inject({ url: '/api/discord/me/guilds', headers: { authorization: auth } });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({
      error: 'discord_guilds_fetch_failed',
      message: 'Discord guild fetch failed temporarily. Try again.',
    });
    // Nothing was cached from the failure: the next call reaches Discord and succeeds.
    const retry = await h.app.inject({ url: '/api/discord/me/guilds', headers: { authorization: auth } });
    expect(retry.json<Array<{ id: string }>>().map((g) => g.id)).toEqual([GUILDS.orbit]);
  });
});
