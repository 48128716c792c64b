import { signIns } from '@spacecadet/db';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { hashSessionToken } from '../src/services/crypto.ts';
import { authorizeCode, DASHBOARD_URL, type Harness, newPkce, startHarness, USERS } from './harness.ts';

/**
 * Signed in across tabs: the refresh cookie the exchange sets, trading it for bearers, its
 * rotation (two tabs at once, a replayed copy), logout and sign out everywhere.
 */
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const COOKIE = 'spacecadet_refresh';

interface Browser {
  bearer: string;
  cookie: string;
  setCookie: string;
}

function setCookieOf(response: LightMyRequestResponse): string {
  const header = response.headers['set-cookie'];
  const value = Array.isArray(header) ? header.join('\n') : header;
  if (typeof value !== 'string') throw new Error(`no set-cookie in ${response.statusCode} ${response.body}`);
  return value;
}

function refreshTokenOf(setCookie: string): string {
  const match = new RegExp(`^${COOKIE}=([^;]*)`).exec(setCookie);
  if (!match?.[1]) throw new Error(`no refresh token in ${setCookie}`);
  return match[1];
}

async function signInBrowser(userId: string, app: FastifyInstance = h.app): Promise<Browser> {
  const pkce = newPkce();
  const code = await authorizeCode(h.sandbox, userId, pkce);
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/discord/exchange',
    headers: { origin: DASHBOARD_URL },
    payload: { code, code_verifier: pkce.verifier },
  });
  expect(response.statusCode).toBe(200);
  const setCookie = setCookieOf(response);
  return {
    bearer: `Bearer ${response.json<{ tokens: { access_token: string } }>().tokens.access_token}`,
    cookie: refreshTokenOf(setCookie),
    setCookie,
  };
}

function refresh(cookie: string | null, origin: string = DASHBOARD_URL) {
  return h.app.inject({
    method: 'POST',
    url: '/api/auth/refresh',
    headers: { origin, ...(cookie === null ? {} : { cookie: `other=1; ${COOKIE}=${cookie}` }) },
  });
}

async function sessionStatus(bearer: string): Promise<number> {
  return (await h.app.inject({ url: '/api/auth/session', headers: { authorization: bearer } })).statusCode;
}

async function signInRow(cookie: string) {
  const [row] = await h.database.db
    .select()
    .from(signIns)
    .where(eq(signIns.refreshTokenHash, hashSessionToken(cookie)));
  if (!row) throw new Error('no sign-in for this cookie');
  return row;
}

describe('the refresh cookie', () => {
  it('is HttpOnly, SameSite=Lax, Path=/api/auth, lives 30 days, not Secure over http; only its hash is stored', async () => {
    const browser = await signInBrowser(USERS.ada);
    const attributes = browser.setCookie.split(';').map((part) => part.trim());
    expect(attributes).toContain('HttpOnly');
    expect(attributes).toContain('SameSite=Lax');
    expect(attributes).toContain('Path=/api/auth');
    const maxAge = Number(attributes.find((part) => part.startsWith('Max-Age='))?.slice('Max-Age='.length));
    expect(maxAge).toBeGreaterThan(h.config.signIn.ttlSec - 60);
    expect(maxAge).toBeLessThanOrEqual(h.config.signIn.ttlSec);
    expect(h.config.signIn.ttlSec).toBe(30 * 86_400);
    expect(attributes).not.toContain('Secure');
    const row = await signInRow(browser.cookie);
    expect(row.refreshTokenHash).not.toContain(browser.cookie);
    expect(row.userId).toBe(USERS.ada);
  });

  it('is Secure when the API is served over https', async () => {
    const app = await buildApp(
      { ...h.config, publicApiUrl: 'https://api.spacecadet.example' },
      { logger: false },
    );
    try {
      await app.ready();
      const browser = await signInBrowser(USERS.ada, app);
      expect(browser.setCookie.split(';').map((part) => part.trim())).toContain('Secure');
    } finally {
      await app.close();
    }
  });
});

