import { GatewayIntentBits } from 'discord-api-types/v10';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  SANDBOX_BOT_TOKEN,
  SANDBOX_CLIENT_SECRET,
  SANDBOX_IDS,
  type Sandbox,
  startSandbox,
} from '../src/index.ts';
import { authorize, bot, control, exchange } from './helpers.ts';

/**
 * The application's Developer Portal settings (issue 36, `pnpm doctor`): `GET /applications/@me`
 * with its redirect URIs and flags, `PATCH /_sandbox/application` breaking them as admins do,
 * OAuth2 refusing an unregistered redirect URI, the members intent refused at IDENTIFY (4014)
 * following the flags, and the token endpoint's client-credentials grant.
 */

let sandbox: Sandbox;
beforeEach(async () => {
  // Several IDENTIFYs in a row: no 5 s wait between them.
  sandbox = await startSandbox({ port: 0, identifyIntervalMs: 0 });
});
afterEach(async () => {
  await sandbox.close();
});

const DASHBOARD = 'https://bot.example.org/auth/callback';
const INSTALL = 'https://api.example.org/install/callback';
const MEMBERS_LIMITED = 1 << 15;

async function application() {
  const res = await bot(sandbox, 'GET', '/applications/@me');
  expect(res.status).toBe(200);
  return res.body as {
    id: string;
    redirect_uris: string[];
    flags: number;
    flags_new: string;
    owner: { id: string };
  };
}

/** IDENTIFYs with `intents`: the close code and reason, or `ready`. */
async function identify(intents: number): Promise<{ code: number; reason: string } | 'ready'> {
  const ws = new WebSocket(`${sandbox.url.replace('http', 'ws')}/gateway?v=10&encoding=json`);
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const ready = new Promise<'ready'>((resolve) =>
    ws.on('message', (raw) => {
      const payload = JSON.parse(raw.toString()) as { op: number; t?: string };
      if (payload.op === 10)
        ws.send(JSON.stringify({ op: 2, d: { token: SANDBOX_BOT_TOKEN, intents, properties: {} } }));
      if (payload.t === 'READY') resolve('ready');
    }),
  );
  return Promise.race([closed, ready]).finally(() => ws.close());
}

describe('GET /applications/@me', () => {
  it("answers the fixture's good application: the demo's redirect URIs and the Server Members intent", async () => {
    const app = await application();
    expect(app).toMatchObject({
      id: SANDBOX_IDS.app,
      redirect_uris: ['http://127.0.0.1:5173/auth/callback', 'http://127.0.0.1:4000/install/callback'],
      flags: MEMBERS_LIMITED,
      flags_new: String(MEMBERS_LIMITED),
      owner: { id: SANDBOX_IDS.users.ada },
      bot_public: true,
      team: null,
    });
    expect(await bot(sandbox, 'GET', '/applications/@me').then((r) => r.status)).toBe(200);
    const anonymous = await fetch(`${sandbox.apiBase}/v10/applications/@me`);
    expect(anonymous.status).toBe(401);
  });
});

describe('PATCH /_sandbox/application', () => {
  it('sets the redirect URIs and flags, and a reset restores the fixture', async () => {
    const patched = await control(sandbox, 'PATCH', '/application', { redirect_uris: [DASHBOARD], flags: 0 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ redirect_uris: [DASHBOARD], flags: 0 });
    expect(await application()).toMatchObject({ redirect_uris: [DASHBOARD], flags: 0 });
    await control(sandbox, 'POST', '/reset');
    expect(await application()).toMatchObject({ flags: MEMBERS_LIMITED });
    expect((await application()).redirect_uris).toHaveLength(2);
  });

  it.each([
    [{ redirect_uris: 'https://x.example' }, /"redirect_uris" must be a list/],
    [{ redirect_uris: ['ftp://x.example/cb'] }, /"ftp:\/\/x.example\/cb" is not one/],
    [{ redirect_uris: [1] }, /1 is not one/],
    [{ flags: -1 }, /"flags" must be a whole number/],
    [{ flags: 1.5 }, /"flags" must be a whole number/],
  ])('refuses %j with 400 naming the field, changing nothing', async (body, message) => {
    const res = await control(sandbox, 'PATCH', '/application', { flags: 0, ...body });
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message).toMatch(message);
    expect((await application()).flags).toBe(MEMBERS_LIMITED);
  });
});

describe('OAuth2 redirect URIs', () => {
  it('accepts any loopback redirect URI until URIs are registered, then only those, as Discord does', async () => {
    expect((await authorize(sandbox, { sandbox_user: SANDBOX_IDS.users.ada })).status).toBe(302);
    const remote = await authorize(sandbox, { sandbox_user: SANDBOX_IDS.users.ada, redirect_uri: DASHBOARD });
    expect(remote.status).toBe(400);
    expect(remote.text).toContain('Invalid OAuth2 redirect_uri');

    await control(sandbox, 'PATCH', '/application', { redirect_uris: [DASHBOARD, INSTALL] });
    const registered = await authorize(sandbox, {
      sandbox_user: SANDBOX_IDS.users.ada,
      redirect_uri: DASHBOARD,
    });
    expect(registered.status).toBe(302);
    expect(registered.location?.href.startsWith(`${DASHBOARD}?code=`)).toBe(true);
    // The loopback URI the tests use is no longer registered.
    const loopback = await authorize(sandbox, { sandbox_user: SANDBOX_IDS.users.ada });
    expect(loopback.status).toBe(400);
    expect(loopback.text).toContain('Invalid OAuth2 redirect_uri');
  });
});

describe('the Server Members intent follows the flags', () => {
  it('closes IDENTIFY with GUILD_MEMBERS with 4014 once the flags lack it, and accepts either members flag', async () => {
    const members = GatewayIntentBits.Guilds | GatewayIntentBits.GuildMembers;
    expect(await identify(members)).toBe('ready');
    await control(sandbox, 'PATCH', '/application', { flags: 0 });
    expect(await identify(members)).toEqual({ code: 4014, reason: 'Disallowed intent(s).' });
    expect(await identify(GatewayIntentBits.Guilds)).toBe('ready');
    await control(sandbox, 'PATCH', '/application', { flags: 1 << 14 });
    expect(await identify(members)).toBe('ready');
  });
});

describe('POST /oauth2/token client_credentials', () => {
  const basic = (secret: string) => `Basic ${Buffer.from(`${SANDBOX_IDS.app}:${secret}`).toString('base64')}`;
  const withBasic = (secret: string) =>
    fetch(`${sandbox.apiBase}/v10/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(secret) },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'identify' }),
    });

  it("gives the owner's token for the right id and secret (Basic auth or body), no refresh token", async () => {
    const res = await withBasic(SANDBOX_CLIENT_SECRET);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: 'Bearer', scope: 'identify' });
    expect(body).not.toHaveProperty('refresh_token');
    const me = await fetch(`${sandbox.apiBase}/v10/users/@me`, {
      headers: { authorization: `Bearer ${String(body.access_token)}` },
    });
    expect(((await me.json()) as { id: string }).id).toBe(SANDBOX_IDS.users.ada);
    expect((await exchange(sandbox, { grant_type: 'client_credentials' })).status).toBe(200);
  });

  it('answers 401 invalid_client to a wrong secret', async () => {
    const res = await withBasic('not-the-secret');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'invalid_client' });
    expect(await exchange(sandbox, { grant_type: 'client_credentials', client_secret: 'nope' })).toEqual({
      status: 401,
      body: { error: 'invalid_client' },
    });
  });
});
