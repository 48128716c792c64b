import { routes } from '@spacecadet/contract';
import { DEFAULT_BOT_PERMISSIONS } from '@spacecadet/core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loadApiConfig } from '../src/app.ts';
import {
  appWithRedisDown,
  closedPort,
  DASHBOARD_URL,
  GUILDS,
  type Harness,
  signIn,
  startHarness,
  testEnv,
  USERS,
} from './harness.ts';

let h: Harness;

beforeAll(async () => {
  h = await startHarness((config) => ({ ...config, rateLimit: { ...config.rateLimit, exchangeMax: 3 } }));
});
afterAll(async () => {
  await h?.close();
});

/** A port nothing listens on: bind, read the port, close. */
describe('OpenAPI', () => {
  it('documents every route of the contract, and serves the UI at /api/docs', async () => {
    const response = await h.app.inject({ url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json<{ paths: Record<string, Record<string, unknown>> }>();
    for (const def of Object.values(routes)) {
      const path = def.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      expect(document.paths[path]?.[def.method.toLowerCase()], `${def.method} ${def.path}`).toBeDefined();
    }
    const ui = await h.app.inject({ url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
  });
});

describe('health', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await h.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await h.app.inject({ url: '/readyz' })).json()).toEqual({
      status: 'ok',
      postgres: true,
      redis: true,
    });
  });
});