describe('POST /api/auth/refresh', () => {
  it('answers a working bearer for the same user, and rotates the cookie', async () => {
    const browser = await signInBrowser(USERS.mo);
    const response = await refresh(browser.cookie);
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      user: { id: string };
      tokens: { access_token: string; expires_in: number };
    }>();
    expect(body.user.id).toBe(USERS.mo);
    expect(body.tokens.expires_in).toBe(3600);
    const bearer = `Bearer ${body.tokens.access_token}`;
    expect(bearer).not.toBe(browser.bearer);
    const me = await h.app.inject({ url: '/api/auth/session', headers: { authorization: bearer } });
    expect(me.json()).toMatchObject({ user: { id: USERS.mo } });
    // The Discord tokens are the sign-in's: the new tab reaches Discord through them.
    const guilds = await h.app.inject({ url: '/api/discord/me/guilds', headers: { authorization: bearer } });
    expect(guilds.statusCode).toBe(200);

    const next = refreshTokenOf(setCookieOf(response));
    expect(next).not.toBe(browser.cookie);
    expect((await refresh(next)).statusCode).toBe(200);
    // Both bearers (two tabs) stay valid.
    expect(await sessionStatus(browser.bearer)).toBe(200);
  });

  it('answers 401 without a cookie or with a made-up one, and 403 to another origin', async () => {
    expect((await refresh(null)).json()).toEqual({ error: 'not_authenticated', message: 'Sign in required' });
    expect((await refresh('x'.repeat(43))).statusCode).toBe(401);
    const browser = await signInBrowser(USERS.nia);
    const foreign = await refresh(browser.cookie, 'https://evil.example');
    expect(foreign.statusCode).toBe(403);
    // Refused before anything changed: the cookie still works from the dashboard.
    expect((await refresh(browser.cookie)).statusCode).toBe(200);
  });

  it('lets two tabs refreshing at the same moment both in, with one rotation', async () => {
    const browser = await signInBrowser(USERS.rex);
    const [first, second] = await Promise.all([refresh(browser.cookie), refresh(browser.cookie)]);
    expect([first?.statusCode, second?.statusCode]).toEqual([200, 200]);
    const bearers = [first, second].map(
      (response) => `Bearer ${response?.json<{ tokens: { access_token: string } }>().tokens.access_token}`,
    );
    expect(new Set(bearers).size).toBe(2);
    for (const bearer of bearers) expect(await sessionStatus(bearer)).toBe(200);
    // Exactly one answer carries the rotated cookie; the other leaves the browser's alone.
    const rotated = [first, second].filter((response) => response?.headers['set-cookie'] !== undefined);
    expect(rotated).toHaveLength(1);
    const next = refreshTokenOf(setCookieOf(rotated[0] as LightMyRequestResponse));
    expect((await refresh(next)).statusCode).toBe(200);
  });

  it('ends the whole sign-in when a rotated token is replayed after the grace', async () => {
    const browser = await signInBrowser(USERS.ada);
    const other = await signInBrowser(USERS.ada);
    const rotated = await refresh(browser.cookie);
    const tab = `Bearer ${rotated.json<{ tokens: { access_token: string } }>().tokens.access_token}`;
    const current = refreshTokenOf(setCookieOf(rotated));
    // The grace passes.
    await h.database.db
      .update(signIns)
      .set({ rotatedAt: new Date(Date.now() - (h.config.signIn.refreshGraceSec + 1) * 1000) })
      .where(eq(signIns.refreshTokenHash, hashSessionToken(current)));

    const replay = await refresh(browser.cookie);
    expect(replay.statusCode).toBe(401);
    expect(setCookieOf(replay)).toMatch(new RegExp(`^${COOKIE}=; .*\\bMax-Age=0;`));
    // The thief's copy and the owner's cookie and tabs alike: the sign-in is over.
    expect((await refresh(current)).statusCode).toBe(401);
    expect(await sessionStatus(browser.bearer)).toBe(401);
    expect(await sessionStatus(tab)).toBe(401);
    // Another browser of the same user is not touched.
    expect(await sessionStatus(other.bearer)).toBe(200);
    expect((await refresh(other.cookie)).statusCode).toBe(200);
  });

  it('answers 401 session_expired once the sign-in has expired', async () => {
    const browser = await signInBrowser(USERS.mo);
    await h.database.db
      .update(signIns)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(signIns.refreshTokenHash, hashSessionToken(browser.cookie)));
    const response = await refresh(browser.cookie);
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe('session_expired');
  });
});

describe('signing out', () => {
  it("logout ends this browser's sign-in: its tabs, its cookie, cleared", async () => {
    const browser = await signInBrowser(USERS.nia);
    const tab = `Bearer ${(await refresh(browser.cookie)).json<{ tokens: { access_token: string } }>().tokens.access_token}`;
    const out = await h.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: browser.bearer, origin: DASHBOARD_URL },
    });
    expect(out.statusCode).toBe(204);
    expect(setCookieOf(out)).toBe(`${COOKIE}=; Path=/api/auth; Max-Age=0; HttpOnly; SameSite=Lax`);
    expect(await sessionStatus(tab)).toBe(401);
    // The browser held on to a copy of the cookie anyway: it trades for nothing.
    const after = await refresh(refreshTokenOf(browser.setCookie));
    expect(after.statusCode).toBe(401);
  });

  it("sign out everywhere ends every bearer and refresh token of the user, and no other user's", async () => {
    const laptop = await signInBrowser(USERS.rex);
    const phone = await signInBrowser(USERS.rex);
    const laptopTab = `Bearer ${(await refresh(laptop.cookie)).json<{ tokens: { access_token: string } }>().tokens.access_token}`;
    const [rotated] = await h.database.db
      .select()
      .from(signIns)
      .where(eq(signIns.previousRefreshTokenHash, hashSessionToken(laptop.cookie)));
    const someoneElse = await signInBrowser(USERS.mo);

    const out = await h.app.inject({
      method: 'POST',
      url: '/api/auth/logout-everywhere',
      headers: { authorization: phone.bearer, origin: DASHBOARD_URL },
    });
    expect(out.statusCode).toBe(204);
    expect(setCookieOf(out)).toMatch(new RegExp(`^${COOKIE}=; .*\\bMax-Age=0;`));
    for (const bearer of [laptop.bearer, laptopTab, phone.bearer])
      expect(await sessionStatus(bearer)).toBe(401);
    expect((await refresh(phone.cookie)).statusCode).toBe(401);
    expect(rotated?.revokedAt).toBeNull();
    const live = await h.database.db.select().from(signIns).where(eq(signIns.userId, USERS.rex));
    expect(live.filter((row) => row.revokedAt === null)).toEqual([]);

    expect(await sessionStatus(someoneElse.bearer)).toBe(200);
    expect((await refresh(someoneElse.cookie)).statusCode).toBe(200);
  });
});
