import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_IDS, type Sandbox, startSandbox } from '../src/index.ts';
import { authorize, bot, control, exchange, pkce, REDIRECT, signIn } from './helpers.ts';

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterEach(async () => {
  await sandbox.close();
});

const { users, guilds } = SANDBOX_IDS;

async function codeFor(userId: string, challenge: string): Promise<string> {
  const res = await authorize(sandbox, {
    sandbox_user: userId,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  expect(res.status).toBe(302);
  expect(res.location?.origin + (res.location?.pathname ?? '')).toBe(REDIRECT);
  expect(res.location?.searchParams.get('state')).toBe('st-1');
  return res.location?.searchParams.get('code') ?? '';
}

describe('OAuth2 authorize', () => {
  it('shows a user picker without sandbox_user', async () => {
    const res = await authorize(sandbox, {});
    expect(res.status).toBe(200);
    expect(res.text).toContain(`data-user-id="${users.ada}"`);
    expect(res.text).not.toContain(`data-user-id="${SANDBOX_IDS.bot}"`);
  });

  it('also answers under /api/oauth2/authorize like Discord', async () => {
    const query = new URLSearchParams({
      client_id: SANDBOX_IDS.app,
      response_type: 'code',
      scope: 'identify',
      redirect_uri: REDIRECT,
      sandbox_user: users.mo,
    });
    const res = await fetch(`${sandbox.apiBase}/oauth2/authorize?${query}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location') ?? '').searchParams.get('code')).toBeTruthy();
  });

  it('rejects an unknown client_id and a missing redirect_uri with an HTML 400', async () => {
    expect((await authorize(sandbox, { client_id: '42', sandbox_user: users.ada })).status).toBe(400);
    const missing = await authorize(sandbox, { redirect_uri: '', sandbox_user: users.ada });
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('redirect_uri');
  });
});

describe('OAuth2 token exchange', () => {
  it('exchanges a code with the right PKCE verifier', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(users.ada, challenge);
    const res = await exchange(sandbox, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 604800, scope: 'identify guilds' });
    expect(typeof res.body.access_token).toBe('string');
    const me = await fetch(`${sandbox.apiBase}/v10/users/@me`, {
      headers: { authorization: `Bearer ${String(res.body.access_token)}` },
    });
    expect(await me.json()).toMatchObject({ id: users.ada, username: 'ada', discriminator: '0' });
  });

  it('accepts HTTP Basic client authentication', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(users.mo, challenge);
    const res = await fetch(`${sandbox.apiBase}/v10/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${SANDBOX_IDS.app}:sandbox-secret`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      }),
    });
    expect(res.status).toBe(200);
  });

  it('refuses a JSON body as Discord does (its fields are not read), and the code still works as a form', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(users.ada, challenge);
    const fields = {
      client_id: SANDBOX_IDS.app,
      client_secret: 'sandbox-secret',
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    };
    const res = await fetch(`${sandbox.apiBase}/v10/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(fields),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'unsupported_grant_type',
      error_description: 'Grant type None is not supported',
    });
    const revoke = await fetch(`${sandbox.apiBase}/v10/oauth2/token/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: SANDBOX_IDS.app, client_secret: 'sandbox-secret', token: 'x' }),
    });
    expect(revoke.status).toBe(401);
    const form = await exchange(sandbox, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect(form.status).toBe(200);
  });

  it('names an unknown grant type', async () => {
    const res = await exchange(sandbox, { grant_type: 'password' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'unsupported_grant_type',
      error_description: 'Grant type password is not supported',
    });
  });

  it('rejects a wrong verifier with invalid_grant', async () => {
    const { challenge } = pkce();
    const code = await codeFor(users.ada, challenge);
    const res = await exchange(sandbox, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: pkce().verifier,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('rejects a reused code', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(users.ada, challenge);
    const fields = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    };
    expect((await exchange(sandbox, fields)).status).toBe(200);
    const again = await exchange(sandbox, fields);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'invalid_grant' });
  });

  it('rejects a redirect_uri that differs from the authorize one', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(users.ada, challenge);
    const res = await exchange(sandbox, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: 'http://localhost:5173/elsewhere',
      code_verifier: verifier,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('rejects a code older than 10 minutes and a wrong client secret', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(users.ada, challenge);
    const fields = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    };
    expect((await exchange(sandbox, { ...fields, client_secret: 'nope' })).body.error).toBe('invalid_client');
    await control(sandbox, 'POST', '/clock', { advance_ms: 10 * 60 * 1000 + 1 });
    expect((await exchange(sandbox, fields)).body.error).toBe('invalid_grant');
  });

  it('rotates the refresh token on refresh', async () => {
    const first = await signIn(sandbox, users.nia);
    const refreshed = await exchange(sandbox, {
      grant_type: 'refresh_token',
      refresh_token: String(first.refresh_token),
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).not.toBe(first.access_token);
    expect(refreshed.body.refresh_token).not.toBe(first.refresh_token);
    const reused = await exchange(sandbox, {
      grant_type: 'refresh_token',
      refresh_token: String(first.refresh_token),
    });
    expect(reused.body.error).toBe('invalid_grant');
  });

  it('answers 401 for an access token the control API expired', async () => {
    const tokens = await signIn(sandbox, users.ada);
    const headers = { authorization: `Bearer ${String(tokens.access_token)}` };
    expect((await fetch(`${sandbox.apiBase}/v10/users/@me`, { headers })).status).toBe(200);
    expect((await control(sandbox, 'POST', '/tokens/expire', { user_id: users.ada })).body).toEqual({
      expired: 1,
    });
    const res = await fetch(`${sandbox.apiBase}/v10/users/@me`, { headers });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: '401: Unauthorized', code: 0 });
  });
});

describe('users/@me/guilds', () => {
  async function guildsOf(userId: string) {
    const tokens = await signIn(sandbox, userId);
    const res = await fetch(`${sandbox.apiBase}/v10/users/@me/guilds`, {
      headers: { authorization: `Bearer ${String(tokens.access_token)}` },
    });
    const list = (await res.json()) as Array<{ id: string; owner: boolean; permissions: string }>;
    return new Map(list.map((g) => [g.id, { owner: g.owner, perms: BigInt(g.permissions) }]));
  }
  const ADMIN = 0x8n;
  const MANAGE_GUILD = 0x20n;

  it('gives ada owner rights in Station and ADMINISTRATOR in Quiet Quarters, not Orbit', async () => {
    const ada = await guildsOf(users.ada);
    expect(ada.get(guilds.station)?.owner).toBe(true);
    expect((ada.get(guilds.station)?.perms ?? 0n) & ADMIN).toBe(ADMIN);
    expect(ada.get(guilds.quiet)?.owner).toBe(false);
    expect((ada.get(guilds.quiet)?.perms ?? 0n) & ADMIN).toBe(ADMIN);
    expect(ada.has(guilds.orbit)).toBe(false);
  });

  it('gives mo MANAGE_GUILD without ADMINISTRATOR in Station', async () => {
    const mo = await guildsOf(users.mo);
    const perms = mo.get(guilds.station)?.perms ?? 0n;
    expect(perms & MANAGE_GUILD).toBe(MANAGE_GUILD);
    expect(perms & ADMIN).toBe(0n);
    expect((mo.get(guilds.orbit)?.perms ?? 0n) & MANAGE_GUILD).toBe(0n);
  });

  it('gives nia no management rights and rex only Orbit as owner', async () => {
    const nia = await guildsOf(users.nia);
    expect((nia.get(guilds.station)?.perms ?? 0n) & (ADMIN | MANAGE_GUILD)).toBe(0n);
    const rex = await guildsOf(users.rex);
    expect([...rex.keys()]).toEqual([guilds.orbit]);
    expect(rex.get(guilds.orbit)?.owner).toBe(true);
  });
});

describe('bot install', () => {
  it('adds the bot to Quiet Quarters and redirects with guild_id and permissions', async () => {
    const res = await authorize(sandbox, {
      scope: 'bot applications.commands',
      response_type: 'code',
      sandbox_user: users.ada,
      guild_id: guilds.quiet,
      permissions: '268435456',
    });
    expect(res.status).toBe(302);
    expect(res.location?.searchParams.get('guild_id')).toBe(guilds.quiet);
    expect(res.location?.searchParams.get('permissions')).toBe('268435456');
    const roles = await bot(sandbox, 'GET', `/guilds/${guilds.quiet}/roles`);
    expect(roles.status).toBe(200);
    expect(roles.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Space Cadet', managed: true })]),
    );
  });

  it('shows a bot picker with only the guilds each user can manage', async () => {
    const page = await authorize(sandbox, { scope: 'bot', response_type: '', redirect_uri: '', state: '' });
    expect(page.status).toBe(200);
    expect(page.text).toContain(`data-user-id="${users.ada}" data-guild-id="${guilds.quiet}"`);
    expect(page.text).toContain(`data-user-id="${users.mo}" data-guild-id="${guilds.station}"`);
    expect(page.text).not.toContain(`data-user-id="${users.mo}" data-guild-id="${guilds.orbit}"`);
    expect(page.text).not.toContain(`data-user-id="${users.nia}" data-guild-id=`);
    const preselected = await authorize(sandbox, { scope: 'bot', redirect_uri: '', guild_id: guilds.quiet });
    expect(preselected.text).not.toContain(`data-guild-id="${guilds.station}"`);
  });

  it('refuses to install for a user who cannot manage the guild', async () => {
    const res = await authorize(sandbox, { scope: 'bot', sandbox_user: users.nia, guild_id: guilds.station });
    expect(res.status).toBe(400);
  });
});