describe('security', () => {
  it('allows CORS from the dashboard only, with the Authorization header and credentials (the refresh cookie)', async () => {
    const preflight = await h.app.inject({
      method: 'OPTIONS',
      url: `/api/guilds/${GUILDS.station}/config`,
      headers: {
        origin: DASHBOARD_URL,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(DASHBOARD_URL);
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/Authorization/i);
    expect(preflight.headers['access-control-allow-credentials']).toBe('true');
    const foreign = await h.app.inject({ url: '/healthz', headers: { origin: 'https://evil.example' } });
    // Without an allowed origin no browser hands another site the answer, credentials or not.
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("sends security headers: OWASP's REST set on JSON answers, helmet's document set on HTML pages", async () => {
    const response = await h.app.inject({ url: '/healthz' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['strict-transport-security']).toBeDefined();
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    // Only a document reads these: JSON answers go without their bytes.
    expect(response.headers['x-dns-prefetch-control']).toBeUndefined();
    expect(response.headers['cross-origin-opener-policy']).toBeUndefined();
    for (const url of ['/api/docs/', '/admin/queues']) {
      const page = await h.app.inject({ url });
      expect(page.headers['x-content-type-options'], url).toBe('nosniff');
      expect(page.headers['x-dns-prefetch-control'], url).toBe('off');
      expect(page.headers['cross-origin-opener-policy'], url).toBe('same-origin');
      expect(String(page.headers['content-security-policy']), url).toContain("default-src 'self'");
    }
  });

  it('rate-limits the code exchange more strictly, per IP, in the error shape', async () => {
    const attempt = () =>
      h.app.inject({
        method: 'POST',
        url: '/api/auth/discord/exchange',
        payload: { code: 'x', code_verifier: 'v'.repeat(43) },
        remoteAddress: '10.9.8.7',
      });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await attempt()).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const limited = await attempt();
    expect(limited.json()).toMatchObject({ error: 'rate_limited' });
    expect(limited.headers['retry-after']).toBeDefined();
    // Another IP is not affected, nor are other routes for this one.
    const other = await h.app.inject({
      method: 'POST',
      url: '/api/auth/discord/exchange',
      payload: { code: 'x', code_verifier: 'v'.repeat(43) },
      remoteAddress: '10.9.8.6',
    });
    expect(other.statusCode).toBe(401);
    expect((await h.app.inject({ url: '/api/invite-url', remoteAddress: '10.9.8.7' })).statusCode).toBe(200);
  });
});

describe('install flow', () => {
  it('builds the invite URL with the guild preselected and the state carrying it', async () => {
    const response = await h.app.inject({ url: `/api/invite-url?guildId=${GUILDS.quiet}` });
    const url = new URL(response.json<{ url: string }>().url);
    expect(`${url.origin}${url.pathname}`).toBe(`${h.sandbox.oauthBase}/oauth2/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: '100000000000000001',
      permissions: DEFAULT_BOT_PERMISSIONS,
      scope: 'bot guilds applications.commands',
      response_type: 'code',
      redirect_uri: 'http://127.0.0.1:4000/install/callback',
      guild_id: GUILDS.quiet,
      disable_guild_select: 'true',
    });
    const state = JSON.parse(Buffer.from(url.searchParams.get('state') ?? '', 'base64url').toString());
    expect(state).toEqual({ guild_id: GUILDS.quiet });
    const plain = new URL((await h.app.inject({ url: '/api/invite-url' })).json<{ url: string }>().url);
    expect(plain.searchParams.has('guild_id')).toBe(false);
  });

  it('redirects /install to the authorize page and the callback to the dashboard', async () => {
    const install = await h.app.inject({ url: `/install?guildId=${GUILDS.quiet}` });
    expect(install.statusCode).toBe(302);
    expect(install.headers.location).toContain('/oauth2/authorize?');

    const withGuild = await h.app.inject({ url: `/install/callback?code=abc&guild_id=${GUILDS.quiet}` });
    expect(withGuild.statusCode).toBe(302);
    expect(withGuild.headers.location).toBe(`${DASHBOARD_URL}/?install=success&guild_id=${GUILDS.quiet}`);
    const state = Buffer.from(JSON.stringify({ guild_id: GUILDS.orbit })).toString('base64url');
    const fromState = await h.app.inject({ url: `/install/callback?code=abc&state=${state}` });
    expect(fromState.headers.location).toBe(`${DASHBOARD_URL}/?install=success&guild_id=${GUILDS.orbit}`);
    const denied = await h.app.inject({ url: '/install/callback?error=access_denied' });
    expect(denied.headers.location).toBe(`${DASHBOARD_URL}/?install=error`);
  });

  it('reports bot presence from bot_guilds', async () => {
    expect((await h.app.inject({ url: `/api/bot/in-guild/${GUILDS.station}` })).json()).toEqual({
      inGuild: true,
    });
    expect((await h.app.inject({ url: `/api/bot/in-guild/${GUILDS.quiet}` })).json()).toEqual({
      inGuild: false,
    });
  });
});

describe('with Redis down', () => {
  let down: FastifyInstance;

  beforeAll(async () => {
    down = await appWithRedisDown(h);
  });
  afterAll(async () => {
    await down?.close();
  });

  it('answers 503 on actions instead of hanging, and /readyz says not ready', async () => {
    const ada = await signIn(h, USERS.ada);
    const response = await down.inject({
      method: 'POST',
      url: `/api/guilds/${GUILDS.station}/color-roles/generate-roles`,
      headers: { authorization: ada },
    });
    expect(response.statusCode, response.body).toBe(503);
    expect(response.json()).toEqual({
      error: 'service_unavailable',
      message: 'Job queue unavailable. Try again shortly.',
    });

    const ready = await down.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().error).toBe('service_unavailable');
    // Reads that need no Redis still work.
    const config = await down.inject({
      url: `/api/guilds/${GUILDS.station}/config`,
      headers: { authorization: ada },
    });
    expect(config.statusCode).toBe(200);
  });
});

describe('with Postgres down', () => {
  let down: FastifyInstance;

  beforeAll(async () => {
    const env = testEnv(h.database, h.redis, h.sandbox);
    const port = await closedPort();
    down = await buildApp(
      loadApiConfig({ ...env, DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/nope` }),
      {
        logger: false,
      },
    );
  });
  afterAll(async () => {
    await down?.close();
  });

  it('answers 503 in the error shape, never a 500, and /readyz says not ready', async () => {
    const inGuild = await down.inject({ url: `/api/bot/in-guild/${GUILDS.station}` });
    expect(inGuild.statusCode).toBe(503);
    expect(inGuild.json().error).toBe('service_unavailable');
    const session = await down.inject({ url: '/api/auth/session', headers: { authorization: 'Bearer abc' } });
    expect(session.statusCode).toBe(503);
    const ready = await down.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().message).toContain('Postgres');
  });
});

describe('rate limit on guarded routes', () => {
  it('answers 429 to a flood of made-up tokens from one IP', async () => {
    const limited = await startHarness((config) => ({
      ...config,
      rateLimit: { ...config.rateLimit, max: 3 },
    }));
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const response = await limited.app.inject({
          url: `/api/guilds/${GUILDS.station}/config`,
          headers: { authorization: `Bearer guess-${i}` },
          remoteAddress: '10.1.1.1',
        });
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});
